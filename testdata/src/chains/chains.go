// Package chains exercises what a finding says about the chain it reports: the worst sink // want package:"has effects"
// of its kind with the shortest chain to it, how many other sinks of that kind the handler
// reaches, and which other handlers reach the same sink.
package chains

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"strings"

	"chains/notify"

	"github.com/hibiken/asynq"
	"github.com/stripe/stripe-go/v82/webhook"
)

var client = &http.Client{}

var db *sql.DB

// The token fetch: keyed, six hops down.
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

func sendWebhook(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/notify", strings.NewReader(id))
	_, err := client.Do(req)
	return err
}

func sendWebhookKeyed(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/notify", strings.NewReader(id))
	req.Header.Set("Idempotency-Key", "notify-"+id)
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

// Webhook reaches a keyed token fetch six hops down and the webhook POST one hop down: the
// finding is the POST, the one not safe to repeat.
func Webhook(ctx context.Context, t *asynq.Task) error { // want Webhook:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	if err := token1(ctx, string(t.Payload())); err != nil {
		return err
	}
	return sendWebhook(ctx, string(t.Payload())) // want `^handler Webhook: HTTP POST without an Idempotency-Key header \(Webhook -> chains.sendWebhook -> \(\*http.Client\).Do\); missing: key, enforcement$`
}

// WebhookKeyed is its twin with the webhook keyed: nothing to report.
func WebhookKeyed(ctx context.Context, t *asynq.Task) error { // want WebhookKeyed:`effects http.write:protected\(\(\*http.Client\).Do\)`
	if err := token1(ctx, string(t.Payload())); err != nil {
		return err
	}
	return sendWebhookKeyed(ctx, string(t.Payload()))
}

// Deliver reaches three POSTs not safe to repeat: the webhook (the shortest chain, first in
// the body: reported), notify.Send in another package (as short, later), and the delivery
// report three hops down; the keyed token fetch is not counted.
func Deliver(ctx context.Context, t *asynq.Task) error { // want Deliver:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	id := string(t.Payload())
	if err := token1(ctx, id); err != nil {
		return err
	}
	if err := postDelivery(ctx, id); err != nil { // want `^handler Deliver: HTTP POST without an Idempotency-Key header \(Deliver -> chains.postDelivery -> \(\*http.Client\).Do\) and 2 more http.write sinks; missing: key, enforcement$`
		return err
	}
	if err := report1(ctx, id); err != nil {
		return err
	}
	return notify.Send(ctx, "https://example.com/"+id)
}

func postDelivery(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/delivery", strings.NewReader(id))
	_, err := client.Do(req)
	return err
}

// DeliverIgnored is Deliver with the delivery report and notify.Send silenced: they are not
// counted.
func DeliverIgnored(ctx context.Context, t *asynq.Task) error { // want DeliverIgnored:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	id := string(t.Payload())
	//idemlint:ignore http.write -- the status service keeps the latest report only
	if err := report1(ctx, id); err != nil {
		return err
	}
	//idemlint:ignore http.write -- notifications are deduplicated by the receiver
	if err := notify.Send(ctx, "https://example.com/"+id); err != nil {
		return err
	}
	return postIgnored(ctx, id) // want `^handler DeliverIgnored: HTTP POST without an Idempotency-Key header \(DeliverIgnored -> chains.postIgnored -> \(\*http.Client\).Do\); missing: key, enforcement$`
}

func postIgnored(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/ignored", strings.NewReader(id))
	_, err := client.Do(req)
	return err
}

// Twice reaches the webhook through two paths: one sink, counted once.
func Twice(ctx context.Context, t *asynq.Task) error { // want Twice:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	if err := postTwice(ctx, "a"); err != nil { // want `^handler Twice: HTTP POST without an Idempotency-Key header \(Twice -> chains.postTwice -> \(\*http.Client\).Do\); missing: key, enforcement$`
		return err
	}
	return viaWebhook(ctx)
}

func viaWebhook(ctx context.Context) error { return postTwice(ctx, "b") }

func postTwice(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/twice", strings.NewReader(id))
	_, err := client.Do(req)
	return err
}

