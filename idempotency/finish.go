package idempotency

import (
	"context"
	"encoding/hex"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"
)

// finish ends a delivery that ran the handler: it completes or releases the claim and counts
// exactly one outcome after "claimed". It ends the claim's renewal: after the completion
// when there is one to store, since a completion retried past the lease would let a
// redelivery run the job again meanwhile (#32 item 5); at once otherwise, since a claim to
// release or to keep until its lease ends needs no renewal.
func (c *core) finish(ctx context.Context, st *claimState, herr error) error {
	if herr != nil || st.completedInTx.Load() || st.conflictErr.Load() != nil {
		st.endRenewal()
	} else {
		st.mu.Lock()
		st.completing = true
		st.mu.Unlock()
		defer st.endRenewal()
	}
	txConflict := st.conflictErr.Load()
	if txConflict != nil {
		// Transactional completion inside the handler found its claim taken over; the
		// handler's transaction rolled back with it. The conflict is joined to whatever the
		// handler returned, so the error matches ErrConflict however the handler wrapped it.
		err := *txConflict
		if herr != nil && herr != err {
			err = errors.Join(err, herr)
		}
		return c.conflict(ctx, st, err)
	}
	if herr == nil {
		if st.completedInTx.Load() {
			c.metrics.count(ctx, OutcomeCompleted)
			giveResult(ctx, st.resultBytes(), false)
			return nil
		}
		err := c.complete(ctx, st)
		switch {
		case err == nil:
			c.metrics.count(ctx, OutcomeCompleted)
			giveResult(ctx, st.resultBytes(), false)
			return nil
		case errors.Is(err, ErrConflict):
			return c.conflict(ctx, st, err)
		default:
			c.metrics.storeError(ctx, opComplete)
			c.metrics.count(ctx, OutcomeCompleteFailed)
			c.log(ctx, slog.LevelError, "idempotency: handler succeeded but its completion marker was not stored; the job may run again after the lease", st.claim.StoreKey,
				slog.Int64("epoch", st.claim.Token.Epoch), slog.Any("error", err))
			return &CompletionNotStoredError{KeyHash: c.keyHash(st.claim.StoreKey), Token: st.claim.Token, Err: err}
		}
	}
	if cause := context.Cause(st); errors.Is(cause, ErrLeaseLost) && !errors.Is(herr, ErrLeaseLost) {
		herr = errors.Join(herr, cause)
	}
	if c.asksReview(herr) {
		return c.markForReview(ctx, st, herr)
	}
	if c.keepClaim != nil && c.keepClaim(herr) {
		c.metrics.count(ctx, OutcomeKept)
		c.log(ctx, slog.LevelInfo, "idempotency: handler failed; claim kept until its lease ends", st.claim.StoreKey,
			slog.Any("error", herr))
		return herr
	}
	return c.releaseAfterFailure(ctx, st, herr)
}

func (c *core) conflict(ctx context.Context, st *claimState, err error) error {
	c.metrics.count(ctx, OutcomeCompleteConflict)
	c.log(ctx, slog.LevelError, "idempotency: complete_conflict: handler finished after its claim was taken over; investigate a possible duplicate side effect", st.claim.StoreKey,
		slog.Int64("epoch", st.claim.Token.Epoch))
	return &CompleteConflictError{KeyHash: c.keyHash(st.claim.StoreKey), Token: st.claim.Token, Err: err}
}

// releaseAfterFailure frees the key and returns herr, joined with the release error if any:
// a store problem must never hide why the handler failed.
func (c *core) releaseAfterFailure(ctx context.Context, st *claimState, herr error) error {
	err := c.retry(ctx, opRelease, 2, func(sctx context.Context) error {
		return c.store.Release(sctx, st.claim.StoreKey, st.claim.Token)
	})
	switch {
	case err == nil:
		c.metrics.count(ctx, OutcomeReleased)
		return herr
	case errors.Is(err, ErrConflict):
		// Taken over or already completed: there is nothing of ours to free.
		c.metrics.count(ctx, OutcomeClaimLost)
		c.log(ctx, slog.LevelWarn, "idempotency: handler failed and its claim was no longer held", st.claim.StoreKey,
			slog.Int64("epoch", st.claim.Token.Epoch))
		return herr
	default:
		c.metrics.storeError(ctx, opRelease)
		c.metrics.count(ctx, OutcomeReleaseFailed)
		c.log(ctx, slog.LevelError, "idempotency: releasing the claim failed; the key stays blocked until the lease ends", st.claim.StoreKey,
			slog.Any("error", err))
		return errors.Join(herr, &StoreError{Op: opRelease, Err: err})
	}
}

func (c *core) complete(ctx context.Context, st *claimState) error {
	result := st.resultBytes()
	return c.retry(ctx, opComplete, 3, func(sctx context.Context) error {
		if result != nil {
			// SetResult made sure the store is a ResultStore.
			return c.store.(ResultStore).CompleteWithResult(sctx, st.claim.StoreKey, st.claim.Token, st.claim.Retention, result)
		}
		return c.store.Complete(sctx, st.claim.StoreKey, st.claim.Token, st.claim.Retention)
	})
}

// retry calls op up to attempts times on a context detached from the job's (which may be
// cancelled by now), each call with the store timeout. Complete and Release are idempotent for
// the same token, so a retry after a lost reply is safe. ErrConflict is final.
func (c *core) retry(ctx context.Context, name string, attempts int, op func(context.Context) error) error {
	detached := context.WithoutCancel(ctx)
	var err error
	for i := range attempts {
		if i > 0 {
			time.Sleep(time.Duration(i) * 20 * time.Millisecond)
		}
		sctx, cancel := c.storeCtx(detached)
		start := time.Now()
		err = op(sctx)
		c.metrics.storeCall(ctx, name, start)
		cancel()
		if err == nil || errors.Is(err, ErrConflict) {
			return err
		}
	}
	return err
}

// newOwner returns a random owner ID. It needs to be unique, not secret: the fast per-thread
// generator is enough, and 128 bits make a collision out of reach.
func newOwner() string {
	var b [16]byte
	for i, v := range [2]uint64{rand.Uint64(), rand.Uint64()} {
		for j := range 8 {
			b[i*8+j] = byte(v >> (8 * j))
		}
	}
	return hex.EncodeToString(b[:])
}
