// Package conditionalupdates exercises a claim made by a conditional DynamoDB update behind // want package:"has effects"
// a helper that returns it as a bool: the effects after `if !claimed { return nil }` run
// once per episode. An update whose condition tests an attribute it does not set claims
// nothing, and what follows it is reported.
package conditionalupdates

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"

	"conditionalupdates/scopes"
)

var (
	store  *scopes.Store
	mirror *scopes.Mirror
)

func notify(text string) error {
	_, err := http.Post("https://chat.example.com/send", "text/plain", strings.NewReader(text))
	return err
}

// NotifyEpisode notifies once per episode the store claims.
func NotifyEpisode(ctx context.Context, t *asynq.Task) error { // want NotifyEpisode:`effects http.write:claimed\(http.Post\)`
	claimed, err := store.ClaimEpisode(ctx, "eu", string(t.Payload()))
	if err != nil {
		return err
	}
	if !claimed {
		return nil
	}
	return notify("episode " + string(t.Payload()))
}

// NotifyMirrored claims through the store behind the interface.
func NotifyMirrored(ctx context.Context, t *asynq.Task) error { // want NotifyMirrored:`effects http.write:claimed\(http.Post\)`
	claimed, err := mirror.ClaimEpisode(ctx, "eu", string(t.Payload()))
	if err != nil || !claimed {
		return err
	}
	return notify("episode " + string(t.Payload()))
}

// NotifySeen notifies after a counted sighting: a repeat passes the condition again.
func NotifySeen(ctx context.Context, t *asynq.Task) error { // want NotifySeen:`effects http.write:unprotected\(http.Post\) store.write:unprotected\(\(\*dynamodb.Client\).UpdateItem\)`
	ok, err := store.Seen(ctx, string(t.Payload())) // want `^handler NotifySeen: DynamoDB update whose condition a repeat passes again \(update expression SET hits = hits \+ :one adds to the attribute; its attribute_not_exists tests no attribute the update sets\)`
	if err != nil || !ok {
		return err
	}
	return notify("seen " + string(t.Payload())) // want `^handler NotifySeen: HTTP POST`
}
