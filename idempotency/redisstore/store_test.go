package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/redisstore"
	"github.com/redis/go-redis/v9"
)

func client(t *testing.T) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: idempotencytest.RedisAddr(t), PoolSize: 64})
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("redis at %s: %v", idempotencytest.RedisAddr(t), err)
	}
	return c
}

func newStore(t *testing.T, c *redis.Client, clock idempotency.Clock) *redisstore.Store {
	t.Helper()
	s, err := redisstore.New(c, redisstore.Config{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	c := client(t)
	idempotencytest.TestStore(t, func(t *testing.T, clock idempotency.Clock) idempotency.Store {
		return newStore(t, c, clock)
	})
}

// TestServerClock runs without a fake clock: leases end by the Redis server's clock. It waits
// for a short lease to pass, by polling.
func TestServerClock(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	s := newStore(t, c, nil)
	key := "server-clock-" + time.Now().Format(time.RFC3339Nano)
	a, err := s.Claim(ctx, idempotency.ClaimRequest{Key: key, Owner: "a", Lease: 20 * time.Millisecond})
	if err != nil || a.Status != idempotency.StatusClaimed {
		t.Fatalf("claim: %+v %v", a, err)
	}
	// The record carries a Redis TTL, so Redis drops it by itself.
	if ttl := c.PTTL(ctx, s.RecordKey(key)).Val(); ttl <= 0 || ttl > time.Minute+time.Second {
		t.Fatalf("record TTL %s, want the lease plus the linger", ttl)
	}
	deadline := time.Now().Add(30 * time.Second)
	var b idempotency.ClaimResult
	for {
		if b, err = s.Claim(ctx, idempotency.ClaimRequest{Key: key, Owner: "b", Lease: time.Minute}); err != nil {
			t.Fatal(err)
		}
		if b.Status == idempotency.StatusClaimed || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if b.Status != idempotency.StatusClaimed || b.Token.Epoch <= a.Token.Epoch {
		t.Fatalf("after the lease: %+v, want claimed with an epoch above %d", b, a.Token.Epoch)
	}
	if err := s.Complete(ctx, key, b.Token, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	done, err := s.Claim(ctx, idempotency.ClaimRequest{Key: key, Owner: "c", Lease: time.Minute})
	if err != nil || done.Status != idempotency.StatusCompleted || done.ExpiresIn < 23*time.Hour || done.ExpiresIn > 24*time.Hour {
		t.Fatalf("completion marker: %+v %v, want completed for about 24h", done, err)
	}
	if ttl := c.PTTL(ctx, s.RecordKey(key)).Val(); ttl < 24*time.Hour {
		t.Fatalf("completed record TTL %s, want at least the retention", ttl)
	}
	if _, err := redisstore.New(nil, redisstore.Config{}); err == nil {
		t.Fatal("New accepted a nil client")
	}
}

// A record never shares its Redis key with an epoch counter, whatever the key.
func TestRecordKeysAreNotCounters(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	s := newStore(t, c, idempotencytest.NewClock(time.Time{}))
	for _, k := range []string{"epoch", ":epoch", "}epoch"} {
		r, err := s.Claim(ctx, idempotency.ClaimRequest{Key: k, Owner: "o-" + time.Now().Format(time.RFC3339Nano), Lease: time.Minute})
		if err != nil {
			t.Fatalf("key %q: %v", k, err)
		}
		if err := s.Forget(ctx, k); err != nil {
			t.Fatal(err)
		}
		if r.Status != idempotency.StatusClaimed {
			t.Fatalf("key %q: %s, want claimed", k, r.Status)
		}
	}
}
