package idempotencytest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

// testSteps runs the recovery-point cases (idempotency.Step) when the store is an
// idempotency.StepStore; a store that is not one skips them.
func testSteps(t *testing.T, newStore NewStoreFunc) { runCases(t, newStore, stepCases) }

// testReview runs the manual-review cases (idempotency.NeedsReview) when the store is an
// idempotency.ReviewStore; a store that is not one skips them.
func testReview(t *testing.T, newStore NewStoreFunc) { runCases(t, newStore, reviewCases) }

func stepStore(t *testing.T, s idempotency.Store) idempotency.StepStore {
	t.Helper()
	ss, ok := s.(idempotency.StepStore)
	if !ok {
		t.Skipf("%T is not an idempotency.StepStore", s)
	}
	return ss
}

func reviewStore(t *testing.T, s idempotency.Store) idempotency.ReviewStore {
	t.Helper()
	rs, ok := s.(idempotency.ReviewStore)
	if !ok {
		t.Skipf("%T is not an idempotency.ReviewStore", s)
	}
	return rs
}

// wantSteps checks the steps a store keeps for key.
func wantSteps(t *testing.T, s idempotency.StepStore, key string, want map[string]string) {
	t.Helper()
	got, err := s.LoadSteps(context.Background(), key)
	if err != nil {
		t.Fatalf("LoadSteps: %v", err)
	}
	gotS := map[string]string{}
	for k, v := range got {
		gotS[k] = string(v)
	}
	if !maps.Equal(gotS, want) {
		t.Fatalf("steps kept %v, want %v", gotS, want)
	}
}