// Recursive reaches two POSTs inside a recursion: both are counted, the recursion ends.
func Recursive(ctx context.Context, t *asynq.Task) error { // want Recursive:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return ping(ctx, 3) // want `^handler Recursive: HTTP POST without an Idempotency-Key header \(Recursive -> chains.ping -> \(\*http.Client\).Do\) and 1 more http.write sink; missing: key, enforcement$`
}

func ping(ctx context.Context, n int) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://example.com/ping", nil)
	if _, err := client.Do(req); err != nil || n == 0 {
		return err
	}
	return pong(ctx, n-1)
}

func pong(ctx context.Context, n int) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://example.com/pong", nil)
	if _, err := client.Do(req); err != nil {
		return err
	}
	return ping(ctx, n)
}

func handleNotification(ctx context.Context, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO notifications (id) VALUES ($1)", id)
	return err
}

// RouteV1 and RouteV2 are two routes of one Stripe webhook that share handleNotification:
// one finding each, saying the other reaches the INSERT too.
func RouteV1(w http.ResponseWriter, r *http.Request) { // want RouteV1:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEvent(payload, r.Header.Get("Stripe-Signature"), "whsec")
	if err != nil {
		return
	}
	_ = handleNotification(r.Context(), ev.ID) // want `^handler RouteV1: SQL write not safe to repeat: INSERT without conflict handling \(RouteV1 -> chains.handleNotification -> \(\*sql.DB\).ExecContext\); handler RouteV2 reaches it too, through chains.handleNotification; missing: key, enforcement$`
}

func RouteV2(w http.ResponseWriter, r *http.Request) { // want RouteV2:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEvent(payload, r.Header.Get("Stripe-Signature"), "whsec")
	if err != nil {
		return
	}
	_ = handleNotification(r.Context(), ev.ID) // want `^handler RouteV2: SQL write not safe to repeat: INSERT without conflict handling \(RouteV2 -> chains.handleNotification -> \(\*sql.DB\).ExecContext\); handler RouteV1 reaches it too, through chains.handleNotification; missing: key, enforcement$`
}

func handleNotificationOnce(ctx context.Context, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO notifications (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", id)
	return err
}

// RouteOnceV1 and RouteOnceV2 are their twins sharing an upsert: nothing to report.
func RouteOnceV1(w http.ResponseWriter, r *http.Request) { // want RouteOnceV1:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEvent(payload, r.Header.Get("Stripe-Signature"), "whsec")
	if err != nil {
		return
	}
	_ = handleNotificationOnce(r.Context(), ev.ID)
}

func RouteOnceV2(w http.ResponseWriter, r *http.Request) { // want RouteOnceV2:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEvent(payload, r.Header.Get("Stripe-Signature"), "whsec")
	if err != nil {
		return
	}
	_ = handleNotificationOnce(r.Context(), ev.ID)
}

func process(ctx context.Context, t *asynq.Task) error {
	return handleAudit(ctx, string(t.Payload())) // want `^handler process: .*\(process -> chains.handleAudit -> \(\*sql.DB\).ExecContext\); 2 other handlers reach it too, through chains.handleAudit; missing: key, enforcement$`
}

func handleAudit(ctx context.Context, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO audit (id) VALUES ($1)", id)
	return err
}

// Register hands one function to two task types (one handler, one finding) and two
// literals that share a helper: each literal names the other.
func Register(mux *asynq.ServeMux) { // want Register:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	mux.HandleFunc("audit:a", process)
	mux.HandleFunc("audit:b", process)
	mux.HandleFunc("audit:c", func(ctx context.Context, t *asynq.Task) error {
		return handleAudit(ctx, "c") // want `^handler func literal in Register: .*\(func literal in Register -> chains.handleAudit -> \(\*sql.DB\).ExecContext\); 2 other handlers reach it too, through chains.handleAudit; missing: key, enforcement$`
	})
	mux.HandleFunc("audit:d", func(ctx context.Context, t *asynq.Task) error {
		return handleAudit(ctx, "d") // want `^handler func literal in Register: .*; 2 other handlers reach it too, through chains.handleAudit; missing: key, enforcement$`
	})
}
