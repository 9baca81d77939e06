package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"time"

	"go.opentelemetry.io/otel/attribute"
)

// HandlerFunc is the handler shape the middleware wraps.
type HandlerFunc[J any] func(ctx context.Context, job J) error

// KeyFunc derives the idempotency key from a job. It must be stable across deliveries of the
// same business operation: an order, invoice, webhook event or payment attempt ID. A key made
// from time or randomness changes on every retry and protects nothing. Build keys of several
// parts with Key, which rejects an empty part: "charge:" + an empty ID is a non-empty string
// that would stand for every payment without an ID, and only the parts tell it from a URL or
// a path that ends in '/' or ':'. The middleware namespaces the key by handler (WithName) and
// hashes it before storage, so a key needs no prefix of its own.
//
// An empty key, or an error matching ErrEmptyKey (as Key's *EmptyKeyPartError does), is
// handled by the empty-key policy (WithEmptyKey). Any other error fails the delivery with a
// permanent *KeyError, without running the handler.
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
	// handler names the handler in spans: WithName, or the job type's name.
	handler string
	// namespace keeps this handler's keys apart from other handlers' and, with WithService,
	// from other services': the handler, or Key(service, handler).
	namespace string
	metrics   *instruments
	tracing   tracing
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
// ErrNoRetention, before anything runs, if there is none. A job that reports a retention
// under 1ms, the least WithRetention takes, fails with a *RetentionError before anything
// runs.
func NewForJob[J Job](opts ...Option) (*Middleware[J], error) {
	cfg, err := buildConfig(opts, false)
	if err != nil {
		return nil, err
	}
	key := func(job J) (string, error) { return job.IdempotencyKey(), nil }
	return newMiddleware(cfg, key, func(job J) time.Duration { return job.IdempotencyRetention() })
}

func newMiddleware[J any](cfg config, key KeyFunc[J], retentionOf func(J) time.Duration) (*Middleware[J], error) {
	handler := cfg.name
	if handler == "" {
		var zero J
		handler = fmt.Sprintf("%T", zero)
		if handler == "<nil>" { // J is an interface type
			handler = reflect.TypeFor[J]().String()
		}
	}
	if cfg.store == nil {
		// The middleware's own store reports its gauges where the middleware counts, under
		// the handler's name.
		cfg.store = NewMemoryStore(MemoryConfig{MeterProvider: cfg.meter, Name: handler})
	}
	_, inMemory := cfg.store.(*MemoryStore)
	if _, ok := cfg.store.(ReviewStore); !ok && (cfg.needsReview != nil || cfg.replayReview) {
		return nil, fmt.Errorf("idempotency: WithNeedsReview and WithNeedsReviewReplay need a store that keeps failed markers (a ReviewStore); %T is not one", cfg.store)
	}
	namespace := handler
	if cfg.service != "" {
		// Key's join is unambiguous, so service "a:b" with handler "c" and service "a" with
		// handler "b:c" stay apart.
		namespace, _ = Key(cfg.service, handler) // neither part is empty
	}
	m := &Middleware[J]{core: core{config: cfg, handler: handler, namespace: namespace, inMemory: inMemory}, key: key, retentionOf: retentionOf}
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
	m.tracing = newTracing(cfg.tracerProvider)
	return m, nil
}

// Wrap returns next protected by the middleware.
func (m *Middleware[J]) Wrap(next HandlerFunc[J]) HandlerFunc[J] {
	return func(ctx context.Context, job J) error { return m.Handle(ctx, job, next) }
}

