// Package orders holds the handlers. It calls its storage through an interface whose
// implementation (package pg) it never imports: main wires it.
package orders

import (
	"context"
	"net/http"
)

// Store is the storage the handlers need.
type Store interface {
	Create(ctx context.Context, id string) error
}

// Handler handles order jobs.
type Handler struct{ Store Store }

// Handle stores the order: the INSERT is in pg, behind Store.
//
//idemlint:handler
func (h *Handler) Handle(ctx context.Context, id string) error {
	return h.Store.Create(ctx, id)
}

// Status only reads; closing the body is a call on an io.ReadCloser, which the
// database-writing joblog.Log (an io.Closer only) does not implement.
//
//idemlint:handler
func Status(ctx context.Context, url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return nil
}

// Auditor records what a handler did. Nothing in the module implements it (the
// implementation is loaded at run time): what Audit does through it is not known.
type Auditor interface {
	Record(ctx context.Context, what string) error
}

// Audited is a handler whose only call goes through Auditor.
type Audited struct{ Log Auditor }

// Audit records the job.
//
//idemlint:handler
func (a *Audited) Audit(ctx context.Context, id string) error {
	return a.Log.Record(ctx, id)
}
