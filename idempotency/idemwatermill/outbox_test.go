package idemwatermill_test

import (
	"context"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"

	"github.com/chokaq/idemlint/idempotency/idemwatermill"
	"github.com/chokaq/idemlint/idempotency/outbox"
)

// The published message carries the outbox ID as its UUID, the payload and the headers.
func TestOutboxPublisherUsesIDAsUUID(t *testing.T) {
	pubsub := gochannel.NewGoChannel(gochannel.Config{OutputChannelBuffer: 4}, watermill.NopLogger{})
	defer pubsub.Close()
	sub, err := pubsub.Subscribe(context.Background(), "receipts")
	if err != nil {
		t.Fatal(err)
	}
	m := outbox.Message{ID: "m-1", Topic: "receipts", Payload: []byte("body"), Headers: map[string]string{"event_id": "e1"}}
	if err := idemwatermill.OutboxPublisher(pubsub).Publish(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-sub:
		got.Ack()
		if got.UUID != m.ID || string(got.Payload) != "body" || got.Metadata.Get("event_id") != "e1" {
			t.Fatalf("got UUID %q payload %q metadata %v", got.UUID, got.Payload, got.Metadata)
		}
		if key, _ := idemwatermill.UUIDKey(got); key != m.ID {
			t.Errorf("UUIDKey = %q, want the outbox ID", key)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing published")
	}
}
