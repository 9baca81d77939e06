package idempotency

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Claim describes the claim a handler runs under. The handler's context carries it.
type Claim struct {
	// Key is the key as the key function gave it.
	Key string
	// StoreKey is what the store keeps for it: the key namespaced by the handler and hashed
	// (see StoreKey). Transactional stores write their marker under it.
	StoreKey  string
	Token     Token
	Retention time.Duration
	// Result is what the handler kept with SetResult so far; transactional stores write it
	// with the marker (CompleteInTx).
	Result []byte
}

type claimKey struct{}

// ClaimFromContext returns the claim that the handler owning ctx runs under. Its Token.Epoch
// can fence writes to systems that compare numbers; transactional stores use the whole claim.
func ClaimFromContext(ctx context.Context) (Claim, bool) {
	st, ok := ctx.Value(claimKey{}).(*claimState)
	if !ok {
		return Claim{}, false
	}
	return st.claim, true
}

// CompleteInTx is for stores that offer transactional completion (see
// sqlstore.Store.CompleteTx); handlers call the store's method, not this. It finds the claim
// that ctx's handler runs under and calls write, which must store the completion marker inside
// the handler's own transaction and fail with an error matching ErrConflict if the claim is no
// longer held. On success the middleware will not write the marker again after the handler
// returns, and stops renewing the claim, whose row the transaction may now lock. A conflict is
// remembered, so the delivery ends as complete_conflict whatever the handler returns.
//
// Under the RunUnprotected empty-key policy there is no claim: CompleteInTx then does nothing,
// so the handler's transaction still commits. Outside a handler run by the middleware it fails
// with ErrNoDelivery.
func CompleteInTx(ctx context.Context, write func(Claim) error) error {
	var st *claimState
	switch v := ctx.Value(claimKey{}).(type) {
	case *claimState:
		st = v
	case unprotected:
		return nil
	default:
		return fmt.Errorf("idempotency: CompleteInTx: %w", ErrNoDelivery)
	}
	c := st.claim
	c.Result = st.resultBytes()
	err := write(c)
	switch {
	case err == nil:
		st.completedInTx.Store(true)
		st.stopRenewal()
	case errors.Is(err, ErrConflict):
		// Kept so that the delivery's *CompleteConflictError matches ErrConflict whatever the
		// handler returns after it (defect 10).
		st.conflictErr.Store(&err)
	}
	return err
}

// ErrNotInTx is returned by a RenewInTx function once the handler's transaction has ended:
// the middleware then renews on the store again.
var ErrNotInTx = errors.New("idempotency: the handler's transaction has ended")

// RenewInTx is for stores whose renewals would wait behind the handler's own transaction
// (SQLite, with its one writer; see sqlstore.Store.BeginTx); handlers call the store's
// method, not this. From now on the claim's renewals call renew, which must extend the lease
// inside the handler's transaction, until renew returns ErrNotInTx; its ctx carries the
// store timeout. Outside a handler run by the middleware it fails; under RunUnprotected it
// does nothing.
func RenewInTx(ctx context.Context, renew func(ctx context.Context, c Claim, lease time.Duration) error) error {
	switch v := ctx.Value(claimKey{}).(type) {
	case *claimState:
		v.mu.Lock()
		v.renewTx = renew
		v.mu.Unlock()
		return nil
	case unprotected:
		return nil
	}
	return fmt.Errorf("idempotency: RenewInTx: %w", ErrNoDelivery)
}

// unprotected stands in for the claim in the context of a handler run without one
// (RunUnprotected), hiding any claim of an enclosing handler.
type unprotected struct{}

