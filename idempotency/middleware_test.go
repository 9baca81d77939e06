package idempotency_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

var quiet = idempotency.WithLogger(slog.New(slog.DiscardHandler))

func key(s string) (string, error) { return s, nil }

func TestOptionsAreCheckedWhenBuilt(t *testing.T) {
	ok := []idempotency.Option{idempotency.WithRetention(time.Hour), quiet}
	cases := []struct {
		name string
		opts []idempotency.Option
		want string
	}{
		{"no retention", nil, "WithRetention is required"},
		{"zero retention", []idempotency.Option{idempotency.WithRetention(0)}, "retention must be"},
		{"zero lease", append(ok, idempotency.WithLease(0)), "lease must be"},
		{"renewal slower than the lease", append(ok, idempotency.WithLease(time.Second), idempotency.WithRenewInterval(time.Second)), "must be less than the lease"},
		{"store timeout longer than the lease", append(ok, idempotency.WithLease(time.Second), idempotency.WithStoreTimeout(2*time.Second)), "must be less than the lease"},
		{"zero store timeout", append(ok, idempotency.WithStoreTimeout(0)), "timeout must be positive"},
		{"nil store", append(ok, idempotency.WithStore(nil)), "nil store"},
		{"zero wait", append(ok, idempotency.WithInProgress(idempotency.WaitUpTo(0))), "wait must be positive"},
		{"fingerprint of another job type", append(ok, idempotency.WithFingerprint(func(int) ([]byte, error) { return nil, nil })), "WithFingerprint takes a"},
		{"nil option", append(ok, nil), "nil Option"},
		{"unknown empty-key policy", append(ok, idempotency.WithEmptyKey(7)), "unknown policy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := idempotency.New(key, c.opts...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New: %v, want an error containing %q", err, c.want)
			}
		})
	}
	if _, err := idempotency.New(key, ok...); err != nil {
		t.Fatalf("New with a retention: %v", err)
	}
	if _, err := idempotency.New(key, append(ok, idempotency.WithoutRenewal(), idempotency.WithLease(time.Second), idempotency.WithStoreTimeout(2*time.Second))...); err != nil {
		t.Fatalf("without renewal the store timeout may exceed the lease: %v", err)
	}
	if _, err := idempotency.New[string](nil, ok...); err == nil {
		t.Fatal("New accepted a nil key function")
	}
}

// invoice reports its own key and retention, like ChokaQ's IIdempotentJob.
type invoice struct {
	ID        string
	Retention time.Duration
}

func (i invoice) IdempotencyKey() string              { return "invoice:" + i.ID }
func (i invoice) IdempotencyRetention() time.Duration { return i.Retention }

