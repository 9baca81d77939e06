package idempotencytest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"go.opentelemetry.io/otel/attribute"
)

// NewStoreFunc returns a store for one test. The store must tell time by clock, so that the
// suite can expire leases and retentions without waiting. Stores may be shared between calls
// (a database table, a Redis server): the suite gives every test keys of its own.
type NewStoreFunc func(t *testing.T, clock idempotency.Clock) idempotency.Store

// Suite settings.
const (
	suiteLease     = time.Minute
	suiteRetention = time.Hour
	suiteHandler   = "suite" // the name (key namespace) of the suite's middlewares
	// claimAttempts is how many times the middleware asks for one claim when the store
	// fails: a fault that must reach the delivery is injected that many times.
	claimAttempts = 3
)

// TestStore runs the conformance suite against the stores newStore makes: the Store
// contract itself, every middleware outcome as counted on the metric, many workers racing on
// one key, a crash at each step of a delivery, recovery points (StepStore, with a crash at
// every step boundary) and failed markers (ReviewStore). A store that is not a StepStore or
// ReviewStore skips those cases. In -short mode the racing runs fewer
// trials.
func TestStore(t *testing.T, newStore NewStoreFunc) {
	t.Run("Contract", func(t *testing.T) { testContract(t, newStore) })
	t.Run("Outcomes", func(t *testing.T) { testOutcomes(t, newStore) })
	t.Run("ExactlyOnce", func(t *testing.T) { testExactlyOnce(t, newStore) })
	t.Run("CrashMatrix", func(t *testing.T) { testCrashMatrix(t, newStore) })
	t.Run("Robustness", func(t *testing.T) { testRobustness(t, newStore) })
	t.Run("Steps", func(t *testing.T) { testSteps(t, newStore) })
	t.Run("Review", func(t *testing.T) { testReview(t, newStore) })
}

// fixture is one test's store, clock and key space.
type fixture struct {
	t      *testing.T
	clock  *Clock
	store  idempotency.Store
	prefix string
}

func newFixture(t *testing.T, newStore NewStoreFunc) *fixture {
	t.Helper()
	clock := NewClock(time.Time{})
	var b [6]byte
	_, _ = rand.Read(b[:])
	return &fixture{
		t:      t,
		clock:  clock,
		store:  newStore(t, clock),
		prefix: "idemtest/" + hex.EncodeToString(b[:]) + "/" + t.Name() + "/",
	}
}

func (f *fixture) key(name string) string { return f.prefix + name }

// job is what the suite's middlewares handle: a key and a payload to fingerprint.
type job struct {
	Key     string
	Payload string
}

// middleware builds a middleware over store that counts into m.
func (f *fixture) middleware(store idempotency.Store, m *Metrics, opts ...idempotency.Option) *idempotency.Middleware[job] {
	f.t.Helper()
	base := []idempotency.Option{
		idempotency.WithStore(store),
		idempotency.WithName(suiteHandler),
		idempotency.WithRetention(suiteRetention),
		idempotency.WithLease(suiteLease),
		idempotency.WithMeterProvider(m.Provider),
		idempotency.WithLogger(slog.New(slog.DiscardHandler)),
		idempotency.WithFingerprint(func(j job) ([]byte, error) { return []byte(j.Payload), nil }),
	}
	mw, err := idempotency.New(func(j job) (string, error) { return j.Key, nil }, append(base, opts...)...)
	if err != nil {
		f.t.Fatalf("idempotency.New: %v", err)
	}
	return mw
}

// state reports the record of a job's key (as the suite's middlewares store it) as a claim
// by an outsider sees it, without taking a free key for long: a free key is claimed and
// released at once.
func (f *fixture) state(jobKey string) idempotency.ClaimResult {
	f.t.Helper()
	return f.stateRaw(idempotency.StoreKey(suiteHandler, jobKey))
}

// stateRaw is state for a key as the store keeps it.
func (f *fixture) stateRaw(key string) idempotency.ClaimResult {
	f.t.Helper()
	ctx := context.Background()
	res, err := f.store.Claim(ctx, idempotency.ClaimRequest{Key: key, Owner: "observer", Lease: suiteLease})
	if err != nil {
		f.t.Fatalf("observing %s: %v", key, err)
	}
	if res.Status == idempotency.StatusClaimed {
		if err := f.store.Release(ctx, key, res.Token); err != nil {
			f.t.Fatalf("releasing the observer's claim: %v", err)
		}
	}
	return res
}

func wantCounts(t *testing.T, m *Metrics, want map[idempotency.Outcome]int64) {
	t.Helper()
	got := m.Counts(t)
	for _, o := range idempotency.Outcomes {
		if got[o] != want[o] {
			t.Errorf("outcome %q counted %d times, want %d (all: %v)", o, got[o], want[o], got)
		}
	}
}

var errBoom = errors.New("handler failed")

// ---- the Store contract ----

func testContract(t *testing.T, newStore NewStoreFunc) { runCases(t, newStore, contractCases) }

// claim, wantStatus, wantConflict and noErr are the contract cases' assertions.
func claim(t *testing.T, s idempotency.Store, key, owner string, fp []byte) idempotency.ClaimResult {
	t.Helper()
	res, err := s.Claim(context.Background(), idempotency.ClaimRequest{Key: key, Owner: owner, Fingerprint: fp, Lease: suiteLease})
	if err != nil {
		t.Fatalf("Claim(%s): %v", owner, err)
	}
	return res
}