// claimState is the handler's context and the state of its claim in one allocation: the
// context is the job's, cancellable when the lease is lost, and carries the claim as a value.
type claimState struct {
	context.Context
	cancel        context.CancelCauseFunc
	core          *core
	claim         Claim
	completedInTx atomic.Bool            // CompleteInTx stored the marker
	conflictErr   atomic.Pointer[error]  // CompleteInTx found the claim taken over: its error
	result        atomic.Pointer[[]byte] // SetResult's result, or nil
	steps         stepState              // the key's recovery points (Step)

	mu       sync.Mutex
	timer    *time.Timer // the next renewal, or the lease's end without renewal; nil before start
	deadline *time.Timer // the lease's end by the local clock; armed at the first renewal
	stopped  bool
	// completing: the handler has returned and its completion is being stored. Renewal goes
	// on meanwhile, so that the completion's retries cannot outlast the lease (#32 item 5);
	// a renewal refused now is no news for a handler that has ended.
	completing bool
	// renewal is closed when the renewal under way ends (nil when none is), so that the
	// delivery waits for it before Handle returns: left running, it would outlive the
	// delivery (#32 item 16). Renewals never overlap: the next is armed when one ends.
	renewal chan struct{}
	// renewalBound is when the renewal under way has run out of its store timeout (and a
	// grace): a store that ignores its context is waited for no longer than that.
	renewalBound time.Time
	// leaseFrom is the start of the call that last set the lease (the claim, or the last
	// successful renewal): the store measured the lease from no earlier than that, so the
	// lease holds until leaseFrom+lease by the local monotonic clock at least.
	leaseFrom time.Time
	renewTx   func(context.Context, Claim, time.Duration) error // RenewInTx's function, or nil
}

func newClaimState(ctx context.Context, c *core, key, storeKey string, token Token, retention time.Duration) *claimState {
	st := &claimState{core: c, claim: Claim{Key: key, StoreKey: storeKey, Token: token, Retention: retention}}
	st.Context, st.cancel = context.WithCancelCause(ctx)
	return st
}

// resultBytes is the result SetResult kept, or nil.
func (st *claimState) resultBytes() []byte {
	if p := st.result.Load(); p != nil {
		return *p
	}
	return nil
}

func (st *claimState) Value(key any) any {
	if key == (claimKey{}) {
		return st
	}
	return st.Context.Value(key)
}

// errLocalDeadline is why a handler is stopped when its lease ran out by the local clock
// before any renewal was confirmed: the store may then let another worker take the key.
var errLocalDeadline = errors.New("the lease ran out by the local clock before a renewal was confirmed")

// startRenewal arms the heartbeat; claimed is when the claim call started. A timer rather
// than a goroutine per job: most handlers end long before the first renewal, and then no
// goroutine was ever started. Without renewal the timer stops the handler at the lease's
// end instead.
func (st *claimState) startRenewal(claimed time.Time) {
	c := st.core
	st.mu.Lock()
	st.leaseFrom = claimed
	if c.noRenewal {
		st.timer = time.AfterFunc(time.Until(claimed.Add(c.lease)), st.expire)
	} else {
		st.timer = time.AfterFunc(time.Until(claimed.Add(c.renewEvery)), st.renew)
	}
	st.mu.Unlock()
}

// stopRenewal stops the heartbeat. A renewal already under way finishes on its own (its
// result is ignored, and the store refuses it anyway once the claim is completed or
// released): endRenewal also waits for it. CompleteInTx calls this one, from inside the
// handler, where waiting could wait on the handler's own transaction.
func (st *claimState) stopRenewal() {
	st.mu.Lock()
	st.stopLocked()
	st.mu.Unlock()
}

// stopLocked stops the heartbeat's timers; st.mu is held.
func (st *claimState) stopLocked() {
	st.stopped = true
	if st.timer != nil {
		st.timer.Stop()
	}
	if st.deadline != nil {
		st.deadline.Stop()
	}
}

// renewalGrace is how long past its store timeout a renewal under way is waited for: the
// time a store takes to notice that its context ended and return.
const renewalGrace = 50 * time.Millisecond

// endRenewal stops the heartbeat and waits for a renewal under way, so that none runs on
// after the delivery, but no longer than that renewal's store timeout: a store that ignores
// its context (defect 13 of #17) must not hold the delivery. It may be called more than once.
func (st *claimState) endRenewal() {
	st.mu.Lock()
	st.stopLocked()
	done, bound := st.renewal, st.renewalBound
	st.mu.Unlock()
	if done == nil {
		return
	}
	wait := time.Until(bound)
	if wait <= 0 {
		return
	}
	t := time.NewTimer(wait)
	select {
	case <-done:
	case <-t.C:
	}
	t.Stop()
}