// stepCases check recovery points: the StepStore contract, and Step through the middleware
// with a crash at every step boundary.
var stepCases = []suiteCase{
	{"Contract", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		s := stepStore(t, f.store)
		k := f.key("k")
		wantSteps(t, s, k, map[string]string{})
		a := claim(t, f.store, k, "owner-a", nil)
		wantSteps(t, s, k, map[string]string{})
		noErr(t, "SaveStep", s.SaveStep(ctx, k, a.Token, "one", []byte("r1"), suiteRetention))
		noErr(t, "SaveStep repeated (a retry after a lost reply)", s.SaveStep(ctx, k, a.Token, "one", []byte("r1"), suiteRetention))
		wantConflict(t, "SaveStep by another owner", s.SaveStep(ctx, k, idempotency.Token{Owner: "owner-b", Epoch: a.Token.Epoch}, "x", nil, suiteRetention))
		wantConflict(t, "SaveStep with another epoch", s.SaveStep(ctx, k, idempotency.Token{Owner: a.Token.Owner, Epoch: a.Token.Epoch + 1}, "x", nil, suiteRetention))
		wantConflict(t, "SaveStep on an unknown key", s.SaveStep(ctx, f.key("never-claimed"), a.Token, "x", nil, suiteRetention))
		wantSteps(t, s, k, map[string]string{"one": "r1"})

		// Released: the steps stay for the next claim, which the old holder cannot write for.
		noErr(t, "Release", f.store.Release(ctx, k, a.Token))
		wantConflict(t, "SaveStep after Release", s.SaveStep(ctx, k, a.Token, "two", []byte("r2"), suiteRetention))
		wantSteps(t, s, k, map[string]string{"one": "r1"})
		b := claim(t, f.store, k, "owner-b", nil)
		wantStatus(t, b, idempotency.StatusClaimed)
		wantSteps(t, s, k, map[string]string{"one": "r1"})
		noErr(t, "SaveStep by the next holder", s.SaveStep(ctx, k, b.Token, "two", []byte{0, 0xff, 'r', '2'}, suiteRetention))

		// Taken over after the lease: the fenced holder cannot add a step.
		f.clock.Advance(suiteLease)
		c := claim(t, f.store, k, "owner-c", nil)
		wantStatus(t, c, idempotency.StatusClaimed)
		wantConflict(t, "SaveStep by the fenced holder", s.SaveStep(ctx, k, b.Token, "three", []byte("zombie"), suiteRetention))
		wantSteps(t, s, k, map[string]string{"one": "r1", "two": "\x00\xffr2"})

		// Completed: the steps are kept with the marker and shown by Inspect.
		noErr(t, "Complete", f.store.Complete(ctx, k, c.Token, suiteRetention))
		wantConflict(t, "SaveStep after Complete", s.SaveStep(ctx, k, c.Token, "three", nil, suiteRetention))
		if insp, ok := f.store.(idempotency.Inspector); ok {
			r, err := insp.Inspect(ctx, k)
			if err != nil || r.Status != idempotency.StatusCompleted || len(r.Steps) != 2 || string(r.Steps["one"]) != "r1" {
				t.Fatalf("Inspect of a completed key with steps: %+v %v", r, err)
			}
		}

		// After the retention, a fresh run of the job starts with no steps.
		f.clock.Advance(suiteRetention)
		d := claim(t, f.store, k, "owner-d", nil)
		wantStatus(t, d, idempotency.StatusClaimed)
		wantSteps(t, s, k, map[string]string{})
		noErr(t, "SaveStep in a fresh run", s.SaveStep(ctx, k, d.Token, "two", []byte("fresh"), suiteRetention))
		wantSteps(t, s, k, map[string]string{"two": "fresh"})
	}},

	// A key's steps expire together, from the last one recorded: a step recorded long ago
	// must not run again while a later one of the same run is kept.
	{"ExpireTogether", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		s := stepStore(t, f.store)
		k := f.key("k")
		a := claim(t, f.store, k, "owner-a", nil)
		noErr(t, "SaveStep one", s.SaveStep(ctx, k, a.Token, "one", []byte("r1"), suiteRetention))
		noErr(t, "Release", f.store.Release(ctx, k, a.Token))
		f.clock.Advance(suiteRetention / 2)
		b := claim(t, f.store, k, "owner-b", nil)
		noErr(t, "SaveStep two", s.SaveStep(ctx, k, b.Token, "two", []byte("r2"), suiteRetention))
		noErr(t, "Release", f.store.Release(ctx, k, b.Token))
		f.clock.Advance(suiteRetention * 3 / 4) // past step one's own retention
		wantSteps(t, s, k, map[string]string{"one": "r1", "two": "r2"})
		f.clock.Advance(suiteRetention / 4)
		wantSteps(t, s, k, map[string]string{})
		c := claim(t, f.store, k, "owner-c", nil)
		noErr(t, "SaveStep three", s.SaveStep(ctx, k, c.Token, "three", []byte("r3"), suiteRetention))
		wantSteps(t, s, k, map[string]string{"three": "r3"}) // the expired ones are not revived
	}},

	{"ForgetRemovesSteps", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		s := stepStore(t, f.store)
		insp := inspector(t, f.store)
		k := f.key("k")
		a := claim(t, f.store, k, "owner-a", nil)
		noErr(t, "SaveStep", s.SaveStep(ctx, k, a.Token, "one", []byte("r1"), suiteRetention))
		noErr(t, "Release", f.store.Release(ctx, k, a.Token))
		r, err := insp.Inspect(ctx, k)
		if err != nil || r.Status != 0 || string(r.Steps["one"]) != "r1" {
			t.Fatalf("Inspect of a released key with steps: %+v %v; want no claim and its step", r, err)
		}
		noErr(t, "Forget", insp.Forget(ctx, k))
		wantSteps(t, s, k, map[string]string{})
		if r, err := insp.Inspect(ctx, k); err != nil || r.Status != 0 || len(r.Steps) != 0 {
			t.Fatalf("Inspect after Forget: %+v %v; want nothing", r, err)
		}
	}},

	{"ThroughTheMiddleware", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		stepStore(t, f.store)
		m := NewMetrics()
		mw := f.middleware(f.store, m)
		j := job{Key: f.key("k"), Payload: "p"}
		type receipt struct {
			ID     string
			Amount int
		}
		var runs [2]int
		handler := func(fail bool) idempotency.HandlerFunc[job] {
			return func(ctx context.Context, _ job) error {
				r, err := idempotency.Step(ctx, "charge", func(context.Context) (receipt, error) {
					runs[0]++
					return receipt{ID: "ch_1", Amount: 500}, nil
				})
				if err != nil {
					return err
				}
				if r != (receipt{ID: "ch_1", Amount: 500}) {
					t.Errorf("step result %+v, want the recorded receipt", r)
				}
				raw, err := idempotency.Step(ctx, "raw", func(context.Context) ([]byte, error) { runs[1]++; return []byte{0, 1, 0xff}, nil })
				if err != nil || string(raw) != "\x00\x01\xff" {
					t.Errorf("raw step: %q %v", raw, err)
				}
				if fail {
					return errBoom
				}
				return nil
			}
		}
		if err := mw.Handle(ctx, j, handler(true)); !errors.Is(err, errBoom) {
			t.Fatalf("first delivery: %v, want errBoom", err)
		}
		if err := mw.Handle(ctx, j, handler(false)); err != nil {
			t.Fatalf("second delivery: %v", err)
		}
		if runs != [2]int{1, 1} {
			t.Fatalf("steps ran %v times, want once each", runs)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 2, idempotency.OutcomeReleased: 1, idempotency.OutcomeCompleted: 1,
		})
		// A step that fails records nothing, and runs again.
		k2 := job{Key: f.key("failing"), Payload: "p"}
		calls := 0
		h := func(ctx context.Context, _ job) error {
			_, err := idempotency.Step(ctx, "s", func(context.Context) (int, error) {
				calls++
				if calls == 1 {
					return 0, errBoom
				}
				return calls, nil
			})
			return err
		}
		if err := mw.Handle(ctx, k2, h); !errors.Is(err, errBoom) {
			t.Fatalf("failing step: %v", err)
		}
		if err := mw.Handle(ctx, k2, h); err != nil || calls != 2 {
			t.Fatalf("after a failed step: %v, %d calls; want it run again", err, calls)
		}
	}},

	{"CrashAtEveryStepBoundary", func(t *testing.T, f *fixture) {
		stepStore(t, f.store)
		for crashAfter := range 4 {
			for _, how := range []string{"returned", "crashed"} {
				t.Run(fmt.Sprintf("%s_after_%d_steps", how, crashAfter), func(t *testing.T) {
					crashAtStep(t, f, crashAfter, how == "crashed")
				})
			}
		}
	}},

	// A step whose result cannot be recorded because the claim was taken over: the
	// delivery ends complete_conflict, the new holder's steps stand.
	{"FencedStep", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		stepStore(t, f.store)
		m := NewMetrics()
		mw := f.middleware(f.store, m)
		j := job{Key: f.key("k"), Payload: "p"}
		frozen, thaw := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- mw.Handle(ctx, j, func(ctx context.Context, _ job) error {
				close(frozen)
				<-thaw
				_, err := idempotency.Step(ctx, "z", func(context.Context) (string, error) { return "zombie", nil })
				if !errors.Is(err, idempotency.ErrConflict) {
					t.Errorf("the zombie's step: %v, want ErrConflict", err)
				}
				return nil // the handler ignores it: the delivery still ends as a conflict
			})
		}()
		<-frozen
		f.clock.Advance(suiteLease)
		if err := mw.Handle(ctx, j, func(ctx context.Context, _ job) error {
			_, err := idempotency.Step(ctx, "s", func(context.Context) (string, error) { return "holder", nil })
			return err
		}); err != nil {
			t.Fatalf("the new holder: %v", err)
		}
		close(thaw)
		if err := <-done; !errors.Is(err, idempotency.ErrConflict) {
			t.Fatalf("the zombie's delivery: %v, want a complete conflict", err)
		}
		wantSteps(t, f.store.(idempotency.StepStore), idempotency.StoreKey(suiteHandler, j.Key), map[string]string{"s": `"holder"`})
		if n := m.Count(t, idempotency.OutcomeCompleteConflict); n != 1 {
			t.Fatalf("complete_conflict counted %d, want 1", n)
		}
	}},

	{"StepFaults", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		stepStore(t, f.store)
		m := NewMetrics()
		faulty := NewFaultyStore(f.store)
		mw := f.middleware(faulty, m, idempotency.WithStoreTimeout(200*time.Millisecond))
		j := job{Key: f.key("k"), Payload: "p"}
		faulty.Inject(OpStep, LoseReply) // recorded, reply lost: retried with the same token
		runs := 0
		h := func(ctx context.Context, _ job) error {
			_, err := idempotency.Step(ctx, "s", func(context.Context) (int, error) { runs++; return 7, nil })
			return err
		}
		if err := mw.Handle(ctx, j, h); err != nil || runs != 1 {
			t.Fatalf("step with a lost reply: %v, %d runs", err, runs)
		}
		j2 := job{Key: f.key("k2"), Payload: "p"}
		for range 3 {
			faulty.Inject(OpStep, FailBefore)
		}
		var stepErr error
		if err := mw.Handle(ctx, j2, func(ctx context.Context, _ job) error {
			v, err := idempotency.Step(ctx, "s", func(context.Context) (int, error) { runs++; return 7, nil })
			stepErr = err
			if v != 7 {
				t.Errorf("a step whose result was not recorded returned %d, want fn's 7", v)
			}
			return err
		}); !errors.Is(err, ErrInjected) {
			t.Fatalf("step whose recording failed: %v, want the store's error", err)
		}
		var se *idempotency.StoreError
		if !errors.As(stepErr, &se) || se.Op != "step" || idempotency.IsPermanent(stepErr) {
			t.Fatalf("Step returned %v, want a retryable *StoreError of op step", stepErr)
		}
		if err := mw.Handle(ctx, j2, h); err != nil || runs != 3 {
			t.Fatalf("redelivery: %v, %d runs; want the unrecorded step run again", err, runs)
		}
	}},
}