func TestJobReportsItsOwnKeyAndRetention(t *testing.T) {
	ctx := context.Background()
	clock := idempotencytest.NewClock(time.Time{})
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Clock: clock})
	mw, err := idempotency.NewForJob[invoice](idempotency.WithStore(store), quiet)
	if err != nil {
		t.Fatal(err)
	}
	var seen idempotency.Claim
	if err := mw.Handle(ctx, invoice{ID: "7", Retention: 2 * time.Hour}, func(ctx context.Context, _ invoice) error {
		seen, _ = idempotency.ClaimFromContext(ctx)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if seen.Key != "invoice:7" || seen.Retention != 2*time.Hour || seen.Token.Epoch == 0 {
		t.Fatalf("handler saw claim %+v, want key invoice:7 with the job's retention", seen)
	}
	res, err := store.Claim(ctx, idempotency.ClaimRequest{Key: mw.StoreKey("invoice:7"), Owner: "x", Lease: time.Minute})
	if err != nil || res.Status != idempotency.StatusCompleted || res.ExpiresIn != 2*time.Hour {
		t.Fatalf("completion marker: %+v %v, want completed for the job's 2h retention", res, err)
	}

	ran := false
	err = mw.Handle(ctx, invoice{ID: "8"}, func(context.Context, invoice) error { ran = true; return nil })
	if !errors.Is(err, idempotency.ErrNoRetention) || !idempotency.IsPermanent(err) || ran {
		t.Fatalf("job without retention: err %v, ran %v; want ErrNoRetention before running", err, ran)
	}
	fallback, err := idempotency.NewForJob[invoice](idempotency.WithStore(store), idempotency.WithRetention(time.Hour), quiet)
	if err != nil {
		t.Fatal(err)
	}
	if err := fallback.Handle(ctx, invoice{ID: "8"}, func(context.Context, invoice) error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("job without retention, with a fallback: err %v, ran %v", err, ran)
	}
}

func TestClaimOutsideAHandler(t *testing.T) {
	if _, ok := idempotency.ClaimFromContext(context.Background()); ok {
		t.Fatal("ClaimFromContext found a claim in a bare context")
	}
	if err := idempotency.CompleteInTx(context.Background(), func(idempotency.Claim) error { return nil }); err == nil {
		t.Fatal("CompleteInTx accepted a bare context")
	}
}

func TestKeyFunctionErrorRunsNothing(t *testing.T) {
	boom := errors.New("bad payload")
	mw, err := idempotency.New(func(string) (string, error) { return "", boom }, idempotency.WithRetention(time.Hour), quiet)
	if err != nil {
		t.Fatal(err)
	}
	ran := false
	if err := mw.Handle(context.Background(), "x", func(context.Context, string) error { ran = true; return nil }); !errors.Is(err, boom) || ran {
		t.Fatalf("err %v, ran %v; want the key function's error and no run", err, ran)
	}
}

func TestPanicReleasesTheClaim(t *testing.T) {
	m := idempotencytest.NewMetrics()
	mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the panic did not reach the caller")
			}
		}()
		_ = mw.Handle(context.Background(), "k", func(context.Context, string) error { panic("handler bug") })
	}()
	ran := false
	if err := mw.Handle(context.Background(), "k", func(context.Context, string) error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("retry after a panic: err %v, ran %v; want the claim released", err, ran)
	}
	if n := m.Count(t, idempotency.OutcomeReleased); n != 1 {
		t.Fatalf("released counted %d times, want 1", n)
	}
}

// The tests below run in a synctest bubble: the middleware's timers and the memory store's
// clock follow the bubble's fake time, so leases of seconds pass in no real time.

func TestRenewalKeepsALongHandlersClaim(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := idempotencytest.NewFaultyStore(idempotency.NewMemoryStore(idempotency.MemoryConfig{}))
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
			idempotency.WithLease(3*time.Second), quiet)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			done <- mw.Handle(t.Context(), "k", func(ctx context.Context, _ string) error {
				select {
				case <-time.After(10 * time.Second): // three leases long
					return nil
				case <-ctx.Done():
					return context.Cause(ctx)
				}
			})
		}()
		time.Sleep(7 * time.Second)
		if err := mw.Handle(t.Context(), "k", func(context.Context, string) error { return nil }); !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("duplicate after two leases returned %v; want ErrInProgress, the claim renewed", err)
		}
		if err := <-done; err != nil {
			t.Fatalf("long handler: %v", err)
		}
		if n := store.Calls(idempotencytest.OpRenew); n < 8 || n > 10 {
			t.Fatalf("renewed %d times in 10s at a 1s interval, want 9 or so", n)
		}
	})
}

func TestFailedRenewalCancelsTheHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := idempotencytest.NewFaultyStore(idempotency.NewMemoryStore(idempotency.MemoryConfig{}))
		m := idempotencytest.NewMetrics()
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
			idempotency.WithLease(3*time.Second), idempotency.WithMeterProvider(m.Provider), quiet)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			store.Inject(idempotencytest.OpRenew, idempotencytest.FailBefore)
		}
		start := time.Now()
		var stopped time.Duration
		err = mw.Handle(t.Context(), "k", func(ctx context.Context, _ string) error {
			<-ctx.Done()
			stopped = time.Since(start)
			return ctx.Err()
		})
		if !errors.Is(err, idempotency.ErrLeaseLost) || !errors.Is(err, idempotencytest.ErrInjected) || !errors.Is(err, context.Canceled) {
			t.Fatalf("Handle returned %v; want the handler's error joined with the lease loss and its cause", err)
		}
		// One failed renewal at 1s is retried at 2s; a second failure leaves no time to
		// renew before the 3s lease ends, so the handler is stopped then, inside the lease.
		if stopped != 2*time.Second {
			t.Fatalf("handler cancelled after %s, want 2s", stopped)
		}
		if n := m.StoreErrors(t, "renew"); n != 2 {
			t.Fatalf("renew errors counted %d, want 2", n)
		}
		if n := m.Count(t, idempotency.OutcomeReleased); n != 1 {
			t.Fatalf("released counted %d, want 1", n)
		}
	})
}

func TestLostClaimCancelsTheHandlerAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
			idempotency.WithLease(3*time.Second), quiet)
		if err != nil {
			t.Fatal(err)
		}
		err = mw.Handle(t.Context(), "k", func(ctx context.Context, _ string) error {
			// Someone frees and retakes the key behind this handler's back.
			c, _ := idempotency.ClaimFromContext(ctx)
			if err := store.Release(ctx, c.StoreKey, c.Token); err != nil {
				return err
			}
			if _, err := store.Claim(ctx, idempotency.ClaimRequest{Key: c.StoreKey, Owner: "thief", Lease: time.Hour}); err != nil {
				return err
			}
			<-ctx.Done()
			return context.Cause(ctx)
		})
		if !errors.Is(err, idempotency.ErrLeaseLost) || !errors.Is(err, idempotency.ErrConflict) {
			t.Fatalf("Handle returned %v, want the lease loss caused by a conflict", err)
		}
	})
}

func TestWaitUpTo(t *testing.T) {
	build := func(t *testing.T, store idempotency.Store, m *idempotencytest.Metrics, wait time.Duration) *idempotency.Middleware[string] {
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
			idempotency.WithLease(time.Minute), idempotency.WithInProgress(idempotency.WaitUpTo(wait)),
			idempotency.WithMeterProvider(m.Provider), quiet)
		if err != nil {
			t.Fatal(err)
		}
		return mw
	}
	for _, c := range []struct {
		name     string
		holder   error // what the first delivery's handler returns after 2s
		wait     time.Duration
		wantRun  bool
		wantErr  error
		outcomes map[idempotency.Outcome]int64
	}{
		{"HolderCompletes", nil, 5 * time.Second, false, nil,
			map[idempotency.Outcome]int64{idempotency.OutcomeClaimed: 1, idempotency.OutcomeCompleted: 1, idempotency.OutcomeCompletedDuplicate: 1}},
		{"HolderFails", errors.New("holder failed"), 5 * time.Second, true, nil,
			map[idempotency.Outcome]int64{idempotency.OutcomeClaimed: 2, idempotency.OutcomeReleased: 1, idempotency.OutcomeCompleted: 1}},
		{"WaitRunsOut", nil, time.Second, false, idempotency.ErrInProgress,
			map[idempotency.Outcome]int64{idempotency.OutcomeClaimed: 1, idempotency.OutcomeCompleted: 1, idempotency.OutcomeInProgressDuplicate: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
				m := idempotencytest.NewMetrics()
				mw := build(t, store, m, c.wait)
				first := make(chan error, 1)
				go func() {
					first <- mw.Handle(t.Context(), "k", func(context.Context, string) error {
						time.Sleep(2 * time.Second)
						return c.holder
					})
				}()
				synctest.Wait()
				ran := false
				err := mw.Handle(t.Context(), "k", func(context.Context, string) error { ran = true; return nil })
				if !errors.Is(err, c.wantErr) || (c.wantErr == nil && err != nil) || ran != c.wantRun {
					t.Fatalf("waiting duplicate: err %v, ran %v; want err %v, ran %v", err, ran, c.wantErr, c.wantRun)
				}
				if err := <-first; !errors.Is(err, c.holder) {
					t.Fatalf("holder: %v", err)
				}
				for _, o := range idempotency.Outcomes {
					if got := m.Count(t, o); got != c.outcomes[o] {
						t.Errorf("outcome %s counted %d, want %d", o, got, c.outcomes[o])
					}
				}
			})
		})
	}
}

