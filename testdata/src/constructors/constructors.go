// Package constructors registers handler structs made by their constructors // want package:"has effects"
// (mux.Handle(type, NewSettleHandler(svc))): the handlers are the structs' ProcessTask
// methods, not the constructors; a constructor of a func literal stays what the literal is.
package constructors

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

// SettleHandler settles a record.
type SettleHandler struct{ url string }

// NewSettleHandler makes the handler.
func NewSettleHandler(url string) *SettleHandler { return &SettleHandler{url: url} }

// ProcessTask posts the settlement.
func (h *SettleHandler) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post(h.url, "text/plain", strings.NewReader(string(t.Payload()))) // want `handler \(\*SettleHandler\).ProcessTask: HTTP POST`
	return err
}

// newNotify returns a literal: the literal is the handler.
func newNotify(url string) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		_, err := http.Post(url, "text/plain", strings.NewReader(string(t.Payload()))) // want `handler func literal in newNotify: HTTP POST`
		return err
	}
}

// Register wires both.
func Register(mux *asynq.ServeMux) { // want Register:`effects http.write:unprotected\(http.Post\)`
	mux.Handle("settle", NewSettleHandler("https://ledger.example.com/settle"))
	mux.Handle("notify", newNotify("https://chat.example.com/notify"))
}