func wantStatus(t *testing.T, res idempotency.ClaimResult, want idempotency.Status) {
	t.Helper()
	if res.Status != want {
		t.Fatalf("status %s, want %s", res.Status, want)
	}
}

func wantConflict(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, idempotency.ErrConflict) {
		t.Fatalf("%s: got %v, want ErrConflict", what, err)
	}
}

func noErr(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// contractCases check the Store contract itself, one record at a time.
var contractCases = []suiteCase{
	{"Lifecycle", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		s, k := f.store, f.key("k")
		fpA := []byte("fingerprint-a")
		a := claim(t, s, k, "owner-a", fpA)
		wantStatus(t, a, idempotency.StatusClaimed)
		if a.Token.Owner != "owner-a" || a.Token.Epoch <= 0 {
			t.Fatalf("token %+v, want owner-a with a positive epoch", a.Token)
		}
		if a.ExpiresIn <= 0 || a.ExpiresIn > suiteLease {
			t.Fatalf("a new claim expires in %s, want (0, %s]", a.ExpiresIn, suiteLease)
		}

		b := claim(t, s, k, "owner-b", []byte("fingerprint-b"))
		wantStatus(t, b, idempotency.StatusInProgress)
		if b.Token != a.Token || string(b.Fingerprint) != string(fpA) {
			t.Fatalf("a held key reports holder %+v fingerprint %q, want %+v %q", b.Token, b.Fingerprint, a.Token, fpA)
		}
		if b.ExpiresIn <= 0 || b.ExpiresIn > suiteLease {
			t.Fatalf("held claim expires in %s, want (0, %s]", b.ExpiresIn, suiteLease)
		}

		f.clock.Advance(suiteLease / 2)
		half := claim(t, s, k, "owner-b", nil)
		if half.ExpiresIn > suiteLease/2 {
			t.Fatalf("after half the lease the claim expires in %s, want at most %s", half.ExpiresIn, suiteLease/2)
		}
		noErr(t, "Renew", s.Renew(ctx, k, a.Token, suiteLease))
		if renewed := claim(t, s, k, "owner-b", nil); renewed.ExpiresIn <= suiteLease/2 {
			t.Fatalf("after renewal the claim expires in %s, want more than %s", renewed.ExpiresIn, suiteLease/2)
		}
		wantConflict(t, "Renew by another owner", s.Renew(ctx, k, idempotency.Token{Owner: "owner-b", Epoch: a.Token.Epoch}, suiteLease))
		wantConflict(t, "Renew with another epoch", s.Renew(ctx, k, idempotency.Token{Owner: a.Token.Owner, Epoch: a.Token.Epoch + 1}, suiteLease))
		wantConflict(t, "Complete by another owner", s.Complete(ctx, k, idempotency.Token{Owner: "owner-b", Epoch: a.Token.Epoch}, suiteRetention))

		noErr(t, "Complete", s.Complete(ctx, k, a.Token, suiteRetention))
		noErr(t, "Complete repeated (a retry after a lost reply)", s.Complete(ctx, k, a.Token, suiteRetention))
		done := claim(t, s, k, "owner-b", nil)
		wantStatus(t, done, idempotency.StatusCompleted)
		if done.Token != a.Token || string(done.Fingerprint) != string(fpA) {
			t.Fatalf("completed key reports %+v %q, want %+v %q", done.Token, done.Fingerprint, a.Token, fpA)
		}
		if done.ExpiresIn <= suiteLease || done.ExpiresIn > suiteRetention {
			t.Fatalf("completion marker expires in %s, want (%s, %s]", done.ExpiresIn, suiteLease, suiteRetention)
		}
		wantConflict(t, "Renew after Complete", s.Renew(ctx, k, a.Token, suiteLease))
		wantConflict(t, "Release after Complete", s.Release(ctx, k, a.Token))
		wantStatus(t, claim(t, s, k, "owner-b", nil), idempotency.StatusCompleted)

		f.clock.Advance(suiteRetention - time.Millisecond)
		wantStatus(t, claim(t, s, k, "owner-b", nil), idempotency.StatusCompleted)
		f.clock.Advance(time.Millisecond)
		c := claim(t, s, k, "owner-c", nil)
		wantStatus(t, c, idempotency.StatusClaimed)
		if c.Token.Epoch <= a.Token.Epoch {
			t.Fatalf("epoch after the retention ran out is %d, want more than %d", c.Token.Epoch, a.Token.Epoch)
		}
		wantConflict(t, "Complete with the expired token", s.Complete(ctx, k, a.Token, suiteRetention))
	}},

	{"Release", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		s, k := f.store, f.key("k")
		a := claim(t, s, k, "owner-a", nil)
		noErr(t, "Release", s.Release(ctx, k, a.Token))
		noErr(t, "Release repeated", s.Release(ctx, k, a.Token))
		wantConflict(t, "Renew after Release", s.Renew(ctx, k, a.Token, suiteLease))
		wantConflict(t, "Complete after Release", s.Complete(ctx, k, a.Token, suiteRetention))
		// Released means free at once, with no clock movement.
		b := claim(t, s, k, "owner-b", nil)
		wantStatus(t, b, idempotency.StatusClaimed)
		if b.Token.Epoch <= a.Token.Epoch {
			t.Fatalf("epoch after release is %d, want more than %d", b.Token.Epoch, a.Token.Epoch)
		}
		wantConflict(t, "Release by the previous holder", s.Release(ctx, k, a.Token))
		wantConflict(t, "Release by a stranger", s.Release(ctx, k, idempotency.Token{Owner: "stranger", Epoch: b.Token.Epoch}))
		wantConflict(t, "Release of an unknown key", s.Release(ctx, f.key("never-claimed"), b.Token))
		wantStatus(t, claim(t, s, k, "owner-c", nil), idempotency.StatusInProgress)
	}},

	{"LeaseExpiry", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		s, k := f.store, f.key("k")
		a := claim(t, s, k, "owner-a", nil)
		f.clock.Advance(suiteLease - time.Millisecond)
		wantStatus(t, claim(t, s, k, "owner-b", nil), idempotency.StatusInProgress)
		f.clock.Advance(time.Millisecond)
		b := claim(t, s, k, "owner-b", nil)
		wantStatus(t, b, idempotency.StatusClaimed)
		if b.Token.Epoch <= a.Token.Epoch {
			t.Fatalf("takeover epoch %d, want more than %d", b.Token.Epoch, a.Token.Epoch)
		}
		// The fenced worker can do nothing with its old token.
		wantConflict(t, "Renew by the fenced worker", s.Renew(ctx, k, a.Token, suiteLease))
		wantConflict(t, "Complete by the fenced worker", s.Complete(ctx, k, a.Token, suiteRetention))
		wantConflict(t, "Release by the fenced worker", s.Release(ctx, k, a.Token))
		noErr(t, "Complete by the new holder", s.Complete(ctx, k, b.Token, suiteRetention))
	}},

	// A renewal moves the lease on: past the end of the lease it was claimed with, the claim
	// still holds, and lasts until the renewed lease ends (stores may keep the renewed lease
	// apart from the claim, as sqlstore does on PostgreSQL).
	{"RenewedPastTheFirstLease", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		s, k := f.store, f.key("k")
		a := claim(t, s, k, "owner-a", nil)
		f.clock.Advance(suiteLease * 3 / 4)
		noErr(t, "Renew", s.Renew(ctx, k, a.Token, suiteLease))
		f.clock.Advance(suiteLease / 2) // past the first lease, within the renewed one
		held := claim(t, s, k, "owner-b", nil)
		wantStatus(t, held, idempotency.StatusInProgress)
		if held.Token != a.Token || held.ExpiresIn <= 0 || held.ExpiresIn > suiteLease/2 {
			t.Fatalf("renewed claim: holder %+v expires in %s, want %+v for another (0, %s]", held.Token, held.ExpiresIn, a.Token, suiteLease/2)
		}
		noErr(t, "Renew again", s.Renew(ctx, k, a.Token, suiteLease))
		f.clock.Advance(suiteLease - time.Millisecond)
		wantStatus(t, claim(t, s, k, "owner-b", nil), idempotency.StatusInProgress)
		f.clock.Advance(time.Millisecond)
		b := claim(t, s, k, "owner-b", nil)
		wantStatus(t, b, idempotency.StatusClaimed)
		wantConflict(t, "Renew by the holder whose renewed lease ran out", s.Renew(ctx, k, a.Token, suiteLease))
		wantConflict(t, "Complete by the holder whose renewed lease ran out", s.Complete(ctx, k, a.Token, suiteRetention))
		noErr(t, "Renew by the new holder", s.Renew(ctx, k, b.Token, suiteLease))
		noErr(t, "Complete by the new holder", s.Complete(ctx, k, b.Token, suiteRetention))
	}},

	{"EpochsGrow", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		s, k := f.store, f.key("k")
		var last int64
		for i := range 6 {
			r := claim(t, s, k, fmt.Sprintf("owner-%d", i), nil)
			wantStatus(t, r, idempotency.StatusClaimed)
			if r.Token.Epoch <= last {
				t.Fatalf("round %d: epoch %d, want more than %d", i, r.Token.Epoch, last)
			}
			last = r.Token.Epoch
			if i%2 == 0 {
				noErr(t, "Release", s.Release(ctx, k, r.Token)) // same clock reading next round
			} else {
				f.clock.Advance(suiteLease)
			}
		}
	}},

	{"KeysAreDistinct", func(t *testing.T, f *fixture) {
		names := []string{"a", "a ", "A", "ключ-🔑", "glob*?[x]", "quote'\"\\", "colon:key:1", strings.Repeat("long", 200)}
		for _, n := range names {
			r := claim(t, f.store, f.key(n), "owner", nil)
			if r.Status != idempotency.StatusClaimed {
				t.Errorf("key %q: status %s, want claimed (keys must not collide)", n, r.Status)
			}
		}
	}},

	{"NoFingerprint", func(t *testing.T, f *fixture) {
		claim(t, f.store, f.key("k"), "owner-a", nil)
		if r := claim(t, f.store, f.key("k"), "owner-b", nil); len(r.Fingerprint) != 0 {
			t.Fatalf("fingerprint %q, want none", r.Fingerprint)
		}
	}},

	{"ConcurrentClaims", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		const claimers = 8
		for trial := range 50 {
			k := f.key(fmt.Sprint(trial))
			results := make([]idempotency.ClaimResult, claimers)
			errs := make([]error, claimers)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range claimers {
				wg.Go(func() {
					<-start
					results[i], errs[i] = f.store.Claim(ctx, idempotency.ClaimRequest{Key: k, Owner: fmt.Sprint("owner-", i), Lease: suiteLease})
				})
			}
			close(start)
			wg.Wait()
			var winner *idempotency.ClaimResult
			for i := range results {
				if errs[i] != nil {
					t.Fatalf("trial %d: Claim: %v", trial, errs[i])
				}
				if results[i].Status == idempotency.StatusClaimed {
					if winner != nil {
						t.Fatalf("trial %d: two owners claimed one key: %+v and %+v", trial, winner.Token, results[i].Token)
					}
					winner = &results[i]
				}
			}
			if winner == nil {
				t.Fatalf("trial %d: nobody claimed a free key", trial)
			}
			for i := range results {
				if results[i].Status != idempotency.StatusClaimed && results[i].Token != winner.Token {
					t.Fatalf("trial %d: a loser sees holder %+v, want %+v", trial, results[i].Token, winner.Token)
				}
			}
		}
	}},
}

