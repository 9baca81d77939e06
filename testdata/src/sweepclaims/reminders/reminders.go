// Package reminders holds a dispatcher that works on the reminders a sqlc :many query // want package:"has effects"
// claims and returns: each row is returned once, so the notification made for it in the
// loop over them is made once. The same loop over reminders a query only lists, and the
// work after the loop, stay reported.
package reminders

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"

	"sweepclaims/queries"
)

var q *queries.Queries

func push(r queries.Reminder) error {
	_, err := http.Post("https://push.example.com/send", "text/plain", strings.NewReader(r.Title))
	return err
}

func dispatch(ctx context.Context, _ *asynq.Task) error {
	due, err := q.ClaimDueReminders(ctx, 100)
	if err != nil {
		return err
	}
	for _, r := range due {
		if err := push(r); err != nil {
			return err
		}
	}
	return nil
}

func dispatchListed(ctx context.Context, _ *asynq.Task) error {
	due, err := q.ListDueReminders(ctx)
	if err != nil {
		return err
	}
	for _, r := range due {
		if err := push(r); err != nil { // want `handler dispatchListed: HTTP POST`
			return err
		}
	}
	return nil
}

func dispatchAfter(ctx context.Context, _ *asynq.Task) error {
	due, err := q.ClaimDueReminders(ctx, 100)
	if err != nil {
		return err
	}
	for range due {
	}
	return push(queries.Reminder{Title: "summary"}) // want `handler dispatchAfter: HTTP POST`
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("reminders:dispatch", dispatch)
	mux.HandleFunc("reminders:listed", dispatchListed)
	mux.HandleFunc("reminders:after", dispatchAfter)
}
