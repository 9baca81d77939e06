// Package webhooks holds handlers that share helpers: two routes of one notification
// service, a handler with a sink of its own, and a handler that reaches three POSTs.
package webhooks

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
)

var db *sql.DB

var client = &http.Client{}

// RouteA is the v1 route of the notification webhook.
//
//idemlint:handler
func RouteA(ctx context.Context, id string) error {
	return handleNotification(ctx, id)
}

// RouteB is the v2 route of the same webhook: it shares the body of RouteA.
//
//idemlint:handler
func RouteB(ctx context.Context, id string) error {
	return handleNotification(ctx, id)
}

func handleNotification(ctx context.Context, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO notifications (id) VALUES ($1)", id)
	return err
}

// Single is the only handler that reaches its INSERT: its finding names no other handler.
//
//idemlint:handler
func Single(ctx context.Context, id string) error {
	return audit(ctx, id)
}

func audit(ctx context.Context, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO audit (id) VALUES ($1)", id)
	return err
}

// Notify fetches a token through a long chain (keyed: protected), sends the webhook it
// exists for, and reports delivery through another long chain.
//
//idemlint:handler
func Notify(ctx context.Context, id string) error {
	if err := token1(ctx, id); err != nil {
		return err
	}
	if err := sendWebhook(ctx, id); err != nil {
		return err
	}
	return report1(ctx, id)
}

func sendWebhook(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/notify", strings.NewReader(id))
	_, err := client.Do(req)
	return err
}

func token1(ctx context.Context, id string) error { return token2(ctx, id) }
func token2(ctx context.Context, id string) error { return token3(ctx, id) }
func token3(ctx context.Context, id string) error { return token4(ctx, id) }
func token4(ctx context.Context, id string) error { return token5(ctx, id) }
func token5(ctx context.Context, id string) error { return fetchToken(ctx, id) }

func fetchToken(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://idp.example.com/token", nil)
	req.Header.Set("Idempotency-Key", "token-"+id)
	_, err := client.Do(req)
	return err
}

func report1(ctx context.Context, id string) error { return report2(ctx, id) }
func report2(ctx context.Context, id string) error { return deliveryReport(ctx, id) }

func deliveryReport(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://status.example.com/delivered", strings.NewReader(id))
	_, err := client.Do(req)
	return err
}