// ---- every outcome, on the metric ----

func testOutcomes(t *testing.T, newStore NewStoreFunc) { runCases(t, newStore, outcomeCases) }

// outcomeCases check every middleware outcome, as counted on the metric.
var outcomeCases = []suiteCase{
	{"ClaimedCompletedDuplicate", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		mw := f.middleware(f.store, m)
		j := job{Key: f.key("k"), Payload: "p"}
		var runs atomic.Int32
		h := func(context.Context, job) error { runs.Add(1); return nil }
		for range 3 {
			if err := mw.Handle(ctx, j, h); err != nil {
				t.Fatalf("Handle: %v", err)
			}
		}
		if runs.Load() != 1 {
			t.Fatalf("handler ran %d times, want 1", runs.Load())
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 1, idempotency.OutcomeCompleted: 1, idempotency.OutcomeCompletedDuplicate: 2,
		})
		if st := f.state(j.Key); st.Status != idempotency.StatusCompleted {
			t.Fatalf("key is %s after success, want completed", st.Status)
		}
	}},

	inProgressDuplicateCase(inProgressPolicyCase{"RetryLater", idempotency.RetryLater()}),
	inProgressDuplicateCase(inProgressPolicyCase{"Skip", idempotency.SkipDuplicate()}),

	{"Released", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		mw := f.middleware(f.store, m)
		j := job{Key: f.key("k"), Payload: "p"}
		err := mw.Handle(ctx, j, func(context.Context, job) error { return errBoom })
		if !errors.Is(err, errBoom) {
			t.Fatalf("Handle returned %v, want the handler's error", err)
		}
		// Released: a retry runs at once.
		ran := false
		if err := mw.Handle(ctx, j, func(context.Context, job) error { ran = true; return nil }); err != nil || !ran {
			t.Fatalf("retry after release: err %v, ran %v; want it to run", err, ran)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 2, idempotency.OutcomeReleased: 1, idempotency.OutcomeCompleted: 1,
		})
	}},

	{"KeptClaim", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		mw := f.middleware(f.store, m, idempotency.WithKeepClaimOn(func(err error) bool { return errors.Is(err, errBoom) }))
		j := job{Key: f.key("k"), Payload: "p"}
		if err := mw.Handle(ctx, j, func(context.Context, job) error { return errBoom }); !errors.Is(err, errBoom) {
			t.Fatalf("Handle returned %v, want the handler's error", err)
		}
		if err := mw.Handle(ctx, j, func(context.Context, job) error { return nil }); !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("retry within the kept claim's lease returned %v, want ErrInProgress", err)
		}
		f.clock.Advance(suiteLease)
		if err := mw.Handle(ctx, j, func(context.Context, job) error { return nil }); err != nil {
			t.Fatalf("retry after the lease: %v", err)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 2, idempotency.OutcomeKept: 1, idempotency.OutcomeInProgressDuplicate: 1, idempotency.OutcomeCompleted: 1,
		})
	}},

	{"CompleteConflict", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		zombie, other := f.middleware(f.store, m), f.middleware(f.store, m)
		j := job{Key: f.key("k"), Payload: "p"}
		running, finish := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- zombie.Handle(ctx, j, func(context.Context, job) error { close(running); <-finish; return nil })
		}()
		<-running
		f.clock.Advance(suiteLease) // the zombie's lease runs out without renewal reaching the store
		var taker idempotency.Token
		if err := other.Handle(ctx, j, func(ctx context.Context, _ job) error {
			c, _ := idempotency.ClaimFromContext(ctx)
			taker = c.Token
			return nil
		}); err != nil {
			t.Fatalf("takeover: %v", err)
		}
		close(finish)
		err := <-done
		var cc *idempotency.CompleteConflictError
		if !errors.As(err, &cc) || !errors.Is(err, idempotency.ErrConflict) || !idempotency.IsPermanent(err) {
			t.Fatalf("zombie returned %v, want a permanent *CompleteConflictError", err)
		}
		if cc.Token.Epoch >= taker.Epoch || cc.KeyHash != idempotency.StoreKey(suiteHandler, j.Key)[:16] {
			t.Fatalf("conflict reports %+v key hash %s; want an epoch below the taker's %d and the key's hash", cc.Token, cc.KeyHash, taker.Epoch)
		}
		if st := f.state(j.Key); st.Status != idempotency.StatusCompleted || st.Token != taker {
			t.Fatalf("key is %s by %+v, want completed by the taker %+v", st.Status, st.Token, taker)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 2, idempotency.OutcomeCompleted: 1, idempotency.OutcomeCompleteConflict: 1,
		})
	}},

	{"EmptyKey", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		reject := f.middleware(f.store, m)
		ran := false
		err := reject.Handle(ctx, job{}, func(context.Context, job) error { ran = true; return nil })
		if !errors.Is(err, idempotency.ErrEmptyKey) || !idempotency.IsPermanent(err) || ran {
			t.Fatalf("empty key: err %v, ran %v; want a permanent ErrEmptyKey without running", err, ran)
		}
		open := f.middleware(f.store, m, idempotency.WithEmptyKey(idempotency.RunUnprotected))
		if err := open.Handle(ctx, job{}, func(context.Context, job) error { ran = true; return nil }); err != nil || !ran {
			t.Fatalf("empty key run unprotected: err %v, ran %v", err, ran)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{idempotency.OutcomeEmptyKey: 2})
		outcome := attribute.String(idempotency.AttrOutcome, string(idempotency.OutcomeEmptyKey))
		for _, p := range []idempotency.EmptyKeyPolicy{idempotency.RejectEmptyKey, idempotency.RunUnprotected} {
			if n := m.CountWith(t, outcome, attribute.String(idempotency.AttrPolicy, p.String())); n != 1 {
				t.Errorf("empty_key with policy %s counted %d times, want 1", p, n)
			}
		}
	}},

	{"FingerprintMismatch", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		mw := f.middleware(f.store, m)
		ran := 0
		h := func(context.Context, job) error { ran++; return nil }
		done := job{Key: f.key("done"), Payload: "first"}
		if err := mw.Handle(ctx, done, h); err != nil {
			t.Fatal(err)
		}
		var fm *idempotency.FingerprintMismatchError
		err := mw.Handle(ctx, job{Key: done.Key, Payload: "second"}, h)
		if !errors.As(err, &fm) || fm.Status != idempotency.StatusCompleted || !idempotency.IsPermanent(err) {
			t.Fatalf("same key, other payload after completion: %v; want a permanent *FingerprintMismatchError", err)
		}
		if err := mw.Handle(ctx, done, h); err != nil {
			t.Fatalf("same key, same payload: %v; want an acknowledged duplicate", err)
		}

		running, finish := make(chan struct{}), make(chan struct{})
		busy := job{Key: f.key("busy"), Payload: "first"}
		first := make(chan error, 1)
		go func() {
			first <- mw.Handle(ctx, busy, func(context.Context, job) error { close(running); <-finish; return nil })
		}()
		<-running
		err = mw.Handle(ctx, job{Key: busy.Key, Payload: "second"}, h)
		if !errors.As(err, &fm) || fm.Status != idempotency.StatusInProgress {
			t.Fatalf("same key, other payload while in progress: %v; want a *FingerprintMismatchError", err)
		}
		close(finish)
		if err := <-first; err != nil {
			t.Fatal(err)
		}
		if ran != 1 {
			t.Fatalf("handler ran %d times through the mismatches, want 1", ran)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 2, idempotency.OutcomeCompleted: 2,
			idempotency.OutcomeCompletedDuplicate: 1, idempotency.OutcomeFingerprintMismatch: 2,
		})
	}},

	{"ReleaseAfterJobContextCancelled", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		mw := f.middleware(f.store, m)
		j := job{Key: f.key("k"), Payload: "p"}
		jobCtx, cancel := context.WithCancel(ctx)
		err := mw.Handle(jobCtx, j, func(ctx context.Context, _ job) error {
			cancel() // the queue gives up on the job (shutdown, timeout)
			<-ctx.Done()
			return ctx.Err()
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Handle returned %v, want context.Canceled", err)
		}
		if st := f.state(j.Key); st.Status != idempotency.StatusClaimed {
			t.Fatalf("key is %s after a cancelled job, want it released (claimable)", st.Status)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{idempotency.OutcomeClaimed: 1, idempotency.OutcomeReleased: 1})
	}},

	{"ReleaseErrorJoined", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		faulty := NewFaultyStore(f.store)
		mw := f.middleware(faulty, m)
		faulty.Inject(OpRelease, FailBefore)
		faulty.Inject(OpRelease, FailBefore)
		j := job{Key: f.key("k"), Payload: "p"}
		err := mw.Handle(ctx, j, func(context.Context, job) error { return errBoom })
		if !errors.Is(err, errBoom) || !errors.Is(err, ErrInjected) {
			t.Fatalf("Handle returned %v, want the handler's error joined with the release error", err)
		}
		if got := m.StoreErrors(t, "release"); got != 1 {
			t.Fatalf("release errors counted %d, want 1", got)
		}
		// The claim stays until its lease ends, and no longer.
		if st := f.state(j.Key); st.Status != idempotency.StatusInProgress {
			t.Fatalf("key is %s, want still in progress", st.Status)
		}
		f.clock.Advance(suiteLease)
		if err := mw.Handle(ctx, j, func(context.Context, job) error { return nil }); err != nil {
			t.Fatalf("retry after the lease: %v", err)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{idempotency.OutcomeClaimed: 2, idempotency.OutcomeReleaseFailed: 1, idempotency.OutcomeCompleted: 1})
	}},

	{"ClaimError", func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		faulty := NewFaultyStore(f.store)
		mw := f.middleware(faulty, m)
		for range claimAttempts {
			faulty.Inject(OpClaim, FailBefore)
		}
		ran := false
		err := mw.Handle(ctx, job{Key: f.key("k"), Payload: "p"}, func(context.Context, job) error { ran = true; return nil })
		if !errors.Is(err, ErrInjected) || ran || idempotency.IsPermanent(err) {
			t.Fatalf("claim failure: err %v, ran %v; want a retryable error and no run", err, ran)
		}
		if got := m.StoreErrors(t, "claim"); got != 1 {
			t.Fatalf("claim errors counted %d, want 1", got)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{})
	}},

	completeFaultCase(faultCase{"ErrorAfterCommit", FailAfter}),
	completeFaultCase(faultCase{"LostReply", LoseReply}),
	claimFaultCase(faultCase{"ErrorAfterCommit", FailAfter}),
	claimFaultCase(faultCase{"LostReply", LoseReply}),
}

