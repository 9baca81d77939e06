// Package gowebhooks exercises the go-playground/webhooks model: a net/http handler that // want package:"has effects"
// parses a provider's webhook (and so verifies it) is a handler.
package gowebhooks

import (
	"database/sql"
	"net/http"

	"github.com/go-playground/webhooks/v6/bitbucket-server"
	"github.com/go-playground/webhooks/v6/github"
	"github.com/go-playground/webhooks/v6/gitlab"
)

var db *sql.DB

func gitlabHook(w http.ResponseWriter, r *http.Request) {
	hook, _ := gitlab.New()
	if _, err := hook.Parse(r, gitlab.PushEvents); err != nil {
		return
	}
	_, _ = db.Exec("INSERT INTO pushes (ref) VALUES ($1)", "main") // want `handler gitlabHook: SQL write not safe to repeat: INSERT without conflict handling`
}

func githubHook(w http.ResponseWriter, r *http.Request) {
	hook, _ := github.New()
	if _, err := hook.Parse(r, "push"); err != nil {
		return
	}
	_, _ = db.Exec("INSERT INTO pushes (ref) VALUES ($1)", "main") // want `handler githubHook: SQL write not safe to repeat: INSERT without conflict handling`
}

func serverHook(w http.ResponseWriter, r *http.Request) {
	hook, _ := bitbucketserver.New()
	if _, err := hook.Parse(r, "repo:refs_changed"); err != nil {
		return
	}
	_, _ = db.Exec("INSERT INTO pushes (ref) VALUES ($1)", "main") // want `handler serverHook: SQL write not safe to repeat: INSERT without conflict handling`
}

// status answers a health check: no webhook, no handler.
func status(w http.ResponseWriter, r *http.Request) {
	_, _ = db.Exec("INSERT INTO pings (at) VALUES (now())")
}

// Routes serves them.
func Routes(mux *http.ServeMux) { // want Routes:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	mux.HandleFunc("/hooks/gitlab", gitlabHook)
	mux.HandleFunc("/hooks/github", githubHook)
	mux.HandleFunc("/hooks/bitbucket", serverHook)
	mux.HandleFunc("/status", status)
}
