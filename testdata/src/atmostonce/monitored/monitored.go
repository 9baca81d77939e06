// Package monitored holds asynq handlers that start a run and watch it in a goroutine. // want package:"has effects"
// A goroutine that selects only on what its handler made (the run's done channel, a channel
// of its output, the context's Done) is the handler's work left behind, even when the
// handler logs after starting it: the task is acknowledged when the handler returns nil,
// so the record made when the run is done is made at most once. A goroutine that drains a
// queue the package shares is a consumer of its own, and a handler that fails after
// starting its goroutine has it started again: both stay reported.
package monitored

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

var (
	db      *sql.DB
	log     *slog.Logger
	jobs    = make(chan string)
	results = make(chan error)
)

// run is a piece of work started outside the handler.
type run struct{ done chan struct{} }

func start(id string) *run { return &run{done: make(chan struct{})} }

// Done is closed when the run ends.
func (r *run) Done() <-chan struct{} { return r.done }

func record(ctx context.Context, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO runs_done (run_id) VALUES ($1)", id)
	return err
}

func monitored(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	r := start(id)
	out := make(chan string)
	go func() {
		for {
			select {
			case <-r.Done():
				_ = record(context.Background(), id)
				return
			case line := <-out:
				log.Info("output", "line", line)
			case <-ctx.Done():
				return
			}
		}
	}()
	log.Info("run started", "id", id)
	return nil
}

func pooled(ctx context.Context, t *asynq.Task) error {
	go func() { // want `handler pooled: SQL write not safe to repeat`
		for id := range jobs {
			_ = record(context.Background(), id)
		}
	}()
	return nil
}

func handedOn(ctx context.Context, t *asynq.Task) error {
	go func() { // want `handler handedOn: SQL write not safe to repeat`
		results <- record(context.Background(), string(t.Payload()))
	}()
	return nil
}

func startedThenFailed(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	r := start(id)
	go func() { // want `handler startedThenFailed: SQL write not safe to repeat`
		<-r.Done()
		_ = record(context.Background(), id)
	}()
	log.Info("run started", "id", id)
	return errors.New("queue full")
}

// notifyError reports an error to the team's chat, in a goroutine.
func notifyError(err error) {
	go func(e error) {
		_, _ = http.Post("https://chat.example.com/hooks/errors", "text/plain", strings.NewReader(e.Error()))
	}(err)
}

func indexed() error { return nil }

// afterIndex reports a failed index, then logs: the report is its last act.
func afterIndex() {
	if err := indexed(); err != nil {
		notifyError(err)
		log.Info("index failure reported")
	}
}

// rejected goes on after afterIndex: the report is a report all the same.
func rejected(ctx context.Context, t *asynq.Task) error {
	afterIndex()
	return errors.New("rejected")
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("run:monitored", monitored)
	mux.HandleFunc("run:pooled", pooled)
	mux.HandleFunc("run:failed", startedThenFailed)
	mux.HandleFunc("run:handed", handedOn)
	mux.HandleFunc("run:rejected", rejected)
}
