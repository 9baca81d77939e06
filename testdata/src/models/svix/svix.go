// Package svix exercises the Svix model: a net/http handler that verifies a Standard // want package:"has effects"
// Webhooks signature is a handler.
package svix

import (
	"database/sql"
	"io"
	"net/http"

	svix "github.com/svix/svix-webhooks/go"
)

var (
	db *sql.DB
	wh *svix.Webhook
)

func hook(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if err := wh.Verify(body, r.Header); err != nil {
		return
	}
	_, _ = db.Exec("INSERT INTO messages (body) VALUES ($1)", body) // want `handler hook: SQL write not safe to repeat: INSERT without conflict handling`
}

func lenient(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if err := wh.VerifyIgnoringTimestamp(body, r.Header); err != nil {
		return
	}
	_, _ = db.Exec("INSERT INTO messages (body) VALUES ($1)", body) // want `handler lenient: SQL write not safe to repeat: INSERT without conflict handling`
}

// Routes serves them.
func Routes(mux *http.ServeMux) { // want Routes:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	mux.HandleFunc("/hooks/svix", hook)
	mux.HandleFunc("/hooks/svix-lenient", lenient)
}