func TestMemoryStoreIsBounded(t *testing.T) {
	ctx := context.Background()
	clock := idempotencytest.NewClock(time.Time{})
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Capacity: 64, Clock: clock})
	fill := func() (claimed, full int) {
		for i := range 1000 {
			res, err := store.Claim(ctx, idempotency.ClaimRequest{Key: fmt.Sprint("k", i), Owner: "o", Lease: time.Minute})
			switch {
			case errors.Is(err, idempotency.ErrStoreFull):
				full++
			case err != nil:
				t.Fatal(err)
			case res.Status == idempotency.StatusClaimed:
				claimed++
			}
		}
		return claimed, full
	}
	claimed, full := fill()
	if claimed != 64 || full == 0 || store.Len() > 64 {
		t.Fatalf("claimed %d and refused %d of 1000 keys, holding %d; want at most 64 held and the rest refused", claimed, full, store.Len())
	}
	// Once the claims expire, sweeping makes room for as many again.
	clock.Advance(2 * time.Minute)
	if again, _ := fill(); again != claimed {
		t.Fatalf("after expiry %d keys were claimed, want %d again", again, claimed)
	}
	if n := store.Len(); n > 64 {
		t.Fatalf("%d records kept, want at most 64", n)
	}
}

func TestRetryLaterDelay(t *testing.T) {
	ctx := context.Background()
	clock := idempotencytest.NewClock(time.Time{})
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Clock: clock})
	for _, c := range []struct {
		policy idempotency.InProgressPolicy
		want   time.Duration
	}{
		{idempotency.RetryLater(), 6 * time.Second},                       // a tenth of the lease
		{idempotency.RetryLaterAfter(2 * time.Second), 2 * time.Second},   // as asked
		{idempotency.RetryLaterAfter(10 * time.Minute), 45 * time.Second}, // no later than the holder's lease end
	} {
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
			idempotency.WithLease(time.Minute), idempotency.WithInProgress(c.policy), quiet)
		if err != nil {
			t.Fatal(err)
		}
		k := fmt.Sprint("delay-", c.want)
		err = mw.Handle(ctx, k, func(_ context.Context, k string) error {
			clock.Advance(15 * time.Second)
			// A duplicate delivered meanwhile, on a context of its own (on the holder's, the
			// middleware would take it for a second install and pass it through).
			return mw.Handle(ctx, k, func(context.Context, string) error { return nil })
		})
		var ip *idempotency.InProgressError
		if !errors.As(err, &ip) || ip.RetryAfter != c.want {
			t.Fatalf("%+v: %v, want RetryAfter %s", c.policy, err, c.want)
		}
	}
	if _, err := idempotency.New(key, idempotency.WithRetention(time.Hour), idempotency.WithInProgress(idempotency.RetryLaterAfter(-1))); err == nil {
		t.Fatal("a negative delay was accepted")
	}
}

// A conflict that the handler merely passes on, from a nested protected call, is the
// handler's failure: the outer claim is released, not counted as a conflict of its own.
func TestForeignConflictIsAFailure(t *testing.T) {
	m := idempotencytest.NewMetrics()
	mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
	if err != nil {
		t.Fatal(err)
	}
	foreign := fmt.Errorf("nested job: %w", idempotency.ErrConflict)
	err = mw.Handle(context.Background(), "k", func(context.Context, string) error { return foreign })
	var cc *idempotency.CompleteConflictError
	if !errors.Is(err, foreign) || errors.As(err, &cc) {
		t.Fatalf("Handle returned %v, want the handler's error as it was", err)
	}
	if got := m.Counts(t); got[idempotency.OutcomeReleased] != 1 || got[idempotency.OutcomeCompleteConflict] != 0 {
		t.Fatalf("outcomes %v, want released and no complete_conflict", got)
	}
}
