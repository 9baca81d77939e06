package idempotency_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

type payment struct{ AttemptID string }

// Defect 3: a prefix joined to an empty ID is an empty key, not a key shared by every
// payment without an ID. Since #32 item 7 the rule applies to Key's parts, where the empty ID
// is known, not to the final string (which may end in ':' and be a key).
func TestPrefixedEmptyKeyIsEmpty(t *testing.T) {
	m := idempotencytest.NewMetrics()
	mw, err := idempotency.New(func(p payment) (string, error) { return idempotency.Key("charge", p.AttemptID) },
		idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
	if err != nil {
		t.Fatal(err)
	}
	charged := 0
	for range 3 {
		err := mw.Handle(context.Background(), payment{}, func(context.Context, payment) error { charged++; return nil })
		if !errors.Is(err, idempotency.ErrEmptyKey) || !idempotency.IsPermanent(err) {
			t.Fatalf("payment without an ID: %v, want ErrEmptyKey", err)
		}
	}
	if charged != 0 || m.Count(t, idempotency.OutcomeEmptyKey) != 3 || m.Count(t, idempotency.OutcomeCompletedDuplicate) != 0 {
		t.Fatalf("charged %d, outcomes %v; want nothing charged and 3 empty_key", charged, m.Counts(t))
	}
}

// Defect 4: two handlers on one store with the same business key both run.
func TestHandlersDoNotShareKeys(t *testing.T) {
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	build := func(opts ...idempotency.Option) *idempotency.Middleware[string] {
		mw, err := idempotency.New(key, append([]idempotency.Option{idempotency.WithStore(store),
			idempotency.WithRetention(time.Hour), quiet}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return mw
	}
	ship, bill := build(idempotency.WithName("ship")), build(idempotency.WithName("bill"))
	ran := map[string]int{}
	for _, mw := range []*idempotency.Middleware[string]{ship, bill, ship, bill} {
		if err := mw.Handle(context.Background(), "order-42", func(ctx context.Context, _ string) error {
			if mw == ship {
				ran["ship"]++
			} else {
				ran["bill"]++
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if ran["ship"] != 1 || ran["bill"] != 1 {
		t.Fatalf("runs %v, want each handler once for order-42", ran)
	}
	// Without names the job's type is the namespace.
	other, err := idempotency.New(func(p payment) (string, error) { return p.AttemptID, nil },
		idempotency.WithStore(store), idempotency.WithRetention(time.Hour), quiet)
	if err != nil {
		t.Fatal(err)
	}
	unnamed := build()
	runs := 0
	if err := unnamed.Handle(context.Background(), "order-42", func(context.Context, string) error { runs++; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := other.Handle(context.Background(), payment{AttemptID: "order-42"}, func(context.Context, payment) error { runs++; return nil }); err != nil {
		t.Fatal(err)
	}
	if runs != 2 {
		t.Fatalf("%d runs, want handlers of two job types kept apart", runs)
	}
}

// Defect 8: a key or fingerprint function that fails fails the same way on every retry: the
// error is permanent, and counted.
func TestKeyAndFingerprintErrorsArePermanent(t *testing.T) {
	boom := errors.New("payload does not decode")
	for _, c := range []struct {
		name string
		key  idempotency.KeyFunc[string]
		opts []idempotency.Option
	}{
		{"key", func(string) (string, error) { return "", boom }, nil},
		{"fingerprint", key, []idempotency.Option{idempotency.WithFingerprint(func(string) ([]byte, error) { return nil, boom })}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := idempotencytest.NewMetrics()
			mw, err := idempotency.New(c.key, append(c.opts, idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)...)
			if err != nil {
				t.Fatal(err)
			}
			ran := false
			err = mw.Handle(context.Background(), "x", func(context.Context, string) error { ran = true; return nil })
			if !errors.Is(err, boom) || !idempotency.IsPermanent(err) || ran {
				t.Fatalf("err %v (permanent %v), ran %v; want a permanent error and no run", err, idempotency.IsPermanent(err), ran)
			}
			if n := m.Count(t, idempotency.Outcome("key_error")); n != 1 {
				t.Fatalf("key_error counted %d, want 1 (all: %v)", n, m.Counts(t))
			}
		})
	}
}

// Defect 10: on the transactional path the conflict must match ErrConflict whatever the
// handler returns after CompleteInTx reported it.
func TestCompleteInTxConflictMatchesErrConflict(t *testing.T) {
	mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), quiet)
	if err != nil {
		t.Fatal(err)
	}
	err = mw.Handle(context.Background(), "k", func(ctx context.Context, _ string) error {
		_ = idempotency.CompleteInTx(ctx, func(idempotency.Claim) error { return idempotency.ErrConflict })
		return errors.New("transaction rolled back") // the handler does not wrap the conflict
	})
	var cc *idempotency.CompleteConflictError
	if !errors.As(err, &cc) || !errors.Is(err, idempotency.ErrConflict) {
		t.Fatalf("Handle returned %v; want a *CompleteConflictError matching ErrConflict", err)
	}
}

// Every delivery that ran the handler counts an outcome after "claimed".
func TestEveryRunCountsAnOutcome(t *testing.T) {
	ctx := context.Background()
	t.Run("CompletionNotStored", func(t *testing.T) {
		store := idempotencytest.NewFaultyStore(idempotency.NewMemoryStore(idempotency.MemoryConfig{}))
		for range 3 {
			store.Inject(idempotencytest.OpComplete, idempotencytest.FailBefore)
		}
		m := idempotencytest.NewMetrics()
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
		if err != nil {
			t.Fatal(err)
		}
		err = mw.Handle(ctx, "k", func(context.Context, string) error { return nil })
		if !errors.Is(err, idempotencytest.ErrInjected) || idempotency.IsPermanent(err) {
			t.Fatalf("Handle returned %v, want a retryable store error", err)
		}
		if n := m.Count(t, idempotency.Outcome("complete_failed")); n != 1 {
			t.Fatalf("complete_failed counted %d, want 1 (all %v)", n, m.Counts(t))
		}
	})
	t.Run("FencedFailure", func(t *testing.T) {
		store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
		m := idempotencytest.NewMetrics()
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
		if err != nil {
			t.Fatal(err)
		}
		boom := errors.New("failed")
		_ = mw.Handle(ctx, "k", func(ctx context.Context, _ string) error {
			c, _ := idempotency.ClaimFromContext(ctx)
			_ = store.Release(ctx, c.StoreKey, c.Token) // taken from under it
			_, _ = store.Claim(ctx, idempotency.ClaimRequest{Key: c.StoreKey, Owner: "thief", Lease: time.Hour})
			return boom
		})
		if n := m.Count(t, idempotency.Outcome("claim_lost")); n != 1 {
			t.Fatalf("claim_lost counted %d, want 1 (all %v)", n, m.Counts(t))
		}
	})
}

func TestKeyParts(t *testing.T) {
	for _, c := range []struct {
		parts []string
		want  string
		empty bool
	}{
		{[]string{"order-7"}, "order-7", false},
		{[]string{"charge", "a1"}, "charge:a1", false},
		{[]string{"charge", ""}, "", true},
		{[]string{"", "a1"}, "", true},
		{nil, "", true},
	} {
		got, err := idempotency.Key(c.parts...)
		if got != c.want || errors.Is(err, idempotency.ErrEmptyKey) != c.empty {
			t.Errorf("Key(%q) = %q, %v; want %q, empty %v", c.parts, got, err, c.want, c.empty)
		}
	}
	a, _ := idempotency.Key("a:b", "c")
	b, _ := idempotency.Key("a", "b:c")
	if a == b {
		t.Fatalf("Key(a:b, c) and Key(a, b:c) are both %q", a)
	}
	// A key function built on Key hands the empty part to the empty-key policy.
	m := idempotencytest.NewMetrics()
	mw, err := idempotency.New(func(p payment) (string, error) { return idempotency.Key("charge", p.AttemptID) },
		idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
	if err != nil {
		t.Fatal(err)
	}
	if err := mw.Handle(context.Background(), payment{}, func(context.Context, payment) error { return nil }); !errors.Is(err, idempotency.ErrEmptyKey) {
		t.Fatalf("empty part: %v, want ErrEmptyKey", err)
	}
	if n := m.Count(t, idempotency.OutcomeEmptyKey); n != 1 {
		t.Fatalf("empty_key counted %d, want 1", n)
	}
}
