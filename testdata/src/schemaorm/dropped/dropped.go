// Package dropped inserts rows a unique key turns away on a repeat, and drops or hands on // want package:"has effects"
// the duplicate-key error: a repeat whose error is dropped stops at the key and the job
// goes on; one whose error reaches the handler's result fails the job on every redelivery.
package dropped

import (
	"context"
	"encoding/json"
	"errors"
	"log"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"schemaorm/dropped/store"
)

type payload struct {
	Ref  string
	Kind string
}

// Register hands the worker's handlers to the mux.
func Register(mux *asynq.ServeMux, w *Worker) { // want Register:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	mux.HandleFunc("flush", w.flush)
	mux.HandleFunc("flush:fresh", w.flushFresh)
	mux.HandleFunc("place", w.place)
	mux.HandleFunc("place:checked", w.placeChecked)
	mux.HandleFunc("record", w.record)
	mux.HandleFunc("place:tx", w.placeInTx)
	mux.HandleFunc("plan", w.plan)
	mux.HandleFunc("place:logged", placeLogged)
	mux.HandleFunc("place:kept", placeKept)
	mux.HandleFunc("place:collected", placeCollected)
}

// Worker runs the store's writes for each task.
type Worker struct{ S *store.Store }

// flush calls a helper that drops the error itself: a repeat stops at the key.
func (w *Worker) flush(ctx context.Context, t *asynq.Task) error { // want flush:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	var p payload
	json.Unmarshal(t.Payload(), &p)
	w.S.Signal(p.Ref)
	return nil
}

// flushFresh gives the helper that drops the error a key made anew: each run adds an
// order, which no key turns away.
func (w *Worker) flushFresh(ctx context.Context, t *asynq.Task) error { // want flushFresh:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	w.S.Signal(uuid.NewString()) // want `handler \(\*Worker\).flushFresh: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders: a new row on every run`
	return nil
}

// place drops the helper's error: protected.
func (w *Worker) place(ctx context.Context, t *asynq.Task) (err error) { // want place:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	var p payload
	json.Unmarshal(t.Payload(), &p)
	_ = w.S.AddOrder(p.Ref)
	return
}

// placeChecked hands the helper's error on: a redelivery fails on the key every time.
func (w *Worker) placeChecked(ctx context.Context, t *asynq.Task) error { // want placeChecked:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	var p payload
	json.Unmarshal(t.Payload(), &p)
	if err := w.S.AddOrder(p.Ref); err != nil { // want `handler \(\*Worker\).placeChecked: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders fails on a repeat`
		return err
	}
	return nil
}

// record drops the error of an insert no key turns away: each run adds an event.
func (w *Worker) record(ctx context.Context, t *asynq.Task) error { // want record:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	var p payload
	json.Unmarshal(t.Payload(), &p)
	w.S.AddEvent(p.Kind) // want `handler \(\*Worker\).record: GORM Create \(INSERT\) of Event adds a row to events on every run`
	return nil
}

// placeInTx drops the error of an insert on a transaction, which the failure aborts: its
// commit fails on every redelivery.
func (w *Worker) placeInTx(ctx context.Context, t *asynq.Task) error { // want placeInTx:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)`
	tx, err := w.S.SQL.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	tx.ExecContext(ctx, "INSERT INTO orders (external_id) VALUES ($1)", string(t.Payload())) // want `handler \(\*Worker\).placeInTx: SQL write not safe to repeat: INSERT without conflict handling into orders fails on a repeat`
	return tx.Commit()
}

// plan hands AddPlan's error on: a redelivery fails on the key every time.
func (w *Worker) plan(ctx context.Context, t *asynq.Task) error { // want plan:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return w.S.AddPlan(string(t.Payload())) // want `handler \(\*Worker\).plan: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders fails on a repeat`
}

// shared is the store of the handlers that are functions.
var shared *store.Store

// placeLogged only logs the helper's error: the repeat stops at the key and goes on.
func placeLogged(ctx context.Context, t *asynq.Task) error {
	var p payload
	json.Unmarshal(t.Payload(), &p)
	if err := shared.AddOrder(p.Ref); err != nil {
		log.Printf("place: %v", err)
	}
	return nil
}

// placeKept keeps the helper's error for its result: a redelivery fails on the key.
func placeKept(ctx context.Context, t *asynq.Task) (failed error) {
	var p payload
	json.Unmarshal(t.Payload(), &p)
	if err := shared.AddOrder(p.Ref); err != nil { // want `handler placeKept: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders fails on a repeat`
		log.Printf("place: %v", err)
		failed = err
	}
	return failed
}

// placeCollected collects the helper's error for its result: a redelivery fails on the key.
func placeCollected(ctx context.Context, t *asynq.Task) error {
	var p payload
	json.Unmarshal(t.Payload(), &p)
	var errs []error
	if err := shared.AddOrder(p.Ref); err != nil { // want `handler placeCollected: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders fails on a repeat`
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