// claimFaultCase: the store took the claim but its reply was lost (#32 item 13). The claim
// is asked again by the same owner, which the store hands back, so the job runs now instead
// of its key staying blocked for a whole lease.
func claimFaultCase(kind faultCase) suiteCase {
	return suiteCase{"Claim" + kind.name, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		faulty := NewFaultyStore(f.store)
		mw := f.middleware(faulty, m, idempotency.WithStoreTimeout(200*time.Millisecond))
		faulty.Inject(OpClaim, kind.kind)
		j := job{Key: f.key("k"), Payload: "p"}
		runs := 0
		if err := mw.Handle(ctx, j, func(context.Context, job) error { runs++; return nil }); err != nil || runs != 1 {
			t.Fatalf("Handle: %v, %d runs; want the claim retried and the job run once", err, runs)
		}
		if n := faulty.Calls(OpClaim); n != 2 {
			t.Fatalf("claim called %d times, want 2 (one lost, one retried)", n)
		}
		if st := f.state(j.Key); st.Status != idempotency.StatusCompleted {
			t.Fatalf("key is %s, want completed", st.Status)
		}
		if n := m.StoreErrors(t, "claim"); n != 0 {
			t.Fatalf("claim errors counted %d, want none: the retry succeeded", n)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{idempotency.OutcomeClaimed: 1, idempotency.OutcomeCompleted: 1})
	}}
}

