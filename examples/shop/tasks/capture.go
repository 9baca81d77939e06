package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// TypeCaptureLedger records the ledger rows of a captured payment.
const TypeCaptureLedger = "payment:capture_ledger"

// CaptureLedgerPayload is the payload of a TypeCaptureLedger task.
type CaptureLedgerPayload struct {
	OrderID     string `json:"order_id"`
	AmountCents int64  `json:"amount_cents"`
}

// CaptureLedgerHandler writes the ledger row of a capture. The row itself is a plain
// INSERT; the task runs behind the idempotency middleware (see RegisterProtected), and the
// handler stores the task's completion marker in the transaction that writes the row, so a
// redelivered task neither runs twice concurrently nor writes the row again after a crash.
//
// idemlint: clean, wrapped by the runtime middleware, completion in the write's transaction
type CaptureLedgerHandler struct {
	DB     *sql.DB
	Claims *sqlstore.Store
}

// ProcessTask implements asynq.Handler.
func (h *CaptureLedgerHandler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	var p CaptureLedgerPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return fmt.Errorf("capture ledger: %v: %w", err, asynq.SkipRetry)
	}
	tx, err := h.DB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("capture ledger: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO ledger (order_id, kind, amount_cents, reference) VALUES ($1, 'capture', $2, $3)`,
		p.OrderID, p.AmountCents, "capture-"+p.OrderID); err != nil {
		return fmt.Errorf("capture ledger: %w", err)
	}
	if err := h.Claims.CompleteTx(ctx, tx); err != nil {
		return fmt.Errorf("capture ledger: %w", err)
	}
	return tx.Commit()
}

// RegisterProtected routes TypeCaptureLedger through the idempotency middleware, whose
// claims live in the shop's PostgreSQL database. The key is the order ID; completion markers
// are kept for 14 days, longer than any redelivery the payment provider's webhooks and
// asynq's retries can produce.
func RegisterProtected(mux *asynq.ServeMux, db *sql.DB) error {
	claims, err := sqlstore.New(db, sqlstore.Config{Dialect: sqlstore.Postgres})
	if err != nil {
		return fmt.Errorf("capture ledger claims: %w", err)
	}
	key := idemasynq.PayloadKey(func(p CaptureLedgerPayload) string { return p.OrderID })
	mw, err := idempotency.New(key, idempotency.WithStore(claims), idempotency.WithRetention(14*24*time.Hour))
	if err != nil {
		return fmt.Errorf("capture ledger middleware: %w", err)
	}
	mux.Handle(TypeCaptureLedger, idemasynq.Handler(mw, &CaptureLedgerHandler{DB: db, Claims: claims}))
	return nil
}
