// Package atmostonce exercises jobs the queue never runs again: a River job whose every // want package:"has effects" package:`retries asynq:email:once=0 asynq:email:retried=unset river:atmostonce.ChargeArgs=1 river:atmostonce.ChargeArgs=unset river:atmostonce.PowerArgs=1 river:atmostonce/jobs.ProvisionArgs=unset`
// insert sets MaxAttempts 1, an asynq task made only with MaxRetry(0): their effects are
// not retry duplicates. A job also inserted with the default retries stays reported.
package atmostonce

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/riverqueue/river"

	"atmostonce/jobs"
)

var (
	riverClient *river.Client[any]
	asynqClient *asynq.Client
)

func post(id string) error {
	_, err := http.Post("https://pve.example.com/api/power", "text/plain", strings.NewReader(id))
	return err
}

// PowerArgs powers a machine off; it is inserted with one attempt only.
type PowerArgs struct{ ID string }

func (PowerArgs) Kind() string { return "power" }

// PowerWorker's job runs at most once: River discards it after its one attempt.
type PowerWorker struct {
	river.WorkerDefaults[PowerArgs]
}

func (w *PowerWorker) Work(ctx context.Context, job *river.Job[PowerArgs]) error { // want Work:`effects http.write:unprotected\(http.Post\)`
	return post(job.Args.ID)
}

// ChargeArgs is inserted with one attempt at one site, with the default at another.
type ChargeArgs struct{ ID string }

func (ChargeArgs) Kind() string { return "charge" }

// ChargeWorker's job is retried when the second site inserts it.
type ChargeWorker struct {
	river.WorkerDefaults[ChargeArgs]
}

func (w *ChargeWorker) Work(ctx context.Context, job *river.Job[ChargeArgs]) error { // want Work:`effects http.write:unprotected\(http.Post\)`
	return post(job.Args.ID) // want `handler \(\*ChargeWorker\).Work: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(\(\*ChargeWorker\).Work -> atmostonce.post -> http.Post\); handler sendRetried reaches it too, through atmostonce.post; missing: key, enforcement$`
}

// ProvisionWorker's args type makes every insert a single attempt.
type ProvisionWorker struct {
	river.WorkerDefaults[jobs.ProvisionArgs]
}

func (w *ProvisionWorker) Work(ctx context.Context, job *river.Job[jobs.ProvisionArgs]) error { // want Work:`effects http.write:unprotected\(http.Post\)`
	return post(job.Args.ID)
}

// Enqueue inserts the jobs.
func Enqueue(ctx context.Context, id string) error { // want Enqueue:`effects publish:unprotected\(\(\*river.Client\).Insert\)`
	if _, err := riverClient.Insert(ctx, PowerArgs{ID: id}, &river.InsertOpts{MaxAttempts: 1, Queue: "pve"}); err != nil {
		return err
	}
	if _, err := riverClient.Insert(ctx, ChargeArgs{ID: id}, &river.InsertOpts{MaxAttempts: 1}); err != nil {
		return err
	}
	if _, err := riverClient.Insert(ctx, ChargeArgs{ID: id}, nil); err != nil {
		return err
	}
	if _, err := riverClient.Insert(ctx, jobs.ProvisionArgs{ID: id}, nil); err != nil {
		return err
	}
	if _, err := asynqClient.Enqueue(asynq.NewTask("email:once", []byte(id), asynq.MaxRetry(0))); err != nil {
		return err
	}
	_, err := asynqClient.Enqueue(asynq.NewTask("email:retried", []byte(id)))
	return err
}

func sendOnce(ctx context.Context, t *asynq.Task) error {
	return post(string(t.Payload()))
}

func sendRetried(ctx context.Context, t *asynq.Task) error {
	return post(string(t.Payload())) // want `handler sendRetried: HTTP POST without an Idempotency-Key header .*; missing: key, enforcement$`
}

// Register registers the workers and the task handlers.
func Register(workers *river.Workers, mux *asynq.ServeMux) { // want Register:`effects http.write:unprotected\(http.Post\)`
	river.AddWorker(workers, &PowerWorker{})
	river.AddWorker(workers, &ChargeWorker{})
	river.AddWorker(workers, &ProvisionWorker{})
	mux.HandleFunc("email:once", sendOnce)
	mux.HandleFunc("email:retried", sendRetried)
}
