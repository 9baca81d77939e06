// Package daykeys exercises keys made from the clock read to the day: a daily job's task // want package:"has effects" package:`retries asynq:digest:send=unset asynq:report:send=unset`
// id made from time.Now().Format("2006-01-02") is the same for every run of the day, so a
// redelivery's enqueue is deduplicated. Twins read the clock to the hour or the second, or
// whole: their ids change between runs.
package daykeys

import (
	"context"
	"time"

	"github.com/hibiken/asynq"
)

var client *asynq.Client

// digest enqueues the day's digest under the day's id.
func digest(ctx context.Context, t *asynq.Task) error {
	day := time.Now().Format("2006-01-02")
	_, err := client.Enqueue(asynq.NewTask("digest:send", nil), asynq.TaskID("digest:"+day))
	return err
}

// monthly enqueues the month's report under a compact layout.
func monthly(ctx context.Context, t *asynq.Task) error {
	_, err := client.Enqueue(asynq.NewTask("report:send", nil), asynq.TaskID("report:"+time.Now().UTC().Format("200601")))
	return err
}

// hourly reads the clock to the hour: a redelivery in the next hour enqueues again.
func hourly(ctx context.Context, t *asynq.Task) error {
	hour := time.Now().Format("2006-01-02T15")
	_, err := client.Enqueue(asynq.NewTask("digest:send", nil), asynq.TaskID("digest:"+hour)) // want `handler hourly: asynq task enqueued with a key that changes on every retry \(made from time.Now\)`
	return err
}

// stamped reads the clock whole.
func stamped(ctx context.Context, t *asynq.Task) error {
	_, err := client.Enqueue(asynq.NewTask("digest:send", nil), asynq.TaskID("digest:"+time.Now().Format(time.RFC3339))) // want `handler stamped: asynq task enqueued with a key that changes on every retry \(made from time.Now\)`
	return err
}

// Register runs the handlers on the mux.
func Register(mux *asynq.ServeMux) { // want Register:`effects publish:unstable-key\(\(\*asynq.Client\).Enqueue\)$`
	mux.HandleFunc("digest", digest)
	mux.HandleFunc("monthly", monthly)
	mux.HandleFunc("hourly", hourly)
	mux.HandleFunc("stamped", stamped)
}
