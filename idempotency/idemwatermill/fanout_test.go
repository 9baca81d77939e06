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
)

// Issue #32 item 1: two router handlers consuming one event on a shared store must each run
// it once. Before, both middlewares namespaced their keys by the job type
// (*message.Message), so the second handler to see the event took it for a duplicate of the
// first's and acknowledged it without running.
func TestFanOutRunsEveryHandler(t *testing.T) {
	// Each handler with its own middleware, and both middlewares installed for the whole
	// router (each then runs only its own handler's messages).
	for _, routerWide := range []bool{false, true} {
		name := "PerHandler"
		if routerWide {
			name = "RouterWide"
		}
		t.Run(name, func(t *testing.T) { testFanOut(t, routerWide) })
	}
}

func testFanOut(t *testing.T, routerWide bool) {
	logger := watermill.NopLogger{}
	pubsub := gochannel.NewGoChannel(gochannel.Config{}, logger)
	defer pubsub.Close()
	router, err := message.NewRouter(message.RouterConfig{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	m := idempotencytest.NewMetrics()
	opts := []idempotency.Option{idempotency.WithStore(store), idempotency.WithMeterProvider(m.Provider)}
	chargeMW, receiptMW := handlerMiddleware(t, "charge", opts...), handlerMiddleware(t, "receipt", opts...)
	var charged, receipts atomic.Int32
	charge := router.AddConsumerHandler("charge", "payments", pubsub, func(*message.Message) error { charged.Add(1); return nil })
	receipt := router.AddConsumerHandler("receipt", "payments", pubsub, func(*message.Message) error { receipts.Add(1); return nil })
	if routerWide {
		router.AddMiddleware(chargeMW, receiptMW)
	} else {
		charge.AddMiddleware(chargeMW)
		receipt.AddMiddleware(receiptMW)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = router.Run(ctx) }()
	<-router.Running()
	// The same event twice: each handler runs it once and acknowledges the redelivery.
	for range 2 {
		if err := pubsub.Publish("payments", event("pay-1", "charge 100")); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for m.Count(t, idempotency.OutcomeCompleted)+m.Count(t, idempotency.OutcomeCompletedDuplicate) < 4 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if charged.Load() != 1 || receipts.Load() != 1 {
		t.Fatalf("charge ran %d times, receipt %d; want each once (outcomes %v)", charged.Load(), receipts.Load(), m.Counts(t))
	}
	if got := m.Counts(t); got[idempotency.OutcomeCompleted] != 2 || got[idempotency.OutcomeCompletedDuplicate] != 2 {
		t.Fatalf("outcomes %v, want 2 completed and 2 completed_duplicate (each middleware saw only its own handler's two deliveries)", got)
	}
}
