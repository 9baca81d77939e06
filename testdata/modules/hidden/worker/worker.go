// Package worker handles order jobs through the store's interface.
package worker

import (
	"context"

	"hidden/store"
)

// Worker holds the store.
type Worker struct{ Store store.Store }

// Handle stores the order.
//
//idemlint:handler
func (w *Worker) Handle(ctx context.Context, id string) error {
	return w.Store.Create(ctx, id)
}

// Biller records charges through the store's Ledger.
type Biller struct{ Ledger store.Ledger }

// Handle records the charge.
//
//idemlint:handler
func (b *Biller) Handle(ctx context.Context, id string) error {
	return b.Ledger.Record(ctx, id)
}