type inProgressPolicyCase struct {
	name   string
	policy idempotency.InProgressPolicy
}

func inProgressDuplicateCase(policy inProgressPolicyCase) suiteCase {
	return suiteCase{"InProgressDuplicate" + policy.name, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		mw := f.middleware(f.store, m, idempotency.WithInProgress(policy.policy))
		j := job{Key: f.key("k"), Payload: "p"}
		running, finish := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- mw.Handle(ctx, j, func(context.Context, job) error { close(running); <-finish; return nil })
		}()
		<-running
		ran := false
		err := mw.Handle(ctx, j, func(context.Context, job) error { ran = true; return nil })
		if ran {
			t.Fatal("a duplicate ran while the first delivery was in progress")
		}
		var ip *idempotency.InProgressError
		switch policy.name {
		case "RetryLater":
			if !errors.As(err, &ip) || !errors.Is(err, idempotency.ErrInProgress) {
				t.Fatalf("duplicate returned %v, want an *InProgressError", err)
			}
			if ip.RetryAfter != suiteLease/10 {
				t.Fatalf("RetryAfter %s, want the default delay, a tenth of the %s lease", ip.RetryAfter, suiteLease)
			}
			if idempotency.IsPermanent(err) {
				t.Fatal("an in-progress duplicate must be retryable")
			}
		case "Skip":
			if err != nil {
				t.Fatalf("skipped duplicate returned %v, want nil", err)
			}
		}
		close(finish)
		if err := <-done; err != nil {
			t.Fatalf("first delivery: %v", err)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{
			idempotency.OutcomeClaimed: 1, idempotency.OutcomeCompleted: 1, idempotency.OutcomeInProgressDuplicate: 1,
		})
	}}
}

