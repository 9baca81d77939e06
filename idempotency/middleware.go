package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"
)

// HandlerFunc is the handler shape the middleware wraps.
type HandlerFunc[J any] func(ctx context.Context, job J) error

// KeyFunc derives the idempotency key from a job. It must be stable across deliveries of the
// same business operation: an order, invoice, webhook event or payment attempt ID. A key made
// from time or randomness changes on every retry and protects nothing. An empty key is
// handled by the empty-key policy (WithEmptyKey); an error fails the delivery without
// running the handler.
type KeyFunc[J any] func(job J) (string, error)

// Job is a job that reports its own idempotency key and how long its completion marker must
// be kept, like ChokaQ's IIdempotentJob. Use it with NewForJob.
type Job interface {
	IdempotencyKey() string
	IdempotencyRetention() time.Duration
}

// Middleware protects handlers of jobs of type J. Build it once with New or NewForJob and wrap
// every handler that shares its settings; it is safe for concurrent use.
type Middleware[J any] struct {
	core
	key         KeyFunc[J]
	retentionOf func(J) time.Duration // nil: core.retention
	fingerprint func(J) ([]byte, error)
}

// core is the part of the middleware that does not depend on the job type.
type core struct {
	config
	metrics *instruments
	// inMemory: the store is a MemoryStore, which never waits on I/O, so its calls get no
	// timeout (a timer per call would cost more than the call).
	inMemory bool
}

// storeCtx bounds one store call by the store timeout.
func (c *core) storeCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.inMemory {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.storeTimeout)
}

// New builds a middleware that takes each job's key from key. WithRetention is required.
func New[J any](key KeyFunc[J], opts ...Option) (*Middleware[J], error) {
	if key == nil {
		return nil, errors.New("idempotency: New: nil key function")
	}
	cfg, err := buildConfig(opts, true)
	if err != nil {
		return nil, err
	}
	return newMiddleware(cfg, key, nil)
}

// NewForJob builds a middleware for jobs that report their own key and retention. A job that
// reports a retention of zero or less falls back to WithRetention, and fails with
// ErrNoRetention, before anything runs, if there is none.
func NewForJob[J Job](opts ...Option) (*Middleware[J], error) {
	cfg, err := buildConfig(opts, false)
	if err != nil {
		return nil, err
	}
	key := func(job J) (string, error) { return job.IdempotencyKey(), nil }
	return newMiddleware(cfg, key, func(job J) time.Duration { return job.IdempotencyRetention() })
}

func newMiddleware[J any](cfg config, key KeyFunc[J], retentionOf func(J) time.Duration) (*Middleware[J], error) {
	_, inMemory := cfg.store.(*MemoryStore)
	m := &Middleware[J]{core: core{config: cfg, inMemory: inMemory}, key: key, retentionOf: retentionOf}
	if cfg.fingerprint != nil {
		fp, ok := cfg.fingerprint.(func(J) ([]byte, error))
		if !ok {
			var zero J
			return nil, fmt.Errorf("idempotency: WithFingerprint takes a %T, but this middleware's jobs are %T", cfg.fingerprint, zero)
		}
		m.fingerprint = fp
	}
	in, err := newInstruments(cfg.meter, cfg.name)
	if err != nil {
		return nil, fmt.Errorf("idempotency: metrics: %w", err)
	}
	m.metrics = in
	return m, nil
}

// Wrap returns next protected by the middleware.
func (m *Middleware[J]) Wrap(next HandlerFunc[J]) HandlerFunc[J] {
	return func(ctx context.Context, job J) error { return m.Handle(ctx, job, next) }
}

