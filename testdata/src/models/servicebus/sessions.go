package servicebus

import (
	"context"

	"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus"
)

// Sessions handles the messages of each session it locks: a message not completed is
// delivered again within the session, so the loop after ReceiveMessages is a handler.
func Sessions(ctx context.Context, c *azservicebus.Client) error {
	for {
		sr, err := c.AcceptNextSessionForQueue(ctx, "orders", nil)
		if err != nil {
			return err
		}
		msgs, err := sr.ReceiveMessages(ctx, 10, nil)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if _, err := db.ExecContext(ctx, "INSERT INTO order_lines (session, body) VALUES ($1, $2)", sr.SessionID(), m.Body); err != nil { // want `handler receive loop in Sessions: SQL write not safe to repeat: INSERT without conflict handling`
				sr.AbandonMessage(ctx, m, nil)
				continue
			}
			sr.CompleteMessage(ctx, m, nil)
		}
	}
}

// SessionsUpsert is its twin keyed by the message id: a redelivery converges.
func SessionsUpsert(ctx context.Context, c *azservicebus.Client) error {
	for {
		sr, err := c.AcceptNextSessionForQueue(ctx, "orders", nil)
		if err != nil {
			return err
		}
		msgs, err := sr.ReceiveMessages(ctx, 10, nil)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			db.ExecContext(ctx, "INSERT INTO order_lines (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", m.MessageID, m.Body)
			sr.CompleteMessage(ctx, m, nil)
		}
	}
}
