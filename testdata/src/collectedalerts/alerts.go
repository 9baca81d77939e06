// Package collectedalerts exercises a claim made by an insert of what is not there yet // want package:"has effects"
// (INSERT ... WHERE NOT EXISTS over the same table, RETURNING, pgx.ErrNoRows when the row
// is there), the claimed keys collected and notified together; and an insert guarded by
// another table, which claims nothing.
package collectedalerts

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"collectedalerts/alerts"
)

var store *alerts.Store

type batch struct{ IDs []string }

func decode(t *asynq.Task) batch {
	var b batch
	_ = json.Unmarshal(t.Payload(), &b)
	return b
}

func notifyAll(ids []string) error {
	_, err := http.Post("https://chat.example.com/notify", "text/plain", strings.NewReader(strings.Join(ids, ",")))
	return err
}

// AlertNew opens an alert per product unless one is open, and notifies the new ones.
func AlertNew(ctx context.Context, t *asynq.Task) error { // want AlertNew:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).QueryRow\)`
	var opened []string
	for _, p := range decode(t).IDs {
		_, err := store.Open(ctx, p)
		if errors.Is(err, pgx.ErrNoRows) {
			continue // already open
		}
		if err != nil {
			continue
		}
		opened = append(opened, p)
	}
	if len(opened) > 0 {
		return notifyAll(opened)
	}
	return nil
}

// AlertUnmuted opens alerts guarded by another table: reported.
func AlertUnmuted(ctx context.Context, t *asynq.Task) error { // want AlertUnmuted:`effects http.write:unprotected\(http.Post\) sql.write:unprotected\(\(\*pgxpool.Pool\).QueryRow\)`
	var opened []string
	for _, p := range decode(t).IDs {
		if _, err := store.OpenUnlisted(ctx, p); err != nil { // want `^handler AlertUnmuted: SQL write not safe to repeat: INSERT without conflict handling`
			continue
		}
		opened = append(opened, p)
	}
	if len(opened) > 0 {
		return notifyAll(opened) // want `^handler AlertUnmuted: HTTP POST`
	}
	return nil
}
