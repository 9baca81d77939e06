// Package rootcause holds handlers that reach one sink through a function they share, as // want package:"has effects"
// real services do (one notifier called by every task type): by default the sink is one
// finding, at the call in the shared function, naming the handlers that reach it.
package rootcause

import (
	"context"
	"database/sql"
	"net/http"
	"strings"

	"rootcause/slack"

	"github.com/hibiken/asynq"
)

var client = &http.Client{}

var db *sql.DB

// notify is the shared function: three task types call it, and its POST is one problem,
// fixed once here.
func notify(ctx context.Context, text string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/notify", strings.NewReader(text))
	_, err := client.Do(req) // want `^handler OrderPlaced: HTTP POST without an Idempotency-Key header \(OrderPlaced -> rootcause.notify -> \(\*http.Client\).Do\); 3 other handlers reach it too, through rootcause.notify \(one finding for 3 of the 4\); missing: key, enforcement$`
	return err
}

func OrderPlaced(ctx context.Context, t *asynq.Task) error { // want OrderPlaced:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return notify(ctx, "placed "+string(t.Payload()))
}

func OrderShipped(ctx context.Context, t *asynq.Task) error { // want OrderShipped:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return notify(ctx, "shipped "+string(t.Payload()))
}

func OrderCancelled(ctx context.Context, t *asynq.Task) error { // want OrderCancelled:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return notify(ctx, "cancelled "+string(t.Payload()))
}

// OrderRefunded reaches the shared POST and a POST of its own: its finding stays, for the
// sink that is its own.
func OrderRefunded(ctx context.Context, t *asynq.Task) error { // want OrderRefunded:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	if err := notify(ctx, "refunded "+string(t.Payload())); err != nil {
		return err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://refunds.example.com/v1/refunds", strings.NewReader(string(t.Payload())))
	_, err := client.Do(req) // want `^handler OrderRefunded: HTTP POST without an Idempotency-Key header \(OrderRefunded -> \(\*http.Client\).Do\) and 1 more http.write sink; missing: key, enforcement$`
	return err
}

// record is shared too, but one handler declares its key and enforcement away from it:
// their findings leave different decisions open, and each keeps its own.
func record(ctx context.Context, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO audit (id) VALUES ($1)", id)
	return err
}

func AuditA(ctx context.Context, t *asynq.Task) error { // want AuditA:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return record(ctx, string(t.Payload())) // want `^handler AuditA: SQL write not safe to repeat: INSERT without conflict handling \(AuditA -> rootcause.record -> \(\*sql.DB\).ExecContext\); handler AuditB reaches it too, through rootcause.record; missing: key, enforcement$`
}

// AuditB's declaration answers the key (its job carries one), not the enforcement.
//
//idemlint:decisions key=Payload -- the payload is the audit entry's id
func AuditB(ctx context.Context, t *asynq.Task) error { // want AuditB:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return record(ctx, string(t.Payload())) // want `^handler AuditB: SQL write not safe to repeat: INSERT without conflict handling \(AuditB -> rootcause.record -> \(\*sql.DB\).ExecContext\); handler AuditA reaches it too, through rootcause.record; missing: enforcement$`
}

// The shared function is in another package: the one finding stays at the first handler's
// call, the only place of the chain in this package.
func Alert(ctx context.Context, t *asynq.Task) error { // want Alert:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return slack.Post(ctx, "alert "+string(t.Payload())) // want `^handler Alert: HTTP POST without an Idempotency-Key header \(Alert -> slack.Post -> \(\*http.Client\).Do\); handler Page reaches it too, through slack.Post \(one finding for both\); missing: key, enforcement$`
}

func Page(ctx context.Context, t *asynq.Task) error { // want Page:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return slack.Post(ctx, "page "+string(t.Payload()))
}

// Register wires the task types.
func Register(mux *asynq.ServeMux) { // want Register:`effects http.write:unprotected\(\(\*http.Client\).Do\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	mux.HandleFunc("order:placed", OrderPlaced)
	mux.HandleFunc("order:shipped", OrderShipped)
	mux.HandleFunc("order:cancelled", OrderCancelled)
	mux.HandleFunc("order:refunded", OrderRefunded)
	mux.HandleFunc("audit:a", AuditA)
	mux.HandleFunc("audit:b", AuditB)
	mux.HandleFunc("alert", Alert)
	mux.HandleFunc("page", Page)
}