// Handle runs next for job under the middleware's protection. It returns nil for a
// duplicate that it acknowledged (of a completed job, or of one marked for manual review,
// unless WithNeedsReviewReplay), a *NeedsReviewError when the handler asked for review, an *InProgressError for one to deliver again later, the
// handler's error (joined with any release error) when the handler failed, and a
// *CompleteConflictError when the handler finished after its claim was taken over.
//
// When ctx is already a handler context holding the claim on the job's stored key (the
// middleware installed twice, for a whole mux and on the handler), Handle runs next at once:
// the enclosing delivery owns the claim, its completion and its outcome.
func (m *Middleware[J]) Handle(ctx context.Context, job J, next HandlerFunc[J]) error {
	ctx, span := m.tracing.start(ctx, m.handler)
	if span == nil {
		return m.handle(ctx, job, next)
	}
	returned := false
	defer func() {
		if !returned {
			// The handler panicked (or called runtime.Goexit): the span says so, and the
			// panic goes on as it came. Re-panicking here, inside the deferred call, keeps
			// the handler's frames in the traceback, which are not unwound yet.
			spanPanic(span, recover())
		}
		span.End()
	}()
	err := m.handle(ctx, job, next)
	returned = true
	spanError(span, err)
	return err
}

func (m *Middleware[J]) handle(ctx context.Context, job J, next HandlerFunc[J]) error {
	key, err := m.key(job)
	switch {
	case err != nil && !errors.Is(err, ErrEmptyKey):
		m.metrics.count(ctx, OutcomeKeyError)
		m.log(ctx, slog.LevelError, "idempotency: key function failed; job rejected", "", slog.Any("error", err))
		return &KeyError{Func: stageKey, Err: err}
	case err != nil || key == "":
		return m.emptyKeyPolicy(ctx, job, next)
	}
	retention := m.retention
	var badRetention time.Duration // a job's own retention under the floor (#32 item 19)
	if m.retentionOf != nil {
		switch r := m.retentionOf(job); {
		case r >= minRetention:
			retention = r
		case r > 0:
			badRetention = r
		}
	}
	storeKey := m.StoreKey(key)
	annotate(ctx, attribute.String(AttrKeyHash, m.keyHash(storeKey)))
	if held, ok := ctx.Value(claimKey{}).(*claimState); ok && held.claim.StoreKey == storeKey {
		// The middleware is installed twice on this handler (for the whole mux and on the
		// handler): the enclosing install holds this very claim, so claiming again would find
		// it in progress and defer the job for ever (#32 item 11). The enclosing install
		// completes or releases it; this one only passes the job through.
		m.log(ctx, slog.LevelDebug, "idempotency: the claim is held by an enclosing install of the middleware; passing the job through", storeKey)
		return next(ctx, job)
	}
	if badRetention > 0 {
		m.log(ctx, slog.LevelError, "idempotency: job reports a retention under 1ms; job rejected", storeKey,
			slog.Duration("retention", badRetention))
		return &RetentionError{Retention: badRetention}
	}
	if retention <= 0 {
		m.log(ctx, slog.LevelError, "idempotency: job reports no retention; job rejected", storeKey)
		return ErrNoRetention
	}
	var fingerprint []byte
	if m.fingerprint != nil {
		raw, err := m.fingerprint(job)
		if err != nil {
			m.metrics.count(ctx, OutcomeKeyError)
			m.log(ctx, slog.LevelError, "idempotency: fingerprint function failed; job rejected", storeKey, slog.Any("error", err))
			return &KeyError{Func: stageFingerprint, Err: err}
		}
		// A fixed-size digest bounds what the store keeps, whatever the payload size.
		sum := sha256.Sum256(raw)
		fingerprint = sum[:]
	}

	res, claimed, err := m.claim(ctx, ClaimRequest{Key: storeKey, Owner: newOwner(), Fingerprint: fingerprint, Lease: m.lease})
	if err != nil {
		return err
	}
	switch res.Status {
	case StatusClaimed:
		m.metrics.count(ctx, OutcomeClaimed)
		annotate(ctx, attribute.Int64(AttrEpoch, res.Token.Epoch))
	case StatusCompleted, StatusInProgress, StatusFailed:
		if fingerprint != nil && res.Fingerprint != nil && !bytes.Equal(fingerprint, res.Fingerprint) {
			m.metrics.count(ctx, OutcomeFingerprintMismatch)
			m.log(ctx, slog.LevelError, "idempotency: key reused for a different payload; job rejected", storeKey,
				slog.String("status", res.Status.String()))
			return &FingerprintMismatchError{KeyHash: m.keyHash(storeKey), Status: res.Status}
		}
		if res.Status == StatusFailed {
			m.metrics.count(ctx, OutcomeNeedsReviewDuplicate)
			m.log(ctx, slog.LevelInfo, "idempotency: duplicate of a job marked for manual review acknowledged without running", storeKey)
			if m.replayReview {
				return &NeedsReviewError{KeyHash: m.keyHash(storeKey), Duplicate: true, Reason: res.Reason}
			}
			return nil
		}
		if res.Status == StatusCompleted {
			m.metrics.count(ctx, OutcomeCompletedDuplicate)
			giveResult(ctx, res.Result, true)
			m.log(ctx, slog.LevelDebug, "idempotency: duplicate of a completed job acknowledged", storeKey)
			return nil
		}
		m.metrics.count(ctx, OutcomeInProgressDuplicate)
		if m.inProgress.kind == skipDuplicate {
			m.log(ctx, slog.LevelInfo, "idempotency: duplicate of a running job dropped", storeKey)
			return nil
		}
		retryAfter := max(min(m.inProgress.delay, res.ExpiresIn), 0)
		m.log(ctx, slog.LevelDebug, "idempotency: duplicate of a running job deferred", storeKey,
			slog.Duration("retry_after", retryAfter))
		return &InProgressError{RetryAfter: retryAfter}
	default:
		return fmt.Errorf("idempotency: store returned unknown claim status %d", res.Status)
	}
	return m.run(ctx, job, next, key, storeKey, res.Token, retention, claimed)
}