type faultCase struct {
	name string
	kind FaultKind
}

func completeFaultCase(kind faultCase) suiteCase {
	return suiteCase{"Complete" + kind.name, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		m := NewMetrics()
		faulty := NewFaultyStore(f.store)
		mw := f.middleware(faulty, m, idempotency.WithStoreTimeout(200*time.Millisecond))
		faulty.Inject(OpComplete, kind.kind)
		j := job{Key: f.key("k"), Payload: "p"}
		if err := mw.Handle(ctx, j, func(context.Context, job) error { return nil }); err != nil {
			t.Fatalf("Handle: %v; want the completion retried to success", err)
		}
		if n := faulty.Calls(OpComplete); n != 2 {
			t.Fatalf("complete called %d times, want 2 (one lost, one retried)", n)
		}
		if st := f.state(j.Key); st.Status != idempotency.StatusCompleted {
			t.Fatalf("key is %s, want completed", st.Status)
		}
		wantCounts(t, m, map[idempotency.Outcome]int64{idempotency.OutcomeClaimed: 1, idempotency.OutcomeCompleted: 1})
	}}
}

// ---- many workers, one key ----

func testExactlyOnce(t *testing.T, newStore NewStoreFunc) {
	f := newFixture(t, newStore)
	m := NewMetrics()
	const (
		workers   = 8
		instances = 3
	)
	trials := 2000
	if testing.Short() {
		trials = 200
	}
	mws := make([]*idempotency.Middleware[job], instances)
	for i := range mws {
		mws[i] = f.middleware(f.store, m)
	}
	ctx := context.Background()
	// One trial: workers race through middleware instances on a fresh key. In every other
	// trial the first run fails, so the claim is released and retaken mid-race.
	trial := func(n int) error {
		j := job{Key: f.key(fmt.Sprint(n)), Payload: "p"}
		failFirst := n%2 == 0
		var runs, successes, active, overlaps atomic.Int32
		handler := func(context.Context, job) error {
			if active.Add(1) > 1 {
				overlaps.Add(1)
			}
			defer active.Add(-1)
			if runs.Add(1) == 1 && failFirst {
				return errBoom
			}
			successes.Add(1)
			return nil
		}
		var wg sync.WaitGroup
		var failure atomic.Pointer[error]
		start := make(chan struct{})
		for w := range workers {
			mw := mws[w%instances]
			wg.Go(func() {
				<-start
				// A worker is a queue redelivering until the delivery is acknowledged.
				for attempt := 0; ; attempt++ {
					err := mw.Handle(ctx, j, handler)
					switch {
					case err == nil:
						return
					case errors.Is(err, idempotency.ErrInProgress), errors.Is(err, errBoom):
						if attempt > 100000 {
							failure.Store(&err)
							return
						}
						time.Sleep(500 * time.Microsecond)
					default:
						failure.Store(&err)
						return
					}
				}
			})
		}
		close(start)
		wg.Wait()
		if p := failure.Load(); p != nil {
			return fmt.Errorf("trial %d: a worker failed: %w", n, *p)
		}
		wantRuns := int32(1)
		if failFirst {
			wantRuns = 2
		}
		if successes.Load() != 1 || runs.Load() != wantRuns || overlaps.Load() != 0 {
			return fmt.Errorf("trial %d: %d successful runs of %d, %d overlapping; want exactly 1 success in %d runs, never overlapping",
				n, successes.Load(), runs.Load(), overlaps.Load(), wantRuns)
		}
		return nil
	}
	// A few trials at a time keep a remote store busy while each waits on round trips.
	const parallel = 4
	next := make(chan int)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for n := range next {
				if err := trial(n); err != nil && !failed.Swap(true) {
					t.Error(err)
				}
			}
		})
	}
	for n := 0; n < trials && !failed.Load(); n++ {
		next <- n
	}
	close(next)
	wg.Wait()
	if failed.Load() {
		return
	}
	counts := m.Counts(t)
	failing := int64((trials + 1) / 2)
	if counts[idempotency.OutcomeCompleted] != int64(trials) || counts[idempotency.OutcomeReleased] != failing ||
		counts[idempotency.OutcomeClaimed] != int64(trials)+failing {
		t.Fatalf("counts %v; want %d completed, %d released, %d claimed", counts, trials, failing, int64(trials)+failing)
	}
	if counts[idempotency.OutcomeCompletedDuplicate] < int64(trials*(workers-1)) {
		t.Fatalf("completed_duplicate counted %d, want at least %d (every other worker's last delivery)",
			counts[idempotency.OutcomeCompletedDuplicate], trials*(workers-1))
	}
}

