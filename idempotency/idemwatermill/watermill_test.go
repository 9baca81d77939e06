package idemwatermill_test

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/idemwatermill"
)

// newMiddleware builds the middleware of the router handler "charge".
func newMiddleware(t *testing.T, opts ...idempotency.Option) message.HandlerMiddleware {
	t.Helper()
	return handlerMiddleware(t, "charge", opts...)
}

func handlerMiddleware(t *testing.T, handler string, opts ...idempotency.Option) message.HandlerMiddleware {
	t.Helper()
	mw, err := idemwatermill.New(handler, idemwatermill.MetadataKey("event_id"), append([]idempotency.Option{
		idempotency.WithRetention(time.Hour),
		idempotency.WithFingerprint(idemwatermill.PayloadFingerprint),
		idempotency.WithLogger(slog.New(slog.DiscardHandler)),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return mw
}

func event(id, payload string) *message.Message {
	msg := message.NewMessage(watermill.NewUUID(), []byte(payload))
	if id != "" {
		msg.Metadata.Set("event_id", id)
	}
	return msg
}

func TestMiddleware(t *testing.T) {
	var runs atomic.Int32
	h := newMiddleware(t)(func(msg *message.Message) ([]*message.Message, error) {
		runs.Add(1)
		if c, ok := idempotency.ClaimFromContext(msg.Context()); !ok || c.Key != "e1" {
			t.Errorf("the handler's message context has claim %+v, %v; want the claim on e1", c, ok)
		}
		return []*message.Message{event("", "out")}, nil
	})
	out, err := h(event("e1", "in"))
	if err != nil || len(out) != 1 || string(out[0].Payload) != "out" {
		t.Fatalf("first delivery: %v %v; want the produced message", out, err)
	}
	first := out[0]
	// The duplicate does not run, and returns the produced message again for the router to
	// publish (result replay): a publish that failed after the completion is not lost.
	out, err = h(event("e1", "in"))
	if err != nil || runs.Load() != 1 || len(out) != 1 || out[0].UUID != first.UUID || string(out[0].Payload) != "out" {
		t.Fatalf("duplicate: %v %v after %d runs; want the produced message replayed without running", out, err, runs.Load())
	}
	_, err = h(event("e1", "other"))
	if !idempotency.IsPermanent(err) || idemwatermill.ShouldRetry(middleware.RetryParams{Err: err}) {
		t.Fatalf("same key, other payload: %v; want a permanent error that is not retried", err)
	}
	if _, err := h(event("", "in")); !errors.Is(err, idempotency.ErrEmptyKey) {
		t.Fatalf("no event_id: %v; want ErrEmptyKey", err)
	}
	if !idemwatermill.ShouldRetry(middleware.RetryParams{Err: errors.New("transient")}) {
		t.Fatal("ShouldRetry refused an ordinary error")
	}
	msg := event("uuid", "x")
	if k, _ := idemwatermill.UUIDKey(msg); k != msg.UUID {
		t.Fatalf("UUIDKey %q, want the message UUID", k)
	}
	if _, err := idemwatermill.PoisonQueue(nil, "poison"); err == nil {
		t.Fatal("PoisonQueue accepted a nil publisher")
	}
	if _, err := idemwatermill.New("", idemwatermill.MetadataKey("event_id"), idempotency.WithRetention(time.Hour)); err == nil {
		t.Fatal("New accepted an empty handler name")
	}
}

// TestRouter runs a Watermill router on the in-process Go channel pub/sub: an event published
// twice is handled once, and a permanent failure goes to the poison queue.
func TestRouter(t *testing.T) {
	logger := watermill.NopLogger{}
	// Publishing waits for the handler's ack, so the three events are handled in order.
	pubsub := gochannel.NewGoChannel(gochannel.Config{BlockPublishUntilSubscriberAck: true}, logger)
	defer pubsub.Close()
	poisonPubSub := gochannel.NewGoChannel(gochannel.Config{OutputChannelBuffer: 10}, logger)
	defer poisonPubSub.Close()
	router, err := message.NewRouter(message.RouterConfig{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	m := idempotencytest.NewMetrics()
	poison, err := idemwatermill.PoisonQueue(poisonPubSub, "events.poison")
	if err != nil {
		t.Fatal(err)
	}
	router.AddMiddleware(poison, newMiddleware(t, idempotency.WithMeterProvider(m.Provider)))
	var handled atomic.Int32
	router.AddConsumerHandler("charge", "events", pubsub, func(*message.Message) error {
		handled.Add(1)
		return nil
	})
	poisoned, err := poisonPubSub.Subscribe(context.Background(), "events.poison")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = router.Run(ctx) }()
	<-router.Running()

	for _, msg := range []*message.Message{event("e1", "charge 100"), event("e1", "charge 100"), event("e1", "charge 999")} {
		if err := pubsub.Publish("events", msg); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case p := <-poisoned:
		p.Ack()
		if string(p.Payload) != "charge 999" {
			t.Fatalf("poisoned %q, want the message that reused the key", p.Payload)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("nothing reached the poison queue; outcomes %v", m.Counts(t))
	}
	if n := handled.Load(); n != 1 {
		t.Fatalf("handled %d times, want 1", n)
	}
	if got := m.Counts(t); got[idempotency.OutcomeCompleted] != 1 || got[idempotency.OutcomeCompletedDuplicate] != 1 || got[idempotency.OutcomeFingerprintMismatch] != 1 {
		t.Fatalf("outcomes %v", got)
	}
}
