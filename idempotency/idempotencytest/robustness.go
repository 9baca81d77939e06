package idempotencytest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

// suiteCase is one case of the suite; each runs on a fresh fixture.
type suiteCase struct {
	name string
	run  func(t *testing.T, f *fixture)
}

func runCases(t *testing.T, newStore NewStoreFunc, cases []suiteCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, newFixture(t, newStore)) })
	}
}

func testRobustness(t *testing.T, newStore NewStoreFunc) { runCases(t, newStore, robustnessCases) }

// robustnessCases are the cases the reliability review's defects added (issue #17).
var robustnessCases = []suiteCase{
	// A client library retrying a claim after a lost reply (go-redis retries EVALSHA) must
	// get the claim back, not find its own claim in progress.
	{"SameOwnerClaimsAgain", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		req := idempotency.ClaimRequest{Key: f.key("k"), Owner: "owner-a", Lease: suiteLease}
		first, err := f.store.Claim(ctx, req)
		if err != nil || first.Status != idempotency.StatusClaimed {
			t.Fatalf("first claim: %+v %v", first, err)
		}
		f.clock.Advance(suiteLease / 2)
		again, err := f.store.Claim(ctx, req)
		if err != nil || again.Status != idempotency.StatusClaimed || again.Token != first.Token {
			t.Fatalf("the same owner's retried claim: %+v %v; want claimed with token %+v", again, err, first.Token)
		}
		if again.ExpiresIn <= suiteLease/2 {
			t.Fatalf("the retried claim expires in %s, want its lease renewed", again.ExpiresIn)
		}
		if other := f.stateRaw(req.Key); other.Status != idempotency.StatusInProgress || other.Token != first.Token {
			t.Fatalf("another owner sees %+v, want the claim in progress", other)
		}
		if err := f.store.Complete(ctx, req.Key, first.Token, suiteRetention); err != nil {
			t.Fatalf("Complete: %v", err)
		}
		done, err := f.store.Claim(ctx, req)
		if err != nil || done.Status != idempotency.StatusCompleted {
			t.Fatalf("the owner claiming its completed key: %+v %v; want completed", done, err)
		}
	}},

	// Fencing must not rest on the clock alone: after a record is gone (deleted, expired
	// away, forgotten) and the clock stepped back, the next epoch is still above the old.
	{"EpochAfterForgetAndClockStepBack", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		insp := inspector(t, f.store)
		k := f.key("k")
		zombie, err := f.store.Claim(ctx, idempotency.ClaimRequest{Key: k, Owner: "zombie", Lease: suiteLease})
		if err != nil {
			t.Fatal(err)
		}
		if err := insp.Forget(ctx, k); err != nil {
			t.Fatalf("Forget: %v", err)
		}
		f.clock.Advance(-24 * time.Hour)
		next, err := f.store.Claim(ctx, idempotency.ClaimRequest{Key: k, Owner: "next", Lease: suiteLease})
		if err != nil || next.Status != idempotency.StatusClaimed {
			t.Fatalf("claim after Forget: %+v %v", next, err)
		}
		if next.Token.Epoch <= zombie.Token.Epoch {
			t.Fatalf("epoch %d after the clock stepped back, want above the zombie's %d", next.Token.Epoch, zombie.Token.Epoch)
		}
		if err := f.store.Complete(ctx, k, zombie.Token, suiteRetention); !errors.Is(err, idempotency.ErrConflict) {
			t.Fatalf("the zombie's completion: %v, want ErrConflict", err)
		}
	}},

	// Token's contract (issue #32 item 14): an epoch is at least the store's clock in
	// microseconds, also after the clock moved on by more than any claim count could make up.
	{"EpochsAtLeastTheClock", func(t *testing.T, f *fixture) {
		for i, step := range []time.Duration{0, time.Second, 24 * time.Hour, 365 * 24 * time.Hour} {
			f.clock.Advance(step)
			r := claim(t, f.store, f.key(fmt.Sprint("k", i)), "owner", nil)
			wantStatus(t, r, idempotency.StatusClaimed)
			if now := f.clock.Now().UnixMicro(); r.Token.Epoch < now {
				t.Fatalf("after the clock moved on by %s: epoch %d is below the clock's %d microseconds (%s behind)",
					step, r.Token.Epoch, now, time.Duration(now-r.Token.Epoch)*time.Microsecond)
			}
		}
	}},

	{"InspectAndForget", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		insp := inspector(t, f.store)
		k := f.key("k")
		if r, err := insp.Inspect(ctx, k); err != nil || r.Status != 0 {
			t.Fatalf("Inspect of an unknown key: %+v %v, want no record", r, err)
		}
		a, err := f.store.Claim(ctx, idempotency.ClaimRequest{Key: k, Owner: "a", Fingerprint: []byte("fp"), Lease: suiteLease})
		if err != nil {
			t.Fatal(err)
		}
		r, err := insp.Inspect(ctx, k)
		if err != nil || r.Status != idempotency.StatusInProgress || r.Token != a.Token || string(r.Fingerprint) != "fp" || r.ExpiresIn <= 0 || r.ExpiresIn > suiteLease {
			t.Fatalf("Inspect of a claim: %+v %v", r, err)
		}
		if err := f.store.Complete(ctx, k, a.Token, suiteRetention); err != nil {
			t.Fatal(err)
		}
		if r, err = insp.Inspect(ctx, k); err != nil || r.Status != idempotency.StatusCompleted || r.ExpiresIn <= suiteLease {
			t.Fatalf("Inspect of a completion marker: %+v %v", r, err)
		}
		// A dead-letter replay: forget the marker, and the key is free again.
		if err := insp.Forget(ctx, k); err != nil {
			t.Fatal(err)
		}
		if err := insp.Forget(ctx, k); err != nil {
			t.Fatalf("Forget of a forgotten key: %v", err)
		}
		if st := f.stateRaw(k); st.Status != idempotency.StatusClaimed {
			t.Fatalf("after Forget the key is %s, want free", st.Status)
		}
	}},

	// Keys are hashed before storage, so every store takes any key the middleware is given.
	{"AnyKeyThroughTheMiddleware", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		mw := f.middleware(f.store, m)
		keys := []string{"nul\x00inside", "invalid-utf8-\xff\xfe", strings.Repeat("megabyte", 1<<17), "ключ-🔑"}
		runs := 0
		for _, k := range keys {
			j := job{Key: f.key(k), Payload: "p"}
			for range 2 {
				if err := mw.Handle(ctx, j, func(context.Context, job) error { runs++; return nil }); err != nil {
					t.Fatalf("key of %d bytes: %v", len(k), err)
				}
			}
		}
		if runs != len(keys) {
			t.Fatalf("%d runs for %d keys delivered twice, want one each", runs, len(keys))
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 4, idempotency.OutcomeCompleted: 4, idempotency.OutcomeCompletedDuplicate: 4,
		})
	}},

	// Result replay: a result kept with the completion comes back to a duplicate, and a
	// later claim of the key (after the retention) starts without it.
	{"ResultReplay", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		if _, ok := f.store.(idempotency.ResultStore); !ok {
			t.Fatalf("%T does not implement idempotency.ResultStore", f.store)
		}
		mw := f.middleware(f.store, NewMetrics())
		j := job{Key: f.key("k"), Payload: "p"}
		receipt := func(ctx context.Context, _ job) error { return idempotency.SetResult(ctx, []byte("receipt-1")) }
		res, dup, err := mw.HandleResult(ctx, j, receipt)
		if err != nil || dup || string(res) != "receipt-1" {
			t.Fatalf("first delivery: %q duplicate %v, %v; want its own result", res, dup, err)
		}
		res, dup, err = mw.HandleResult(ctx, j, func(context.Context, job) error { t.Error("a duplicate ran"); return nil })
		if err != nil || !dup || string(res) != "receipt-1" {
			t.Fatalf("duplicate: %q duplicate %v, %v; want the stored result", res, dup, err)
		}
		plain := job{Key: f.key("plain"), Payload: "p"}
		_, _, _ = mw.HandleResult(ctx, plain, func(context.Context, job) error { return nil })
		if res, dup, err := mw.HandleResult(ctx, plain, nil); err != nil || !dup || res != nil {
			t.Fatalf("duplicate of a job without a result: %q %v %v; want no result", res, dup, err)
		}
		f.clock.Advance(suiteRetention)
		if res, dup, err := mw.HandleResult(ctx, j, func(context.Context, job) error { return nil }); err != nil || dup || res != nil {
			t.Fatalf("after the retention: %q duplicate %v, %v; want a fresh run without the old result", res, dup, err)
		}
		if err := mw.Handle(ctx, job{Key: f.key("big"), Payload: "p"}, func(ctx context.Context, _ job) error {
			return idempotency.SetResult(ctx, make([]byte, idempotency.MaxResultSize+1))
		}); err == nil {
			t.Fatal("SetResult took a result over MaxResultSize")
		}
	}},
}

func inspector(t *testing.T, s idempotency.Store) idempotency.Inspector {
	t.Helper()
	insp, ok := s.(idempotency.Inspector)
	if !ok {
		t.Fatalf("%T does not implement idempotency.Inspector", s)
	}
	return insp
}