// crashAtStep runs a three-step handler that stops after crashAfter steps, by returning an
// error (the claim is released) or by crashing (the claim is left until its lease ends;
// the worker comes back later as a zombie), then delivers the job again: the redelivery
// must run exactly the steps not recorded, and get the recorded ones' results back.
func crashAtStep(t *testing.T, f *fixture, crashAfter int, crash bool) {
	ctx := context.Background()
	m := NewMetrics()
	mw := f.middleware(f.store, m)
	j := job{Key: f.key(fmt.Sprintf("crash-%d-%v", crashAfter, crash)), Payload: "p"}
	var mu sync.Mutex
	var ran []string // the step functions that ran, by delivery
	steps := func(ctx context.Context, who string, stop int, before func()) error {
		for i := 1; i <= 3; i++ {
			if i > stop {
				break
			}
			name := fmt.Sprint("step", i)
			got, err := idempotency.Step(ctx, name, func(context.Context) (string, error) {
				mu.Lock()
				ran = append(ran, who+":"+name)
				mu.Unlock()
				return who + "-" + name, nil
			})
			if err != nil {
				return err
			}
			if !strings.HasSuffix(got, "-"+name) {
				t.Errorf("%s: step %s returned %q", who, name, got)
			}
			if who == "b" && i <= crashAfter && got != "a-"+name {
				t.Errorf("redelivery: step %s returned %q, want the recorded %q", name, got, "a-"+name)
			}
		}
		if before != nil {
			before()
		}
		return nil
	}
	if !crash {
		err := mw.Handle(ctx, j, func(ctx context.Context, _ job) error {
			if err := steps(ctx, "a", crashAfter, nil); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("first delivery: %v, want errBoom", err)
		}
	} else {
		frozen, thaw := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- mw.Handle(ctx, j, func(ctx context.Context, _ job) error {
				return steps(ctx, "a", crashAfter, func() { close(frozen); <-thaw })
			})
		}()
		<-frozen
		if err := mw.Handle(ctx, j, func(context.Context, job) error { t.Error("ran within the crashed worker's lease"); return nil }); !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("redelivery within the lease: %v, want ErrInProgress", err)
		}
		f.clock.Advance(suiteLease)
		defer func() {
			close(thaw)
			// The zombie finds its claim taken over: its completion is a conflict.
			if err := <-done; !errors.Is(err, idempotency.ErrConflict) {
				t.Errorf("the zombie: %v, want a complete conflict", err)
			}
		}()
	}
	if err := mw.Handle(ctx, j, func(ctx context.Context, _ job) error { return steps(ctx, "b", 3, nil) }); err != nil {
		t.Fatalf("redelivery: %v", err)
	}
	var want []string
	for i := 1; i <= crashAfter; i++ {
		want = append(want, fmt.Sprint("a:step", i))
	}
	for i := crashAfter + 1; i <= 3; i++ {
		want = append(want, fmt.Sprint("b:step", i))
	}
	mu.Lock()
	got := slices.Clone(ran)
	mu.Unlock()
	if !slices.Equal(got, want) {
		t.Fatalf("steps ran %v, want %v", got, want)
	}
	if st := f.state(j.Key); st.Status != idempotency.StatusCompleted {
		t.Fatalf("key is %s, want completed", st.Status)
	}
}

