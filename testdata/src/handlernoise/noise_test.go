package handlernoise

import (
	"context"
	"testing"

	"github.com/hibiken/asynq"
)

// A test's handlers are fixtures: they run in the test, not in a queue.
func TestFake(t *testing.T) { // want TestFake:`effects email.send:unprotected\(smtp.SendMail\)`
	mux := asynq.NewServeMux()
	mux.HandleFunc("fake", func(ctx context.Context, task *asynq.Task) error {
		return send()
	})
	fake := func(ctx context.Context, task *asynq.Task) error { return send() }
	_ = fake
}

func fakeHandler(ctx context.Context, task *asynq.Task) error { return send() }

var _ = asynq.HandlerFunc(fakeHandler)

// mailingDouble is a test double with an effect: no handler of the package reaches it.
type mailingDouble struct{}

func (mailingDouble) Notify(ctx context.Context) error { return send() } // want Notify:`effects email.send:unprotected\(smtp.SendMail\)`

var _ Notifier = mailingDouble{}
