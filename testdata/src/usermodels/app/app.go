// Package app registers a function of another package that has no handler shape: the // want package:"has effects"
// finding can only be reported at the registration.
package app

import (
	"acme/worker"
	"usermodels/activities"
)

func Main(w *worker.Worker) { // want Main:`effects email.send:unprotected\(smtp.SendMail\)`
	w.RegisterActivity(activities.Standalone) // want `handler activities.Standalone: email sent with no deduplication \(activities.Standalone -> smtp.SendMail\); missing: key, enforcement \(registered here\)`
}
