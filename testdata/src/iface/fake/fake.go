// Package fake is the twin of use's instrumented client: its Doer has only its own fake // want package:"has effects"
// behind it, and the package never puts an *http.Client behind an interface, so a call
// through it runs the fake, which does nothing.
package fake

import (
	"context"
	"net/http"

	"github.com/hibiken/asynq"
)

type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

type recorder struct{ sent []*http.Request }

func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	r.sent = append(r.sent, req)
	return &http.Response{StatusCode: http.StatusOK}, nil
}

var client Doer = &recorder{}

func Ship(ctx context.Context, t *asynq.Task) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://partner.example/ship", nil)
	_, err := client.Do(req)
	return err
}
