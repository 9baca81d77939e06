package idempotency_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

// benchKeys is a ring of keys; moving the fake clock past the retention at each turn frees
// them, so every iteration claims a free key as a new job would, reusing its expired record.
const benchKeys = 1 << 12

func keyRing() []string {
	keys := make([]string, benchKeys)
	for i := range keys {
		keys[i] = fmt.Sprint("order:", i)
	}
	return keys
}

// BenchmarkMemoryStoreClaimComplete is the store's part of a protected job: one claim and one
// completion.
func BenchmarkMemoryStoreClaimComplete(b *testing.B) {
	ctx := context.Background()
	clock := idempotencytest.NewClock(time.Time{})
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Clock: clock})
	keys := keyRing()
	i := 0
	for b.Loop() {
		k := keys[i%benchKeys]
		res, err := store.Claim(ctx, idempotency.ClaimRequest{Key: k, Owner: "worker-1", Lease: time.Minute})
		if err != nil || res.Status != idempotency.StatusClaimed {
			b.Fatalf("claim: %+v %v", res, err)
		}
		if err := store.Complete(ctx, k, res.Token, time.Hour); err != nil {
			b.Fatal(err)
		}
		if i++; i%benchKeys == 0 {
			clock.Advance(2 * time.Hour)
		}
	}
}

// BenchmarkMiddlewareMemory is a whole protected job on the memory store: key, owner token,
// claim, handler context with lease renewal armed, completion, metrics.
func BenchmarkMiddlewareMemory(b *testing.B) {
	ctx := context.Background()
	clock := idempotencytest.NewClock(time.Time{})
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Clock: clock})
	mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour), quiet)
	if err != nil {
		b.Fatal(err)
	}
	keys := keyRing()
	var runs int
	handler := func(context.Context, string) error { runs++; return nil }
	i := 0
	for b.Loop() {
		if err := mw.Handle(ctx, keys[i%benchKeys], handler); err != nil {
			b.Fatal(err)
		}
		if i++; i%benchKeys == 0 {
			clock.Advance(2 * time.Hour)
		}
	}
	if runs != i {
		b.Fatalf("handler ran %d times for %d jobs", runs, i)
	}
}

// BenchmarkMiddlewareMemoryParallel is the same under contention, with distinct keys.
func BenchmarkMiddlewareMemoryParallel(b *testing.B) {
	ctx := context.Background()
	mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), quiet)
	if err != nil {
		b.Fatal(err)
	}
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			k := fmt.Sprint("order:", next.Add(1)) // one allocation of the benchmark's own
			if err := mw.Handle(ctx, k, func(context.Context, string) error { return nil }); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkMemoryStoreFull is a claim refused by a full store. A full store sweeps all its
// shards at most once a second, not on every refused claim (defect 11: a full shard swept
// itself under its lock each time), so a refusal costs about a successful claim's lookup.
func BenchmarkMemoryStoreFull(b *testing.B) {
	ctx := context.Background()
	const capacity = 1 << 14
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Capacity: capacity})
	for i := range capacity {
		if _, err := store.Claim(ctx, idempotency.ClaimRequest{Key: fmt.Sprint("held:", i), Owner: "o", Lease: time.Hour}); err != nil {
			b.Fatal(err)
		}
	}
	keys := keyRing()
	i := 0
	for b.Loop() {
		if _, err := store.Claim(ctx, idempotency.ClaimRequest{Key: keys[i%benchKeys], Owner: "o", Lease: time.Hour}); !errors.Is(err, idempotency.ErrStoreFull) {
			b.Fatalf("claim on a full store: %v, want ErrStoreFull", err)
		}
		i++
	}
}
