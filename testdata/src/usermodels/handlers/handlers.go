// Package handlers uses the models of ../.idemlint.yml, found by walking up.
package handlers

import (
	"context"

	"acme/httpc"
	"acme/queue"
)

var c *httpc.Client

func Register(q *queue.Consumer) {
	q.Subscribe("invoices", onInvoice)
	q.Subscribe("refunds", onRefund)
}

func onInvoice(ctx context.Context, m *queue.Message) error {
	return c.PostJSON(ctx, "https://billing/invoices", m.Body, "") // want `handler onInvoice: acme POST without an idempotency key \(onInvoice -> \(\*httpc.Client\).PostJSON\); missing: key, enforcement`
}

func onRefund(ctx context.Context, m *queue.Message) error {
	return c.PostJSON(ctx, "https://billing/refunds", m.Body, "refund-"+m.ID)
}
