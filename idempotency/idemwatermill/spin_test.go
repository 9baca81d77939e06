package idemwatermill_test

import (
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

// Defect 7: a duplicate of a running message must not spin. A subscriber that redelivers a
// nacked message at once (as gochannel and many brokers do) is played by the loop below;
// the duplicate's claims must follow RetryAfter, not the loop's speed.
func TestInProgressDuplicateIsNackedAfterRetryAfter(t *testing.T) {
	store := idempotencytest.NewFaultyStore(idempotency.NewMemoryStore(idempotency.MemoryConfig{}))
	mw := newMiddleware(t, idempotency.WithStore(store), idempotency.WithInProgress(idempotency.RetryLaterAfter(100*time.Millisecond)))
	running, finish := make(chan struct{}), make(chan struct{})
	h := mw(func(msg *message.Message) ([]*message.Message, error) {
		if string(msg.Payload) == "slow" {
			close(running)
			<-finish
		}
		return nil, nil
	})
	holder := make(chan error, 1)
	go func() { _, err := h(event("e1", "slow")); holder <- err }()
	<-running
	// The holder finishes after 500ms.
	time.AfterFunc(500*time.Millisecond, func() { close(finish) })
	dup := event("e1", "slow")
	for {
		if _, err := h(dup); err == nil {
			break
		}
	}
	if err := <-holder; err != nil {
		t.Fatal(err)
	}
	// About 500ms / 100ms deferrals, and the final acknowledged delivery.
	if n := store.Calls(idempotencytest.OpClaim); n > 20 {
		t.Fatalf("the duplicate claimed the key %d times while the holder ran; want its nacks delayed by RetryAfter", n)
	}
}