// Handle runs next for job under the middleware's protection. It returns nil for a
// duplicate that it acknowledged, an *InProgressError for one to deliver again later, the
// handler's error (joined with any release error) when the handler failed, and a
// *CompleteConflictError when the handler finished after its claim was taken over.
func (m *Middleware[J]) Handle(ctx context.Context, job J, next HandlerFunc[J]) error {
	key, err := m.key(job)
	if err != nil {
		return fmt.Errorf("idempotency: key function: %w", err)
	}
	if key == "" {
		m.metrics.countEmptyKey(ctx, m.emptyKey)
		if m.emptyKey == RunUnprotected {
			m.log(ctx, slog.LevelWarn, "idempotency: empty key; running the job unprotected", key)
			return next(context.WithValue(ctx, claimKey{}, unprotected{}), job)
		}
		m.log(ctx, slog.LevelWarn, "idempotency: empty key; job rejected", key)
		return ErrEmptyKey
	}
	retention := m.retention
	if m.retentionOf != nil {
		if r := m.retentionOf(job); r > 0 {
			retention = r
		}
	}
	if retention <= 0 {
		m.log(ctx, slog.LevelError, "idempotency: job reports no retention; job rejected", key)
		return ErrNoRetention
	}
	var fingerprint []byte
	if m.fingerprint != nil {
		raw, err := m.fingerprint(job)
		if err != nil {
			return fmt.Errorf("idempotency: fingerprint function: %w", err)
		}
		// A fixed-size digest bounds what the store keeps, whatever the payload size.
		sum := sha256.Sum256(raw)
		fingerprint = sum[:]
	}

	res, err := m.claim(ctx, ClaimRequest{Key: key, Owner: newOwner(), Fingerprint: fingerprint, Lease: m.lease})
	if err != nil {
		return err
	}
	switch res.Status {
	case StatusClaimed:
		m.metrics.count(ctx, OutcomeClaimed)
	case StatusCompleted, StatusInProgress:
		if fingerprint != nil && res.Fingerprint != nil && !bytes.Equal(fingerprint, res.Fingerprint) {
			m.metrics.count(ctx, OutcomeFingerprintMismatch)
			m.log(ctx, slog.LevelError, "idempotency: key reused for a different payload; job rejected", key,
				slog.String("status", res.Status.String()))
			return &FingerprintMismatchError{KeyHash: KeyHash(key), Status: res.Status}
		}
		if res.Status == StatusCompleted {
			m.metrics.count(ctx, OutcomeCompletedDuplicate)
			m.log(ctx, slog.LevelDebug, "idempotency: duplicate of a completed job acknowledged", key)
			return nil
		}
		m.metrics.count(ctx, OutcomeInProgressDuplicate)
		if m.inProgress.kind == skipDuplicate {
			m.log(ctx, slog.LevelInfo, "idempotency: duplicate of a running job dropped", key)
			return nil
		}
		retryAfter := max(min(m.inProgress.delay, res.ExpiresIn), 0)
		m.log(ctx, slog.LevelDebug, "idempotency: duplicate of a running job deferred", key,
			slog.Duration("retry_after", retryAfter))
		return &InProgressError{RetryAfter: retryAfter}
	default:
		return fmt.Errorf("idempotency: store returned unknown claim status %d", res.Status)
	}
	return m.run(ctx, job, next, key, res.Token, retention)
}

// claim asks the store, and with the WaitUpTo policy asks again until the holder of a live
// claim finishes or the wait runs out.
func (m *Middleware[J]) claim(ctx context.Context, req ClaimRequest) (ClaimResult, error) {
	var deadline time.Time
	if m.inProgress.kind == waitUpTo {
		deadline = time.Now().Add(m.inProgress.wait)
	}
	poll := 10 * time.Millisecond
	for {
		cctx, cancel := m.storeCtx(ctx)
		res, err := m.store.Claim(cctx, req)
		cancel()
		if err != nil {
			if ctx.Err() == nil { // a job cancelled by its queue is no store failure
				m.metrics.storeError(ctx, opClaim)
			}
			return res, fmt.Errorf("idempotency: claim: %w", err)
		}
		if res.Status != StatusInProgress || m.inProgress.kind != waitUpTo {
			return res, nil
		}
		if req.Fingerprint != nil && res.Fingerprint != nil && !bytes.Equal(req.Fingerprint, res.Fingerprint) {
			return res, nil // a mismatch will not go away by waiting
		}
		left := time.Until(deadline)
		if left <= 0 {
			return res, nil
		}
		// Poll with backoff, but no later than the holder's lease end: a crashed holder's
		// key is free then.
		wait := min(poll, left, max(res.ExpiresIn, time.Millisecond))
		poll = min(2*poll, time.Second)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return res, context.Cause(ctx)
		case <-t.C:
		}
	}
}