// reviewCases check failed markers: the ReviewStore contract, and NeedsReview through the
// middleware.
var reviewCases = []suiteCase{
	{"Contract", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		rs := reviewStore(t, f.store)
		k := f.key("k")
		a := claim(t, f.store, k, "owner-a", []byte("fp"))
		wantConflict(t, "Fail by another owner", rs.Fail(ctx, k, idempotency.Token{Owner: "owner-b", Epoch: a.Token.Epoch}, suiteRetention, "x"))
		noErr(t, "Fail", rs.Fail(ctx, k, a.Token, suiteRetention, "charge captured, order not written"))
		noErr(t, "Fail repeated", rs.Fail(ctx, k, a.Token, suiteRetention, "charge captured, order not written"))
		got := claim(t, f.store, k, "owner-b", nil)
		wantStatus(t, got, idempotency.StatusFailed)
		if got.Token != a.Token || got.Reason != "charge captured, order not written" || string(got.Fingerprint) != "fp" || got.ExpiresIn <= suiteLease || got.ExpiresIn > suiteRetention {
			t.Fatalf("a failed key reports %+v, want holder %+v, the reason, its fingerprint and the retention", got, a.Token)
		}
		wantConflict(t, "Complete after Fail", f.store.Complete(ctx, k, a.Token, suiteRetention))
		wantConflict(t, "Release after Fail", f.store.Release(ctx, k, a.Token))
		wantConflict(t, "Renew after Fail", f.store.Renew(ctx, k, a.Token, suiteLease))
		if ss, ok := f.store.(idempotency.StepStore); ok {
			wantConflict(t, "SaveStep after Fail", ss.SaveStep(ctx, k, a.Token, "s", nil, suiteRetention))
		}
		if insp, ok := f.store.(idempotency.Inspector); ok {
			r, err := insp.Inspect(ctx, k)
			if err != nil || r.Status != idempotency.StatusFailed || r.Reason != "charge captured, order not written" || r.Token != a.Token {
				t.Fatalf("Inspect of a failed key: %+v %v", r, err)
			}
		}
		f.clock.Advance(suiteRetention / 2)
		wantStatus(t, claim(t, f.store, k, "owner-b", nil), idempotency.StatusFailed)
		noErr(t, "Retry", rs.Retry(ctx, k))
		if err := rs.Retry(ctx, k); !errors.Is(err, idempotency.ErrNotFailed) {
			t.Fatalf("Retry of a retried key: %v, want ErrNotFailed", err)
		}
		b := claim(t, f.store, k, "owner-b", nil)
		wantStatus(t, b, idempotency.StatusClaimed)
		if b.Token.Epoch <= a.Token.Epoch {
			t.Fatalf("epoch after Retry %d, want above %d", b.Token.Epoch, a.Token.Epoch)
		}
		if err := rs.Retry(ctx, k); !errors.Is(err, idempotency.ErrNotFailed) {
			t.Fatalf("Retry of a claimed key: %v, want ErrNotFailed", err)
		}
		if err := rs.Retry(ctx, f.key("never-claimed")); !errors.Is(err, idempotency.ErrNotFailed) {
			t.Fatalf("Retry of an unknown key: %v, want ErrNotFailed", err)
		}
		// A failed marker lasts its retention, then the key is free.
		k2 := f.key("k2")
		c := claim(t, f.store, k2, "owner-c", nil)
		noErr(t, "Fail", rs.Fail(ctx, k2, c.Token, suiteRetention, "reason"))
		f.clock.Advance(suiteRetention)
		wantStatus(t, claim(t, f.store, k2, "owner-d", nil), idempotency.StatusClaimed)
	}},

	// Invalid UTF-8 and NUL in an error's text do not stop the marker (PostgreSQL text
	// columns refuse them).
	{"AnyReason", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		reviewStore(t, f.store)
		m := NewMetrics()
		mw := f.middleware(f.store, m, idempotency.WithNeedsReviewReplay())
		j := job{Key: f.key("k"), Payload: "p"}
		bad := errors.New("bad \xff\xfe bytes\x00 and " + strings.Repeat("long ", 2000))
		if err := mw.Handle(ctx, j, func(context.Context, job) error { return idempotency.NeedsReview(bad) }); !errors.Is(err, bad) {
			t.Fatalf("marking: %v", err)
		}
		err := mw.Handle(ctx, j, nil)
		var nr *idempotency.NeedsReviewError
		if !errors.As(err, &nr) || !nr.Duplicate || !strings.HasPrefix(nr.Reason, "bad ") || len(nr.Reason) > 5000 {
			t.Fatalf("replayed: %v", err)
		}
	}},

	{"ThroughTheMiddleware", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		rs := reviewStore(t, f.store)
		insp := inspector(t, f.store)
		m := NewMetrics()
		errPartial := errors.New("charged but the order was not written")
		mw := f.middleware(f.store, m, idempotency.WithNeedsReview(func(err error) bool { return errors.Is(err, errPartial) }))
		replay := f.middleware(f.store, m, idempotency.WithNeedsReviewReplay())
		j := job{Key: f.key("k"), Payload: "p"}
		storeKey := idempotency.StoreKey(suiteHandler, j.Key)
		charges := 0
		handler := func(fail error) idempotency.HandlerFunc[job] {
			return func(ctx context.Context, _ job) error {
				if _, err := idempotency.Step(ctx, "charge", func(context.Context) (string, error) { charges++; return "ch_1", nil }); err != nil {
					return err
				}
				return fail
			}
		}
		err := mw.Handle(ctx, j, handler(fmt.Errorf("writing the order: %w", errPartial)))
		var nr *idempotency.NeedsReviewError
		if !errors.As(err, &nr) || !errors.Is(err, idempotency.ErrNeedsReview) || !errors.Is(err, errPartial) || !idempotency.IsPermanent(err) || nr.Duplicate || nr.KeyHash == "" {
			t.Fatalf("a delivery that asked for review returned %v, want a permanent *NeedsReviewError wrapping the handler's", err)
		}
		r, err := insp.Inspect(ctx, storeKey)
		if err != nil || r.Status != idempotency.StatusFailed || !strings.Contains(r.Reason, "order was not written") || string(r.Steps["charge"]) != `"ch_1"` {
			t.Fatalf("Inspect of the marked key: %+v %v", r, err)
		}

		// Later deliveries are acknowledged without running; with replay, given the failure.
		out, err := mw.HandleOutcome(ctx, j, func(context.Context, job) error { t.Error("a marked job ran"); return nil })
		if err != nil || out != idempotency.OutcomeNeedsReviewDuplicate {
			t.Fatalf("duplicate of a marked key: %q %v, want acknowledged as needs_review_duplicate", out, err)
		}
		err = replay.Handle(ctx, j, func(context.Context, job) error { t.Error("a marked job ran"); return nil })
		if !errors.As(err, &nr) || !nr.Duplicate || !strings.Contains(nr.Reason, "order was not written") || !idempotency.IsPermanent(err) || errors.Is(err, errPartial) {
			t.Fatalf("replayed duplicate: %v, want a permanent *NeedsReviewError with the stored reason", err)
		}
		// Even long after its first lease.
		f.clock.Advance(suiteRetention / 2)
		if out, err := mw.HandleOutcome(ctx, j, nil); err != nil || out != idempotency.OutcomeNeedsReviewDuplicate {
			t.Fatalf("duplicate later: %q %v", out, err)
		}

		// Retry lets the next delivery run, resuming after the recorded steps.
		noErr(t, "Retry", rs.Retry(ctx, storeKey))
		if err := mw.Handle(ctx, j, handler(nil)); err != nil || charges != 1 {
			t.Fatalf("after Retry: %v, %d charges; want the job run and its charge not repeated", err, charges)
		}
		// Forget drops the steps too: the job starts over.
		j2 := job{Key: f.key("k2"), Payload: "p"}
		if err := mw.Handle(ctx, j2, handler(idempotency.NeedsReview(errBoom))); !errors.Is(err, errBoom) {
			t.Fatalf("NeedsReview: %v", err)
		}
		noErr(t, "Forget", insp.Forget(ctx, idempotency.StoreKey(suiteHandler, j2.Key)))
		if err := mw.Handle(ctx, j2, handler(nil)); err != nil || charges != 3 {
			t.Fatalf("after Forget: %v, %d charges; want the charge run again", err, charges)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 4, idempotency.OutcomeNeedsReview: 2, idempotency.OutcomeNeedsReviewDuplicate: 3,
			idempotency.OutcomeCompleted: 2,
		})
	}},

	{"FailFaults", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		reviewStore(t, f.store)
		m := NewMetrics()
		faulty := NewFaultyStore(f.store)
		mw := f.middleware(faulty, m, idempotency.WithStoreTimeout(200*time.Millisecond))
		j := job{Key: f.key("k"), Payload: "p"}
		faulty.Inject(OpFail, LoseReply) // stored, reply lost: retried with the same token
		if err := mw.Handle(ctx, j, func(context.Context, job) error { return idempotency.NeedsReview(errBoom) }); !errors.Is(err, idempotency.ErrNeedsReview) || errors.Is(err, ErrInjected) {
			t.Fatalf("marking with a lost reply: %v", err)
		}
		if st := f.state(j.Key); st.Status != idempotency.StatusFailed {
			t.Fatalf("key is %s, want failed", st.Status)
		}
		j2 := job{Key: f.key("k2"), Payload: "p"}
		for range 3 {
			faulty.Inject(OpFail, FailBefore)
		}
		err := mw.Handle(ctx, j2, func(context.Context, job) error { return idempotency.NeedsReview(errBoom) })
		if !errors.Is(err, idempotency.ErrNeedsReview) || !errors.Is(err, ErrInjected) || !idempotency.IsPermanent(err) {
			t.Fatalf("marking that failed: %v, want the review error joined with the store's", err)
		}
		// Not marked: the claim blocks the key until its lease ends, then the job runs again.
		if st := f.state(j2.Key); st.Status != idempotency.StatusInProgress {
			t.Fatalf("key is %s, want the claim kept", st.Status)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 2, idempotency.OutcomeNeedsReview: 1, idempotency.OutcomeReleaseFailed: 1,
		})
	}},
}
