// Package servicebus exercises the Azure Service Bus model: ReceiveMessages loops and sends // want package:"has effects"
// from them, with and without a message id, single and batched.
package servicebus

import (
	"context"
	"database/sql"

	"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus"
	"github.com/google/uuid"
)

var db *sql.DB

// Relay sends each received message on without an id.
func Relay(ctx context.Context, r *azservicebus.Receiver, s *azservicebus.Sender) error {
	for {
		msgs, err := r.ReceiveMessages(ctx, 10, nil)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if err := s.SendMessage(ctx, &azservicebus.Message{Body: m.Body}, nil); err != nil { // want `handler receive loop in Relay: Service Bus message without an idempotency key \(receive loop in Relay -> \(\*azservicebus.Sender\).SendMessage\); missing: key, enforcement$`
				return err
			}
			r.CompleteMessage(ctx, m, nil)
		}
	}
}

// RelayID sends each with the received message's id: the key is answered, its enforcement
// (the queue's duplicate detection) is configuration out of view.
func RelayID(ctx context.Context, r *azservicebus.Receiver, s *azservicebus.Sender) error {
	for {
		msgs, err := r.ReceiveMessages(ctx, 10, nil)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			id := "relay-" + m.MessageID
			if err := s.SendMessage(ctx, &azservicebus.Message{Body: m.Body, MessageID: &id}, nil); err != nil { // want `handler receive loop in RelayID: Service Bus message with a message id: each consumer must deduplicate by it, unless the broker is configured to .*missing: enforcement$`
				return err
			}
			r.CompleteMessage(ctx, m, nil)
		}
	}
}

// Batch adds every message to a batch with a new id each time.
func Batch(ctx context.Context, r *azservicebus.Receiver, s *azservicebus.Sender) error {
	for {
		msgs, err := r.ReceiveMessages(ctx, 10, nil)
		if err != nil {
			return err
		}
		b, _ := s.NewMessageBatch(ctx, nil)
		for _, m := range msgs {
			id := uuid.NewString()
			b.AddMessage(&azservicebus.Message{Body: m.Body, MessageID: &id}, nil) // want `handler receive loop in Batch: Service Bus message with a key that changes on every retry \(made from uuid.NewString\) \(receive loop in Batch -> \(\*azservicebus.MessageBatch\).AddMessage\); missing: key$`
		}
		s.SendMessageBatch(ctx, b, nil)
		for _, m := range msgs {
			r.CompleteMessage(ctx, m, nil)
		}
	}
}

// BatchID adds every message with the received message's id.
func BatchID(ctx context.Context, r *azservicebus.Receiver, s *azservicebus.Sender) error {
	for {
		msgs, err := r.ReceiveMessages(ctx, 10, nil)
		if err != nil {
			return err
		}
		b, _ := s.NewMessageBatch(ctx, nil)
		for _, m := range msgs {
			b.AddMessage(&azservicebus.Message{Body: m.Body, MessageID: &m.MessageID}, nil) // want `handler receive loop in BatchID: Service Bus message with a message id: each consumer must deduplicate by it, unless the broker is configured to .*missing: enforcement$`
		}
		s.SendMessageBatch(ctx, b, nil)
	}
}

// Count adds to a counter per message.
func Count(ctx context.Context, r *azservicebus.Receiver) {
	for {
		msgs, _ := r.ReceiveMessages(ctx, 1, nil)
		for _, m := range msgs {
			db.ExecContext(ctx, "UPDATE counters SET n = n + 1 WHERE subject = $1", m.Subject) // want `handler receive loop in Count: SQL write not safe to repeat: relative UPDATE of n \(receive loop in Count -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
			r.CompleteMessage(ctx, m, nil)
		}
	}
}

// CountSafe records the message once by its id.
func CountSafe(ctx context.Context, r *azservicebus.Receiver) {
	for {
		msgs, _ := r.ReceiveMessages(ctx, 1, nil)
		for _, m := range msgs {
			db.ExecContext(ctx, "INSERT INTO seen (id) VALUES ($1) ON CONFLICT DO NOTHING", m.MessageID)
			r.CompleteMessage(ctx, m, nil)
		}
	}
}
