// Package wrappers: handlers registered through the application's own wrappers (in // want package:"has effects"
// another package, wrappers of wrappers, a generic Register, a Temporal RegisterActivity
// of its own, an interface whose implementation registers, a consumer loop that pulls
// and calls its callback) are reported in their own bodies; callbacks handed to plain
// helpers (Retry, WithTx) are not handlers.
package wrappers

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
	"github.com/nats-io/nats.go"

	"wrappers/platform"
	"wrappers/runtime"
)

var db *sql.DB

const insert = "INSERT INTO ledger (id) VALUES ($1)"

// ChargeArgs is a job's payload.
type ChargeArgs struct{ ID string }

func charge(ctx context.Context, a ChargeArgs) error {
	_, err := db.ExecContext(ctx, insert, a.ID) // want `handler charge: SQL write not safe to repeat: INSERT without conflict handling \(charge -> \(\*sql.DB\).ExecContext\)`
	return err
}

func refund(ctx context.Context, a ChargeArgs) error {
	_, err := db.ExecContext(ctx, insert, a.ID) // want `handler refund: SQL write not safe to repeat: INSERT without conflict handling \(refund -> \(\*sql.DB\).ExecContext\)`
	return err
}

// Activities are Temporal activities, registered through the runtime.
type Activities struct{}

func (a *Activities) Capture(ctx context.Context, id string) error { // want Capture:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, insert, id) // want `handler \(\*Activities\).Capture: SQL write not safe to repeat: INSERT without conflict handling \(\(\*Activities\).Capture -> \(\*sql.DB\).ExecContext\)`
	return err
}

type single struct{}

func (s *single) Settle(ctx context.Context, id string) error { // want Settle:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, insert, id) // want `handler \(\*single\).Settle: SQL write not safe to repeat: INSERT without conflict handling \(\(\*single\).Settle -> \(\*sql.DB\).ExecContext\)`
	return err
}

func onOrder(ctx context.Context, data []byte) error {
	_, err := db.ExecContext(ctx, insert, data) // want `handler onOrder: SQL write not safe to repeat: INSERT without conflict handling \(onOrder -> \(\*sql.DB\).ExecContext\)`
	return err
}

func onShipment(ctx context.Context, data []byte) error {
	_, err := db.ExecContext(ctx, insert, data) // want `handler onShipment: SQL write not safe to repeat: INSERT without conflict handling \(onShipment -> \(\*sql.DB\).ExecContext\)`
	return err
}

func onTask(ctx context.Context, data []byte) error {
	_, err := db.ExecContext(ctx, insert, data) // want `handler onTask: SQL write not safe to repeat: INSERT without conflict handling \(onTask -> \(\*sql.DB\).ExecContext\)`
	return err
}

func Setup(ctx context.Context, rt *runtime.Runtime, mux *asynq.ServeMux, js nats.JetStreamContext, reg runtime.Registrar) { // want Setup:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	runtime.Register(mux, "charge", charge)
	platform.Job(mux, "refund", refund)
	rt.RegisterActivity(&Activities{})
	platform.Activities(rt, &single{})
	_ = runtime.Consume(ctx, js, "orders", "orders", onOrder)
	_ = platform.Subscribe(ctx, js, "shipments", onShipment)
	reg.Add("task", onTask)
	_ = runtime.Listen(js, "articles", "matcher", matched)
	_ = runtime.ListenAcked(js, "articles", "indexer", indexed)
}

// matched runs at most once per article: Listen acks before it calls back.
func matched(a *article) {
	_, _ = db.Exec(insert, a.URL)
}

func indexed(a *article) error {
	_, err := db.Exec(insert, a.URL) // want `handler indexed: SQL write not safe to repeat: INSERT without conflict handling \(indexed -> \(\*sql.DB\).Exec\)`
	return err
}

// article is what the Listen consumers decode.
type article struct{ URL string }

// The twins: callbacks of plain helpers are not handlers, whatever they write.
func record(ctx context.Context) error {
	_, err := db.ExecContext(ctx, insert, "x")
	return err
}

func save(tx *sql.Tx) error {
	_, err := tx.Exec(insert, "x")
	return err
}

func logErr(error) {
	_, _ = db.Exec(insert, "x")
}

func Helpers(ctx context.Context, sub *nats.Subscription) error { // want Helpers:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	runtime.Every(ctx, sub, logErr)
	if err := runtime.Retry(func() error { return record(ctx) }); err != nil {
		return err
	}
	return runtime.WithTx(ctx, db, save)
}

// The same package's interface: its implementation registers, so onLocal is a handler;
// the twin interface's implementation only runs its callback later, so onLater is not.
type registrar interface {
	add(pattern string, h func(context.Context, []byte) error)
}

type localReg struct{ mux *asynq.ServeMux }

func (r localReg) add(pattern string, h func(context.Context, []byte) error) { // want add:`calls-params\(1\) registers\(1 asynq topic from param 0\)`
	r.mux.HandleFunc(pattern, func(ctx context.Context, t *asynq.Task) error { return h(ctx, t.Payload()) })
}

type scheduler interface {
	later(f func(context.Context, []byte) error)
}

type inline struct{}

func (inline) later(f func(context.Context, []byte) error) { _ = f(context.Background(), nil) } // want later:`calls-params\(0\)`

func onLocal(ctx context.Context, data []byte) error {
	_, err := db.ExecContext(ctx, insert, data) // want `handler onLocal: SQL write not safe to repeat: INSERT without conflict handling \(onLocal -> \(\*sql.DB\).ExecContext\)`
	return err
}

func onLater(ctx context.Context, data []byte) error {
	_, err := db.ExecContext(ctx, insert, data)
	return err
}

func Local(r registrar, s scheduler) { // want Local:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	r.add("local", onLocal)
	s.later(onLater)
}