// ---- a crash at each step of a delivery ----

// testCrashMatrix stops worker A at one step of a delivery (it crashes, or freezes and later
// comes back as a zombie) and lets worker B deliver the same job again. Every case checks
// that the completion is not lost, that a stale claim blocks the key only until its lease
// ends, and that a zombie cannot overwrite B's completion.
func testCrashMatrix(t *testing.T, newStore NewStoreFunc) {
	ctx := context.Background()
	type world struct {
		*fixture
		m       *Metrics
		faulty  *FaultyStore
		a, b    *idempotency.Middleware[job]
		j       job
		effects atomic.Int32
	}
	setup := func(t *testing.T) *world {
		f := newFixture(t, newStore)
		w := &world{fixture: f, m: NewMetrics(), faulty: NewFaultyStore(f.store)}
		w.a = f.middleware(w.faulty, w.m)
		w.b = f.middleware(f.store, w.m)
		w.j = job{Key: f.key("k"), Payload: "p"}
		return w
	}
	effect := func(w *world) idempotency.HandlerFunc[job] {
		return func(context.Context, job) error { w.effects.Add(1); return nil }
	}
	// redeliver is the queue delivering the job to B: within A's lease B must defer it, after
	// the lease B must run it.
	redeliver := func(t *testing.T, w *world) idempotency.Token {
		t.Helper()
		if err := w.b.Handle(ctx, w.j, effect(w)); !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("redelivery within A's lease returned %v, want ErrInProgress", err)
		}
		w.clock.Advance(suiteLease)
		var tok idempotency.Token
		if err := w.b.Handle(ctx, w.j, func(ctx context.Context, j job) error {
			c, _ := idempotency.ClaimFromContext(ctx)
			tok = c.Token
			return effect(w)(ctx, j)
		}); err != nil {
			t.Fatalf("redelivery after A's lease: %v", err)
		}
		return tok
	}
	completedBy := func(t *testing.T, w *world, tok idempotency.Token) {
		t.Helper()
		st := w.state(w.j.Key)
		if st.Status != idempotency.StatusCompleted || (tok != idempotency.Token{} && st.Token != tok) {
			t.Fatalf("key is %s by %+v, want completed by %+v", st.Status, st.Token, tok)
		}
		if err := w.b.Handle(ctx, w.j, effect(w)); err != nil {
			t.Fatalf("a later duplicate returned %v, want it acknowledged", err)
		}
	}
	wantEffects := func(t *testing.T, w *world, n int32) {
		t.Helper()
		if got := w.effects.Load(); got != n {
			t.Fatalf("the side effect ran %d times, want %d", got, n)
		}
	}
	// background runs A's delivery in a goroutine and returns its result channel.
	background := func(w *world, h idempotency.HandlerFunc[job]) <-chan error {
		done := make(chan error, 1)
		go func() { done <- w.a.Handle(ctx, w.j, h) }()
		return done
	}

	t.Run("BeforeClaim", func(t *testing.T) {
		w := setup(t)
		for range claimAttempts {
			w.faulty.Inject(OpClaim, FailBefore)
		}
		if err := w.a.Handle(ctx, w.j, effect(w)); !errors.Is(err, ErrInjected) {
			t.Fatalf("A returned %v, want the claim failure", err)
		}
		// Nothing was claimed, so B runs at once.
		if err := w.b.Handle(ctx, w.j, effect(w)); err != nil {
			t.Fatalf("redelivery: %v", err)
		}
		completedBy(t, w, idempotency.Token{})
		wantEffects(t, w, 1)
	})

	t.Run("AfterClaim", func(t *testing.T) {
		w := setup(t)
		for range claimAttempts { // claimed in the store, and each retry too; then A died
			w.faulty.Inject(OpClaim, FailAfter)
		}
		if err := w.a.Handle(ctx, w.j, effect(w)); !errors.Is(err, ErrInjected) {
			t.Fatalf("A returned %v, want the claim failure", err)
		}
		completedBy(t, w, redeliver(t, w))
		wantEffects(t, w, 1)
	})

	t.Run("MidHandler", func(t *testing.T) {
		w := setup(t)
		frozen, thaw := make(chan struct{}), make(chan struct{})
		done := background(w, func(ctx context.Context, j job) error {
			close(frozen)
			<-thaw // A freezes before its effect, then comes back as a zombie and does it
			return effect(w)(ctx, j)
		})
		<-frozen
		tok := redeliver(t, w)
		close(thaw)
		if err := <-done; !errors.Is(err, idempotency.ErrConflict) {
			t.Fatalf("zombie A returned %v, want a complete conflict", err)
		}
		completedBy(t, w, tok)
		wantEffects(t, w, 2) // the zombie's own effect is not undone: the documented limit
		if n := w.m.Count(t, idempotency.OutcomeCompleteConflict); n != 1 {
			t.Fatalf("complete_conflict counted %d times, want 1", n)
		}
	})

	t.Run("AfterEffect", func(t *testing.T) {
		w := setup(t)
		frozen, thaw := make(chan struct{}), make(chan struct{})
		done := background(w, func(ctx context.Context, j job) error {
			_ = effect(w)(ctx, j)
			close(frozen)
			<-thaw
			return errBoom // A crashed after its effect; it never reports success
		})
		<-frozen
		tok := redeliver(t, w)
		close(thaw)
		if err := <-done; !errors.Is(err, errBoom) {
			t.Fatalf("A returned %v, want its own error", err)
		}
		// A's release came too late: it must not undo B's completion.
		completedBy(t, w, tok)
		wantEffects(t, w, 2) // the crash window the middleware cannot close
		if n := w.m.Count(t, idempotency.OutcomeReleased); n != 0 {
			t.Fatalf("released counted %d times; a fenced worker must not release", n)
		}
	})

	t.Run("BeforeComplete", func(t *testing.T) {
		w := setup(t)
		pause := w.faulty.Inject(OpComplete, PauseBefore)
		done := background(w, effect(w))
		<-pause.Reached()
		tok := redeliver(t, w)
		pause.Resume()
		var cc *idempotency.CompleteConflictError
		if err := <-done; !errors.As(err, &cc) {
			t.Fatalf("zombie A returned %v, want a *CompleteConflictError", err)
		}
		completedBy(t, w, tok)
		wantEffects(t, w, 2)
	})

	t.Run("AfterComplete", func(t *testing.T) {
		w := setup(t)
		pause := w.faulty.Inject(OpComplete, PauseAfter)
		done := background(w, effect(w))
		<-pause.Reached()
		// The completion is stored though A has not returned: a redelivery is acknowledged.
		if err := w.b.Handle(ctx, w.j, effect(w)); err != nil {
			t.Fatalf("redelivery after A's completion: %v", err)
		}
		pause.Resume()
		if err := <-done; err != nil {
			t.Fatalf("A: %v", err)
		}
		completedBy(t, w, idempotency.Token{})
		wantEffects(t, w, 1)
	})

	t.Run("ReleaseLost", func(t *testing.T) {
		w := setup(t)
		pause := w.faulty.Inject(OpRelease, PauseBefore) // A dies while releasing
		done := background(w, func(context.Context, job) error { return errBoom })
		<-pause.Reached()
		tok := redeliver(t, w)
		pause.Resume()
		if err := <-done; !errors.Is(err, errBoom) {
			t.Fatalf("A returned %v, want its own error", err)
		}
		completedBy(t, w, tok)
		wantEffects(t, w, 1)
	})

	t.Run("ReleaseErrorAfterCommit", func(t *testing.T) {
		w := setup(t)
		w.faulty.Inject(OpRelease, FailAfter)
		if err := w.a.Handle(ctx, w.j, func(context.Context, job) error { return errBoom }); !errors.Is(err, errBoom) || errors.Is(err, ErrInjected) {
			t.Fatalf("A returned %v, want only its own error (the retried release succeeds)", err)
		}
		if n := w.m.Count(t, idempotency.OutcomeReleased); n != 1 {
			t.Fatalf("released counted %d times, want 1", n)
		}
		// Released: B runs at once.
		if err := w.b.Handle(ctx, w.j, effect(w)); err != nil {
			t.Fatalf("redelivery: %v", err)
		}
		completedBy(t, w, idempotency.Token{})
		wantEffects(t, w, 1)
	})
}
