// Package anywebhook holds webhook receivers of providers idemlint has no model for, // want package:"has effects"
// checked with the standard library (a shared secret header, an HMAC of the body against a
// signature header; the verification libraries are in models/gowebhooks and models/svix).
// Each is a handler: the provider redelivers what was not answered with a 2xx. An API key
// check and an HMAC over no header are no webhooks.
package anywebhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"io"
	"net/http"
)

var (
	db     *sql.DB
	secret string
	key    []byte
)

// A GitLab hook: the secret token header.
func gitlabHook(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Gitlab-Token") != secret {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	_, _ = db.Exec("INSERT INTO pushes (ref) VALUES ($1)", r.FormValue("ref")) // want `handler gitlabHook: SQL write not safe to repeat: INSERT without conflict handling`
}

// A provider's HMAC of the body against its signature header.
func signedHook(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	sig, _ := hex.DecodeString(r.Header.Get("X-Acme-Signature"))
	if !hmac.Equal(sig, mac.Sum(nil)) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	_, _ = db.Exec("INSERT INTO events (body) VALUES ($1)", body) // want `handler signedHook: SQL write not safe to repeat: INSERT without conflict handling`
}

// An API key: authentication of a caller that waits for the answer, no webhook.
func apiKeyed(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-API-Key") != secret {
		return
	}
	_, _ = db.Exec("INSERT INTO calls (at) VALUES (now())")
}

// An HMAC over values that come from no header (a cookie's signature).
func cookieSigned(w http.ResponseWriter, r *http.Request) {
	c, err := r.Cookie("session")
	if err != nil {
		return
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(c.Value))
	if !hmac.Equal([]byte(c.Value), mac.Sum(nil)) {
		return
	}
	_, _ = db.Exec("INSERT INTO visits (at) VALUES (now())")
}

// Routes serves them.
func Routes(mux *http.ServeMux) { // want Routes:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	mux.HandleFunc("/hooks/gitlab", gitlabHook)
	mux.HandleFunc("/hooks/acme", signedHook)
	mux.HandleFunc("/api/calls", apiKeyed)
	mux.HandleFunc("/visit", cookieSigned)
}