// run runs the handler under a held claim, then completes or releases the claim.
func (m *Middleware[J]) run(ctx context.Context, job J, next HandlerFunc[J], key string, token Token, retention time.Duration) error {
	st := newClaimState(ctx, &m.core, key, token, retention)
	defer st.cancel(nil)
	returned := false
	defer func() {
		// The handler panicked or called runtime.Goexit: free the key for a retry and let
		// the panic go on.
		if !returned {
			st.stopRenewal()
			m.releaseAfterFailure(ctx, st, errors.New("idempotency: handler panicked"))
		}
	}()
	st.startRenewal()
	herr := next(st, job)
	returned = true
	st.stopRenewal()
	return m.finish(ctx, st, herr)
}

func (c *core) finish(ctx context.Context, st *claimState, herr error) error {
	if herr == nil && !st.conflictInTx.Load() {
		if st.completedInTx.Load() {
			c.metrics.count(ctx, OutcomeCompleted)
			return nil
		}
		err := c.complete(ctx, st)
		switch {
		case err == nil:
			c.metrics.count(ctx, OutcomeCompleted)
			return nil
		case errors.Is(err, ErrConflict):
			return c.conflict(ctx, st, err)
		default:
			c.metrics.storeError(ctx, opComplete)
			c.log(ctx, slog.LevelError, "idempotency: handler succeeded but its completion marker was not stored; the job may run again after the lease", st.claim.Key,
				slog.Int64("epoch", st.claim.Token.Epoch), slog.Any("error", err))
			return fmt.Errorf("idempotency: the handler succeeded but its completion marker was not stored: %w", err)
		}
	}
	if st.conflictInTx.Load() {
		// Transactional completion inside the handler found its claim taken over; the
		// handler's transaction rolled back with it.
		return c.conflict(ctx, st, herr)
	}
	if cause := context.Cause(st); errors.Is(cause, ErrLeaseLost) && !errors.Is(herr, ErrLeaseLost) {
		herr = errors.Join(herr, cause)
	}
	if c.keepClaim != nil && c.keepClaim(herr) {
		c.log(ctx, slog.LevelInfo, "idempotency: handler failed; claim kept until its lease ends", st.claim.Key,
			slog.Any("error", herr))
		return herr
	}
	return c.releaseAfterFailure(ctx, st, herr)
}

func (c *core) conflict(ctx context.Context, st *claimState, err error) error {
	c.metrics.count(ctx, OutcomeCompleteConflict)
	c.log(ctx, slog.LevelError, "idempotency: complete_conflict: handler finished after its claim was taken over; investigate a possible duplicate side effect", st.claim.Key,
		slog.Int64("epoch", st.claim.Token.Epoch))
	return &CompleteConflictError{KeyHash: KeyHash(st.claim.Key), Token: st.claim.Token, Err: err}
}

// releaseAfterFailure frees the key and returns herr, joined with the release error if any:
// a store problem must never hide why the handler failed.
func (c *core) releaseAfterFailure(ctx context.Context, st *claimState, herr error) error {
	err := c.retry(ctx, 2, func(sctx context.Context) error {
		return c.store.Release(sctx, st.claim.Key, st.claim.Token)
	})
	switch {
	case err == nil:
		c.metrics.count(ctx, OutcomeReleased)
		return herr
	case errors.Is(err, ErrConflict):
		// Taken over or already completed: there is nothing of ours to free.
		c.log(ctx, slog.LevelWarn, "idempotency: handler failed and its claim was no longer held", st.claim.Key,
			slog.Int64("epoch", st.claim.Token.Epoch))
		return herr
	default:
		c.metrics.storeError(ctx, opRelease)
		c.log(ctx, slog.LevelError, "idempotency: releasing the claim failed; the key stays blocked until the lease ends", st.claim.Key,
			slog.Any("error", err))
		return errors.Join(herr, fmt.Errorf("idempotency: release: %w", err))
	}
}

func (c *core) complete(ctx context.Context, st *claimState) error {
	return c.retry(ctx, 3, func(sctx context.Context) error {
		return c.store.Complete(sctx, st.claim.Key, st.claim.Token, st.claim.Retention)
	})
}

// retry calls op up to attempts times on a context detached from the job's (which may be
// cancelled by now), each call with the store timeout. Complete and Release are idempotent for
// the same token, so a retry after a lost reply is safe. ErrConflict is final.
func (c *core) retry(ctx context.Context, attempts int, op func(context.Context) error) error {
	detached := context.WithoutCancel(ctx)
	var err error
	for i := range attempts {
		if i > 0 {
			time.Sleep(time.Duration(i) * 20 * time.Millisecond)
		}
		sctx, cancel := c.storeCtx(detached)
		err = op(sctx)
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
