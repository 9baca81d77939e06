// Package app is the worker's main: it registers a service built by another package's // want package:"has effects"
// constructor, held in a local, as Temporal activities (every exported method).
package app

import (
	"net/http"

	"go.temporal.io/sdk/worker"

	"temporalremote/payments"
)

func Main(w worker.Worker) {
	svc := payments.New(http.DefaultClient)
	w.RegisterActivity(svc) // want `handler \(\*payments.Service\).Authorize: HTTP POST without an Idempotency-Key header \(\(\*payments.Service\).Authorize -> \(\*http.Client\).Do\); missing: key, enforcement \(registered here\)`
}
