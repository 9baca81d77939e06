package idempotency_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

// slowRenewals is a store whose Renew calls are delayed as a script says: before[i] before
// the i-th call reaches the store, after[i] before its reply comes back. A negative before
// never reaches the store and never returns (a store that ignores its context).
type slowRenewals struct {
	idempotency.Store
	mu            sync.Mutex
	before, after []time.Duration
	calls         int
	hang          chan struct{} // a hanging call returns when this is closed
}

func (s *slowRenewals) Renew(ctx context.Context, key string, token idempotency.Token, lease time.Duration) error {
	s.mu.Lock()
	i := s.calls
	s.calls++
	s.mu.Unlock()
	at := func(d []time.Duration) time.Duration {
		if i < len(d) {
			return d[i]
		}
		return 0
	}
	if at(s.before) < 0 {
		<-s.hang // hangs, whatever the context says
		return errors.New("hung call let go")
	}
	time.Sleep(at(s.before))
	err := s.Store.Renew(ctx, key, token, lease)
	time.Sleep(at(s.after))
	return err
}

// Defect 1: the next renewal was scheduled from when the previous one returned, so with a
// store answering late two renewals could land further apart than the lease.
func TestRenewalsAreScheduledFromTheirStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
		store := &slowRenewals{Store: mem,
			before: []time.Duration{0, 850 * time.Millisecond},
			after:  []time.Duration{850 * time.Millisecond, 0}}
		opts := []idempotency.Option{idempotency.WithRetention(time.Hour), idempotency.WithLease(3 * time.Second),
			idempotency.WithRenewInterval(2 * time.Second), idempotency.WithStoreTimeout(900 * time.Millisecond), quiet}
		first, err := idempotency.New(key, append(opts, idempotency.WithStore(store))...)
		if err != nil {
			t.Fatal(err)
		}
		second, err := idempotency.New(key, append(opts, idempotency.WithStore(mem))...)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			done <- first.Handle(t.Context(), "k", func(ctx context.Context, _ string) error {
				select {
				case <-time.After(8 * time.Second):
					return nil
				case <-ctx.Done():
					return context.Cause(ctx)
				}
			})
		}()
		time.Sleep(5100 * time.Millisecond)
		ran := false
		err = second.Handle(t.Context(), "k", func(context.Context, string) error { ran = true; return nil })
		if ran || !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("a second worker at 5.1s: ran %v, err %v; want it deferred, the first still holding the key", ran, err)
		}
		if err := <-done; err != nil {
			t.Fatalf("first worker: %v", err)
		}
	})
}

// Defect 13: a store whose Renew never returns must not leave the handler running past its
// lease; the middleware cancels it at the lease's end by its own clock.
func TestLocalLeaseDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &slowRenewals{Store: idempotency.NewMemoryStore(idempotency.MemoryConfig{}), before: []time.Duration{-1},
			hang: make(chan struct{})}
		defer close(store.hang)
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
			idempotency.WithLease(3*time.Second), quiet)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		var stopped time.Duration
		err = mw.Handle(t.Context(), "k", func(ctx context.Context, _ string) error {
			select {
			case <-time.After(time.Minute):
			case <-ctx.Done():
			}
			stopped = time.Since(start)
			return context.Cause(ctx)
		})
		if !errors.Is(err, idempotency.ErrLeaseLost) {
			t.Fatalf("Handle returned %v, want ErrLeaseLost", err)
		}
		if stopped > 3*time.Second {
			t.Fatalf("handler cancelled after %s, past its 3s lease", stopped)
		}
	})
}

// Without renewal the handler is stopped at the lease's end too: past it another worker may
// hold the key.
func TestLocalLeaseDeadlineWithoutRenewal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), idempotency.WithLease(3*time.Second),
			idempotency.WithoutRenewal(), quiet)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		err = mw.Handle(t.Context(), "k", func(ctx context.Context, _ string) error {
			select {
			case <-time.After(time.Minute):
			case <-ctx.Done():
			}
			return context.Cause(ctx)
		})
		if !errors.Is(err, idempotency.ErrLeaseLost) || time.Since(start) != 3*time.Second {
			t.Fatalf("Handle returned %v after %s, want ErrLeaseLost at 3s", err, time.Since(start))
		}
	})
}