// expire stops the handler at the lease's end: whatever the store does (a renewal that never
// returns, no renewal at all), past that moment another worker may hold the key.
func (st *claimState) expire() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.stopped {
		return
	}
	st.stopped = true
	msg := "idempotency: the claim's lease ran out; cancelling the handler"
	if st.completing {
		msg = "idempotency: the claim's lease ran out while its completion was being stored"
	}
	st.core.log(st, slog.LevelError, msg, st.claim.StoreKey, slog.Int64("epoch", st.claim.Token.Epoch))
	st.cancel(fmt.Errorf("%w: %w", ErrLeaseLost, errLocalDeadline))
}

func (st *claimState) renew() {
	c := st.core
	st.mu.Lock()
	if st.stopped {
		st.mu.Unlock()
		return
	}
	started := time.Now()
	done := make(chan struct{})
	st.renewal, st.renewalBound = done, started.Add(c.storeTimeout+renewalGrace)
	if st.deadline == nil {
		// Armed only now: a handler that ends before its first renewal never pays for it.
		st.deadline = time.AfterFunc(time.Until(st.leaseFrom.Add(c.lease)), st.expire)
	}
	renewTx := st.renewTx
	st.mu.Unlock()

	ctx, cancel := c.storeCtx(context.WithoutCancel(st.Context))
	var err error
	if renewTx != nil {
		err = renewTx(ctx, st.claim, c.lease)
		if errors.Is(err, ErrNotInTx) {
			st.mu.Lock()
			st.renewTx = nil // the handler's transaction ended; renew on the store again
			st.mu.Unlock()
			renewTx = nil
		}
	}
	if renewTx == nil {
		err = c.store.Renew(ctx, st.claim.StoreKey, st.claim.Token, c.lease)
	}
	cancel()
	c.metrics.storeCall(st, opRenew, started)

	st.mu.Lock()
	defer st.mu.Unlock()
	st.renewal = nil
	close(done)
	if st.stopped {
		return
	}
	// The next renewal is scheduled from this one's start, not its end: a slow reply must not
	// push the renewals further apart than renewEvery + storeTimeout, which the options
	// check keeps below the lease.
	next := started.Add(c.renewEvery)
	switch {
	case err == nil:
		st.leaseFrom = started
		st.deadline.Reset(time.Until(started.Add(c.lease)))
		st.timer.Reset(time.Until(next))
	case errors.Is(err, ErrConflict):
		st.stopped = true
		if st.completing {
			// The completion just stored has ended the claim, or the completion will find
			// it taken over and report the conflict itself.
			st.deadline.Stop()
			return
		}
		c.log(st, slog.LevelWarn, "idempotency: claim lost to another worker; cancelling the handler", st.claim.StoreKey,
			slog.Int64("epoch", st.claim.Token.Epoch))
		st.deadline.Stop()
		st.cancel(fmt.Errorf("%w: %w", ErrLeaseLost, err))
	default:
		c.metrics.storeError(st, opRenew)
		// Try again at the next tick if that tick's renewal can still land inside the lease;
		// otherwise another worker may take the key over while this handler still runs.
		if next.Add(c.storeTimeout).Before(st.leaseFrom.Add(c.lease)) {
			c.log(st, slog.LevelWarn, "idempotency: renewing the claim failed; will retry", st.claim.StoreKey, slog.Any("error", err))
			st.timer.Reset(time.Until(next))
			return
		}
		c.log(st, slog.LevelError, "idempotency: renewing the claim failed; cancelling the handler", st.claim.StoreKey, slog.Any("error", err))
		st.stopped = true
		st.deadline.Stop()
		st.cancel(fmt.Errorf("%w: %w", ErrLeaseLost, err))
	}
}
