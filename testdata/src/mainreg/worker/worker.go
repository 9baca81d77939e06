// Package worker wires the server, as a main package does: under a per-package driver // want package:"has effects"
// (go vet, golangci-lint) the handlers of another package are reported here, at their
// registration, judged from their facts as their own package would judge them: partial for
// two systems, and the runtime middleware's wrap seen.
package worker

import (
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/hibiken/asynq"

	"mainreg/tasks"
)

func Run(h *tasks.Handlers) { // want Run:"effects http.write:unprotected\\(http.Post\\) sql.write:unprotected\\(\\(\\*sql.DB\\).ExecContext\\)"
	mw, _ := idempotency.New[*asynq.Task](func(t *asynq.Task) (string, error) { return string(t.Payload()), nil },
		idempotency.WithRetention(24*time.Hour))
	mux := asynq.NewServeMux()
	mux.HandleFunc("welcome", h.HandleWelcome)                                     // want `handler \(\*tasks.Handlers\).HandleWelcome: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(\(\*tasks.Handlers\).HandleWelcome -> http.Post\); missing: key, enforcement, partial \(\S.* do not commit together\) \(registered here\)` `handler \(\*tasks.Handlers\).HandleWelcome: SQL write not safe to repeat: INSERT without conflict handling \(\(\*tasks.Handlers\).HandleWelcome -> \(\*sql.DB\).ExecContext\); missing: key, enforcement, partial \(\S.* do not commit together\) \(registered here\)`
	mux.Handle("charge", idemasynq.Handler(mw, asynq.HandlerFunc(h.HandleCharge))) // want `handler \(\*tasks.Handlers\).HandleCharge: SQL write not safe to repeat: INSERT without conflict handling; the idempotency middleware claims this handler, but a crash between the write and its completion marker repeats it \(store the completion in the same transaction: sqlstore CompleteTx\) \(\(\*tasks.Handlers\).HandleCharge -> \(\*sql.DB\).ExecContext\); missing: enforcement \(registered here\)`
	mux.HandleFunc("count", h.HandleCount)
}
