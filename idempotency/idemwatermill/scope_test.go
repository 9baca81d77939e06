package idemwatermill_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/idemwatermill"
)

// Defect 2 on Watermill: a router-wide install scoped with ForHandlers leaves other
// handlers' messages alone (without event_id they would be rejected as empty keys).
func TestForHandlers(t *testing.T) {
	logger := watermill.NopLogger{}
	pubsub := gochannel.NewGoChannel(gochannel.Config{BlockPublishUntilSubscriberAck: true}, logger)
	defer pubsub.Close()
	router, err := message.NewRouter(message.RouterConfig{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	m := idempotencytest.NewMetrics()
	router.AddMiddleware(idemwatermill.ForHandlers(newMiddleware(t, idempotency.WithMeterProvider(m.Provider)), "charge"))
	var charged, mailed atomic.Int32
	router.AddConsumerHandler("charge", "charges", pubsub, func(*message.Message) error { charged.Add(1); return nil })
	router.AddConsumerHandler("mail", "mails", pubsub, func(*message.Message) error { mailed.Add(1); return nil })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = router.Run(ctx) }()
	<-router.Running()
	for _, p := range []struct{ topic, id string }{{"charges", "c1"}, {"charges", "c1"}, {"mails", ""}, {"mails", ""}} {
		if err := pubsub.Publish(p.topic, event(p.id, "x")); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for mailed.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if charged.Load() != 1 || mailed.Load() != 2 {
		t.Fatalf("charged %d (want 1), mailed %d (want 2, untouched by the middleware)", charged.Load(), mailed.Load())
	}
	if n := m.Count(t, idempotency.OutcomeEmptyKey); n != 0 {
		t.Fatalf("empty_key counted %d: the mail handler's messages went through the middleware", n)
	}
}