// StoreKey returns the key the store keeps for a job whose key function gave key: namespaced
// by this middleware's handler (and service, WithService) and hashed (see the package
// function StoreKey), or key itself under WithLegacyKeys.
func (m *Middleware[J]) StoreKey(key string) string {
	if m.legacyKeys {
		return key
	}
	return StoreKey(m.namespace, key)
}

// StoreKeyOf returns the key the store keeps for job, for inspecting or forgetting its record
// (see Inspect and Forget). It fails as Handle would for a job without a usable key.
func (m *Middleware[J]) StoreKeyOf(job J) (string, error) {
	key, err := m.key(job)
	if err == nil && key == "" {
		err = ErrEmptyKey
	}
	if err != nil {
		return "", &KeyError{Func: stageKey, Err: err}
	}
	return m.StoreKey(key), nil
}

// emptyKeyPolicy rejects the job or runs it unprotected, as WithEmptyKey says.
func (m *Middleware[J]) emptyKeyPolicy(ctx context.Context, job J, next HandlerFunc[J]) error {
	m.metrics.countEmptyKey(ctx, m.emptyKey)
	if m.emptyKey == RunUnprotected {
		m.log(ctx, slog.LevelWarn, "idempotency: empty key; running the job unprotected", "")
		return next(context.WithValue(ctx, claimKey{}, unprotected{}), job)
	}
	m.log(ctx, slog.LevelWarn, "idempotency: empty key; job rejected", "")
	return ErrEmptyKey
}

