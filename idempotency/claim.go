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
	Key       string
	Token     Token
	Retention time.Duration
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
// so the handler's transaction still commits. Outside a handler run by the middleware it fails.
func CompleteInTx(ctx context.Context, write func(Claim) error) error {
	var st *claimState
	switch v := ctx.Value(claimKey{}).(type) {
	case *claimState:
		st = v
	case unprotected:
		return nil
	default:
		return errors.New("idempotency: CompleteInTx needs the context of a handler run by the idempotency middleware")
	}
	err := write(st.claim)
	switch {
	case err == nil:
		st.completedInTx.Store(true)
		st.stopRenewal()
	case errors.Is(err, ErrConflict):
		st.conflictInTx.Store(true)
	}
	return err
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
	completedInTx atomic.Bool // CompleteInTx stored the marker
	conflictInTx  atomic.Bool // CompleteInTx found the claim taken over

	mu          sync.Mutex
	timer       *time.Timer // nil when renewal is off
	stopped     bool
	lastRenewed time.Time // start of the last successful renewal, or of the claim
}

func newClaimState(ctx context.Context, c *core, key string, token Token, retention time.Duration) *claimState {
	st := &claimState{core: c, claim: Claim{Key: key, Token: token, Retention: retention}}
	st.Context, st.cancel = context.WithCancelCause(ctx)
	return st
}

func (st *claimState) Value(key any) any {
	if key == (claimKey{}) {
		return st
	}
	return st.Context.Value(key)
}

// startRenewal arms the heartbeat. A timer rather than a goroutine per job: most handlers end
// long before the first renewal, and then no goroutine was ever started.
func (st *claimState) startRenewal() {
	if st.core.noRenewal {
		return
	}
	st.mu.Lock()
	// The claim was written just before; its lease started no later than now.
	st.lastRenewed = time.Now()
	st.timer = time.AfterFunc(st.core.renewEvery, st.renew)
	st.mu.Unlock()
}

// stopRenewal stops the heartbeat. A renewal already under way finishes on its own; its
// result is ignored, and the store refuses it anyway once the claim is completed or released.
func (st *claimState) stopRenewal() {
	st.mu.Lock()
	st.stopped = true
	if st.timer != nil {
		st.timer.Stop()
	}
	st.mu.Unlock()
}

func (st *claimState) renew() {
	st.mu.Lock()
	if st.stopped {
		st.mu.Unlock()
		return
	}
	st.mu.Unlock()

	c := st.core
	started := time.Now()
	ctx, cancel := c.storeCtx(context.WithoutCancel(st.Context))
	err := c.store.Renew(ctx, st.claim.Key, st.claim.Token, c.lease)
	cancel()

	st.mu.Lock()
	defer st.mu.Unlock()
	if st.stopped {
		return
	}
	switch {
	case err == nil:
		st.lastRenewed = started
		st.timer.Reset(c.renewEvery)
	case errors.Is(err, ErrConflict):
		c.log(st, slog.LevelWarn, "idempotency: claim lost to another worker; cancelling the handler", st.claim.Key,
			slog.Int64("epoch", st.claim.Token.Epoch))
		st.stopped = true
		st.cancel(fmt.Errorf("%w: %w", ErrLeaseLost, err))
	default:
		c.metrics.storeError(st, opRenew)
		// Try again at the next tick if that tick's renewal can still land inside the lease;
		// otherwise another worker may take the key over while this handler still runs.
		if time.Now().Add(c.renewEvery + c.storeTimeout).Before(st.lastRenewed.Add(c.lease)) {
			c.log(st, slog.LevelWarn, "idempotency: renewing the claim failed; will retry", st.claim.Key, slog.Any("error", err))
			st.timer.Reset(c.renewEvery)
			return
		}
		c.log(st, slog.LevelError, "idempotency: renewing the claim failed; cancelling the handler", st.claim.Key, slog.Any("error", err))
		st.stopped = true
		st.cancel(fmt.Errorf("%w: %w", ErrLeaseLost, err))
	}
}
