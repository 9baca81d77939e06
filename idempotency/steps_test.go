package idempotency_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

// plainStore is a Store with nothing more: neither a StepStore nor a ReviewStore, as a
// store written before them is.
type plainStore struct{ idempotency.Store }

func stepMiddleware(t *testing.T, store idempotency.Store, opts ...idempotency.Option) *idempotency.Middleware[string] {
	t.Helper()
	mw, err := idempotency.New(func(k string) (string, error) { return k, nil }, append([]idempotency.Option{
		idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
		idempotency.WithLogger(slog.New(slog.DiscardHandler)),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return mw
}

func TestStepOutsideADelivery(t *testing.T) {
	ran := false
	_, err := idempotency.Step(context.Background(), "s", func(context.Context) (int, error) { ran = true; return 1, nil })
	if !errors.Is(err, idempotency.ErrNoDelivery) || ran {
		t.Fatalf("Step outside a delivery: %v, ran %v; want ErrNoDelivery without running", err, ran)
	}
	if err := idempotency.SetResult(context.Background(), nil); !errors.Is(err, idempotency.ErrNoDelivery) {
		t.Fatalf("SetResult outside a delivery: %v, want ErrNoDelivery", err)
	}
}

func TestStepUnprotectedRuns(t *testing.T) {
	mw, err := idempotency.New(func(string) (string, error) { return "", nil },
		idempotency.WithRetention(time.Hour), idempotency.WithEmptyKey(idempotency.RunUnprotected),
		idempotency.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	h := func(ctx context.Context, _ string) error {
		v, err := idempotency.Step(ctx, "s", func(context.Context) (int, error) { runs++; return 7, nil })
		if v != 7 {
			t.Errorf("unprotected step returned %d", v)
		}
		return err
	}
	for range 2 {
		if err := mw.Handle(context.Background(), "", h); err != nil {
			t.Fatal(err)
		}
	}
	if runs != 2 {
		t.Fatalf("an unprotected step ran %d times in two deliveries, want 2: nothing is recorded", runs)
	}
}

func TestStepNeedsAStepStore(t *testing.T) {
	mw := stepMiddleware(t, plainStore{idempotency.NewMemoryStore(idempotency.MemoryConfig{})})
	ran := false
	err := mw.Handle(context.Background(), "k", func(ctx context.Context, _ string) error {
		_, err := idempotency.Step(ctx, "s", func(context.Context) (int, error) { ran = true; return 1, nil })
		return err
	})
	if !errors.Is(err, idempotency.ErrStepsUnsupported) || ran {
		t.Fatalf("Step on a store that is no StepStore: %v, ran %v; want ErrStepsUnsupported without running", err, ran)
	}
}

func TestStepLimits(t *testing.T) {
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	mw := stepMiddleware(t, store)
	ctx := context.Background()
	for _, name := range []string{"", "nul\x00", "bad-\xff", strings.Repeat("n", 201)} {
		ran := false
		err := mw.Handle(ctx, "names-"+name, func(ctx context.Context, _ string) error {
			_, err := idempotency.Step(ctx, name, func(context.Context) (int, error) { ran = true; return 1, nil })
			return err
		})
		if err == nil || ran {
			t.Errorf("step name %q: %v, ran %v; want it refused before running", name, err, ran)
		}
	}
	big := mw.Handle(ctx, "big", func(ctx context.Context, _ string) error {
		v, err := idempotency.Step(ctx, "s", func(context.Context) ([]byte, error) { return make([]byte, idempotency.MaxResultSize+1), nil })
		if len(v) != idempotency.MaxResultSize+1 {
			t.Errorf("an oversized step returned %d bytes, want fn's result", len(v))
		}
		return err
	})
	if big == nil || !strings.Contains(big.Error(), "MaxResultSize") {
		t.Fatalf("oversized step result: %v", big)
	}
	// A recorded result that no longer decodes into the step's type fails, naming the step.
	if err := mw.Handle(ctx, "typed", func(ctx context.Context, _ string) error {
		if _, err := idempotency.Step(ctx, "s", func(context.Context) (string, error) { return "text", nil }); err != nil {
			return err
		}
		return errors.New("fail, to run again")
	}); err == nil {
		t.Fatal("want the first delivery to fail")
	}
	err := mw.Handle(ctx, "typed", func(ctx context.Context, _ string) error {
		_, err := idempotency.Step(ctx, "s", func(context.Context) (int, error) { t.Error("a recorded step ran"); return 0, nil })
		return err
	})
	if err == nil || !strings.Contains(err.Error(), `step "s"`) {
		t.Fatalf("decoding into another type: %v", err)
	}
}

func TestNeedsReviewNeedsAReviewStore(t *testing.T) {
	plain := plainStore{idempotency.NewMemoryStore(idempotency.MemoryConfig{})}
	for _, opt := range []idempotency.Option{idempotency.WithNeedsReview(func(error) bool { return true }), idempotency.WithNeedsReviewReplay()} {
		if _, err := idempotency.New(func(k string) (string, error) { return k, nil }, idempotency.WithStore(plain), idempotency.WithRetention(time.Hour), opt); err == nil {
			t.Error("New took a review option with a store that is no ReviewStore")
		}
	}
	if _, err := idempotency.New(func(k string) (string, error) { return k, nil }, idempotency.WithRetention(time.Hour), idempotency.WithNeedsReview(nil)); err == nil {
		t.Error("New took WithNeedsReview(nil)")
	}
	// A handler's NeedsReview on such a store keeps the claim: nothing runs until the lease ends.
	m := idempotencytest.NewMetrics()
	mw := stepMiddleware(t, plain, idempotency.WithMeterProvider(m.Provider))
	err := mw.Handle(context.Background(), "k", func(context.Context, string) error { return idempotency.NeedsReview(errors.New("partial")) })
	if !errors.Is(err, idempotency.ErrNeedsReview) || !idempotency.IsPermanent(err) {
		t.Fatalf("NeedsReview on a plain store: %v", err)
	}
	out, err := mw.HandleOutcome(context.Background(), "k", func(context.Context, string) error { t.Error("ran"); return nil })
	if !errors.Is(err, idempotency.ErrInProgress) || out != idempotency.OutcomeInProgressDuplicate {
		t.Fatalf("the next delivery: %q %v, want the kept claim to defer it", out, err)
	}
	if n := m.Count(t, idempotency.OutcomeKept); n != 1 {
		t.Fatalf("kept counted %d, want 1", n)
	}
	if idempotency.NeedsReview(nil) != nil {
		t.Fatal("NeedsReview(nil) is not nil")
	}
}

func TestHandleOutcome(t *testing.T) {
	mw := stepMiddleware(t, idempotency.NewMemoryStore(idempotency.MemoryConfig{}))
	ctx := context.Background()
	for i, want := range []idempotency.Outcome{idempotency.OutcomeReleased, idempotency.OutcomeCompleted, idempotency.OutcomeCompletedDuplicate} {
		out, _ := mw.HandleOutcome(ctx, "k", func(context.Context, string) error {
			if i == 0 {
				return errors.New("boom")
			}
			return nil
		})
		if out != want {
			t.Fatalf("delivery %d: outcome %q, want %q", i, out, want)
		}
	}
}