// claim asks the store, and with the WaitUpTo policy asks again until the holder of a live
// claim finishes or the wait runs out. started is when the call that gave res started: a
// claim won holds its lease from no earlier than that by the local clock. Counting it from
// before the wait instead (#32 item 4) made a claim won after waiting look expired at once.
func (m *Middleware[J]) claim(ctx context.Context, req ClaimRequest) (res ClaimResult, started time.Time, err error) {
	var deadline time.Time
	if m.inProgress.kind == waitUpTo {
		deadline = time.Now().Add(m.inProgress.wait)
	}
	poll := 10 * time.Millisecond
	waited := false // the key was found in progress and waited for
	for {
		res, started, err = m.claimOnce(ctx, req)
		if err != nil {
			if waited && ctx.Err() != nil {
				m.waitCut(ctx, req.Key)
			}
			return res, started, err
		}
		if res.Status != StatusInProgress || m.inProgress.kind != waitUpTo {
			return res, started, nil
		}
		if req.Fingerprint != nil && res.Fingerprint != nil && !bytes.Equal(req.Fingerprint, res.Fingerprint) {
			return res, started, nil // a mismatch will not go away by waiting
		}
		left := time.Until(deadline)
		if left <= 0 {
			return res, started, nil
		}
		// Poll with backoff, but no later than the holder's lease end: a crashed holder's
		// key is free then.
		wait := min(poll, left, max(res.ExpiresIn, time.Millisecond))
		poll = min(2*poll, time.Second)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			m.waitCut(ctx, req.Key)
			return res, started, context.Cause(ctx)
		case <-t.C:
		}
		waited = true
	}
}

// waitCut counts a WaitUpTo delivery whose context ended while it waited for the holder of
// the key: deferred as a duplicate of a running job, like a wait that ran out, since the
// queue delivers it again (#32 item 18: it counted nothing).
func (m *Middleware[J]) waitCut(ctx context.Context, storeKey string) {
	m.metrics.count(ctx, OutcomeInProgressDuplicate)
	m.log(ctx, slog.LevelDebug, "idempotency: the delivery ended while waiting for a running duplicate; deferred", storeKey)
}

// claimAttempts is how many times one claim is asked for when the store fails.
const claimAttempts = 3

// claimOnce asks the store for the claim, again (up to claimAttempts calls in all) when the
// call fails: the store may have taken the claim and lost its reply, and the same owner
// asking again gets its claim back (the Store contract), so a retry runs the job now instead
// of leaving its key blocked for a whole lease (#32 item 13). A full memory store is not
// asked again: it stays full for longer than a retry waits. started is when the call that
// gave res started.
func (m *Middleware[J]) claimOnce(ctx context.Context, req ClaimRequest) (res ClaimResult, started time.Time, err error) {
	for i := 1; ; i++ {
		cctx, cancel := m.storeCtx(ctx)
		started = time.Now()
		res, err = m.store.Claim(cctx, req)
		m.metrics.storeCall(ctx, opClaim, started)
		cancel()
		if err == nil {
			return res, started, nil
		}
		if ctx.Err() != nil { // a job cancelled by its queue is no store failure
			return res, started, &StoreError{Op: opClaim, Err: err}
		}
		if i == claimAttempts || errors.Is(err, ErrStoreFull) {
			m.metrics.storeError(ctx, opClaim) // once per delivery, as for complete and release
			return res, started, &StoreError{Op: opClaim, Err: err}
		}
		t := time.NewTimer(time.Duration(i) * 20 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return res, started, &StoreError{Op: opClaim, Err: err}
		case <-t.C:
		}
	}
}

// run runs the handler under a held claim, then completes or releases the claim.
func (m *Middleware[J]) run(ctx context.Context, job J, next HandlerFunc[J], key, storeKey string, token Token, retention time.Duration, claimed time.Time) error {
	st := newClaimState(ctx, &m.core, key, storeKey, token, retention)
	defer st.cancel(nil)
	returned := false
	defer func() {
		// The handler panicked or called runtime.Goexit: free the key for a retry and let
		// the panic go on.
		if !returned {
			st.endRenewal()
			m.releaseAfterFailure(ctx, st, errors.New("idempotency: handler panicked"))
		}
	}()
	st.startRenewal(claimed)
	herr := next(st, job)
	returned = true
	return m.finish(ctx, st, herr) // ends the renewal once the claim needs it no more
}
