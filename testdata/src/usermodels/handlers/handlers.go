// Package handlers uses the models of ../.idemlint.yml, found by walking up. // want package:"has effects"
package handlers

import (
	"context"

	"acme/httpc"
	"acme/queue"
)

var c *httpc.Client

func Register(q *queue.Consumer) { // want Register:`effects http.write:unprotected\(\(\*httpc.Client\).PostJSON\)`
	q.Subscribe("invoices", onInvoice)
	q.Subscribe("refunds", onRefund)
}

func onInvoice(ctx context.Context, m *queue.Message) error {
	return c.PostJSON(ctx, "https://billing/invoices", m.Body, "") // want `handler onInvoice: acme POST without an idempotency key \(onInvoice -> \(\*httpc.Client\).PostJSON\); missing: key, enforcement`
}

func onRefund(ctx context.Context, m *queue.Message) error {
	return c.PostJSON(ctx, "https://billing/refunds", m.Body, "refund-"+m.ID)
}
