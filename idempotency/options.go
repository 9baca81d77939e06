package idempotency

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// Option configures a Middleware. Options are checked when the middleware is built (New,
// NewForJob), so a bad setting fails at start-up, not after a side effect.
type Option func(*config)

// Defaults. There is deliberately no default retention: how long duplicates can arrive is a
// business decision (a payment provider's retry window, a webhook sender's), not a queue
// setting.
const (
	// DefaultLease is how long a claim holds without renewal. Renewal keeps long handlers'
	// claims alive, so the lease only bounds how long a crashed worker blocks its key.
	DefaultLease = time.Minute
	// DefaultStoreTimeout bounds each store call (it is lowered to a quarter of the lease
	// when the lease is short).
	DefaultStoreTimeout = 10 * time.Second
)

type config struct {
	store          Store
	retention      time.Duration
	lease          time.Duration
	renewEvery     time.Duration // 0: lease/3
	noRenewal      bool
	storeTimeout   time.Duration // 0: min(DefaultStoreTimeout, lease/4)
	emptyKey       EmptyKeyPolicy
	inProgress     InProgressPolicy
	keepClaim      func(error) bool
	needsReview    func(error) bool // WithNeedsReview
	replayReview   bool             // WithNeedsReviewReplay
	name           string
	service        string
	legacyKeys     bool
	meter          metric.MeterProvider
	tracerProvider trace.TracerProvider
	logger         *slog.Logger
	fingerprint    any // func(J) ([]byte, error), checked against J by New
	errs           []error
}

// WithStore sets where claims and completion markers live. The default is a MemoryStore of
// this middleware's own, which protects only within one process: share one store between
// every middleware and every worker that handles the same keys.
func WithStore(s Store) Option {
	return func(c *config) {
		if s == nil {
			c.errs = append(c.errs, errors.New("WithStore: nil store"))
		}
		c.store = s
	}
}

// minRetention is the shortest retention taken, from WithRetention or from a job's own
// IdempotencyRetention: anything shorter is a unit mistake (72 meant as hours is 72ns) that
// would let every duplicate through.
const minRetention = time.Millisecond

// WithRetention sets how long a completion marker is kept, and so how long after a success a
// duplicate is still recognised. Required by New; with NewForJob it is the fallback for jobs
// that report no retention. Choose it from how late duplicates can arrive (redelivery
// windows, provider retries, replays), not from the queue's retry settings alone.
func WithRetention(d time.Duration) Option {
	return func(c *config) {
		if d < minRetention {
			c.errs = append(c.errs, fmt.Errorf("WithRetention(%s): retention must be at least %s", d, minRetention))
		}
		c.retention = d
	}
}

// WithLease sets how long an InProgress claim holds without renewal (default DefaultLease).
// A crashed worker blocks its key for at most this long.
func WithLease(d time.Duration) Option {
	return func(c *config) {
		if d < time.Millisecond {
			c.errs = append(c.errs, fmt.Errorf("WithLease(%s): lease must be at least 1ms", d))
		}
		c.lease = d
	}
}

// WithRenewInterval sets how often a running handler's claim is renewed (default a third of
// the lease). It must leave room for a renewal call to time out before the lease runs out.
func WithRenewInterval(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.errs = append(c.errs, fmt.Errorf("WithRenewInterval(%s): interval must be positive", d))
		}
		c.renewEvery = d
	}
}

// WithoutRenewal turns lease renewal off: a handler that outlives its lease can then be taken
// over, and its completion becomes a complete_conflict.
func WithoutRenewal() Option {
	return func(c *config) { c.noRenewal = true }
}

// WithStoreTimeout bounds each store call (default DefaultStoreTimeout, or a quarter of the
// lease if less). Complete, release and renew run on a context detached from the job's, so
// they still happen when the job's context is cancelled; this timeout is their only bound.
func WithStoreTimeout(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.errs = append(c.errs, fmt.Errorf("WithStoreTimeout(%s): timeout must be positive", d))
		}
		c.storeTimeout = d
	}
}

// EmptyKeyPolicy says what to do with a job whose key function returns an empty key.
type EmptyKeyPolicy uint8

const (
	// RejectEmptyKey (the default) fails the job with ErrEmptyKey, a permanent error,
	// without running the handler.
	RejectEmptyKey EmptyKeyPolicy = iota
	// RunUnprotected runs the handler without a claim. Counted, so the fail-open is visible.
	RunUnprotected
)

func (p EmptyKeyPolicy) String() string {
	if p == RunUnprotected {
		return "run_unprotected"
	}
	return "reject"
}

// WithEmptyKey sets the policy for empty keys (default RejectEmptyKey). Either way the
// delivery is counted with outcome "empty_key" and attribute "policy".
func WithEmptyKey(p EmptyKeyPolicy) Option {
	return func(c *config) {
		if p != RejectEmptyKey && p != RunUnprotected {
			c.errs = append(c.errs, fmt.Errorf("WithEmptyKey(%d): unknown policy", p))
		}
		c.emptyKey = p
	}
}

// InProgressPolicy says what to do with a delivery whose key another worker holds a live
// claim on. Build one with RetryLater, SkipDuplicate or WaitUpTo.
type InProgressPolicy struct {
	kind  inProgressKind
	wait  time.Duration // WaitUpTo
	delay time.Duration // RetryLaterAfter; 0: a tenth of the lease
}

type inProgressKind uint8

const (
	retryLater inProgressKind = iota
	skipDuplicate
	waitUpTo
)

// RetryLater (the default) fails the delivery with an *InProgressError so that the queue
// delivers it again later; adapters map it to the queue's retry or snooze. Nothing is lost if
// the running holder then fails. The error suggests retrying after a tenth of the lease (or
// the rest of the holder's lease, if sooner): most holders finish well before their lease
// ends, and one that crashed frees the key when it does.
func RetryLater() InProgressPolicy { return InProgressPolicy{kind: retryLater} }

// RetryLaterAfter is RetryLater with the suggested delay set to d (still capped by the rest
// of the holder's lease).
func RetryLaterAfter(d time.Duration) InProgressPolicy {
	return InProgressPolicy{kind: retryLater, delay: d}
}

// SkipDuplicate acknowledges the delivery without running it. Only safe when the holder is
// known to finish the same work: if the holder fails and releases, this delivery is gone.
func SkipDuplicate() InProgressPolicy { return InProgressPolicy{kind: skipDuplicate} }

// WaitUpTo polls the store for up to d for the holder to finish: it then acknowledges a
// completion, or runs the job if the holder released it; after d it behaves like RetryLater.
// The waiting occupies a worker. A delivery whose context ends while it waits returns the
// context's error (context.Cause) and counts in_progress_duplicate, as one whose wait ran out.
// A claim won after waiting holds its lease from the claim call that won it.
func WaitUpTo(d time.Duration) InProgressPolicy { return InProgressPolicy{kind: waitUpTo, wait: d} }

// WithInProgress sets the policy for duplicates of a running job (default RetryLater).
func WithInProgress(p InProgressPolicy) Option {
	return func(c *config) {
		if p.kind == waitUpTo && p.wait <= 0 {
			c.errs = append(c.errs, fmt.Errorf("WaitUpTo(%s): the wait must be positive", p.wait))
		}
		if p.kind == retryLater && p.delay < 0 {
			c.errs = append(c.errs, fmt.Errorf("RetryLaterAfter(%s): the delay must not be negative", p.delay))
		}
		c.inProgress = p
	}
}

// WithKeepClaimOn chooses the handler errors for which the claim is kept instead of released:
// the key stays blocked until the lease runs out, so a retry cannot start at once. Use it for
// failures after a partial side effect that need time or a person before a retry. By default
// every error releases the claim (outcome "released"); a kept claim counts no outcome of its
// own.
func WithKeepClaimOn(keep func(err error) bool) Option {
	return func(c *config) {
		if keep == nil {
			c.errs = append(c.errs, errors.New("WithKeepClaimOn: nil function"))
		}
		c.keepClaim = keep
	}
}

// WithFingerprint sets a function that digests the job's payload. A delivery whose key is
// already held or completed for a different fingerprint is rejected with a
// *FingerprintMismatchError (outcome "fingerprint_mismatch") instead of being taken for a
// duplicate. J must be the middleware's job type; New checks it.
func WithFingerprint[J any](fingerprint func(job J) ([]byte, error)) Option {
	return func(c *config) {
		if fingerprint == nil {
			c.errs = append(c.errs, errors.New("WithFingerprint: nil function"))
		}
		c.fingerprint = fingerprint
	}
}

// WithName names the handler in metrics (attribute "handler") and logs, and namespaces its
// keys: two middlewares with different names never share a key, even on one store with the
// same business IDs. Without it the namespace is the job's Go type, so two handlers of the
// same job type on one store need names of their own. Changing it changes every stored key,
// like a new handler: completion markers under the old name are no longer seen.
func WithName(name string) Option {
	return func(c *config) {
		if name == "" {
			c.errs = append(c.errs, errors.New("WithName: empty name"))
		}
		c.name = name
	}
}

// WithService namespaces every key of the middleware by service, above the handler's
// namespace (WithName or the job's type): the store keeps StoreKey(Key(service, handler), key).
// Set it when services share a store (one Redis under the default prefix, one SQL table),
// since two services often have handlers of the same name or job type (main.ChargeJob) and
// would otherwise share their keys. Every replica of a service must use the same name.
//
// The default is no service namespace: keys are stored as before it existed, namespaced by
// handler alone, so adding it to a running service changes every stored key (completion
// markers kept before are no longer seen; see "Migrating stored keys" in docs/runtime.md).
// It cannot be combined with WithLegacyKeys, which stores keys as they are.
func WithService(name string) Option {
	return func(c *config) {
		if name == "" {
			c.errs = append(c.errs, errors.New("WithService: empty name (leave the option out for no service namespace)"))
		}
		c.service = name
	}
}

// WithLegacyKeys stores keys as the key function gives them, without namespace or hashing,
// as the middleware did before. It exists for upgrading a store whose records were written
// that way: see "Migrating stored keys" in docs/runtime.md. Such keys may collide between
// handlers, and PostgreSQL cannot store keys with NUL, invalid UTF-8 or more than about 2 KB.
func WithLegacyKeys() Option {
	return func(c *config) { c.legacyKeys = true }
}

// WithMeterProvider sets where the counters are registered (default otel.GetMeterProvider()).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) {
		if mp == nil {
			c.errs = append(c.errs, errors.New("WithMeterProvider: nil provider"))
		}
		c.meter = mp
	}
}

// WithLogger sets the logger (default slog.Default()). Records carry a key hash, never a key.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l == nil {
			c.errs = append(c.errs, errors.New("WithLogger: nil logger"))
		}
		c.logger = l
	}
}

// buildConfig applies opts over the defaults and checks the result. needRetention is false
// for NewForJob, whose jobs report their own retention.
func buildConfig(opts []Option, needRetention bool) (config, error) {
	c := config{lease: DefaultLease, inProgress: RetryLater()}
	for _, o := range opts {
		if o == nil {
			c.errs = append(c.errs, errors.New("nil Option"))
			continue
		}
		o(&c)
	}
	if len(c.errs) > 0 {
		return c, fmt.Errorf("idempotency: %w", errors.Join(c.errs...))
	}
	if c.service != "" && c.legacyKeys {
		return c, errors.New("idempotency: WithService cannot be combined with WithLegacyKeys: legacy keys are stored as the key function gives them, without any namespace")
	}
	if needRetention && c.retention == 0 {
		return c, errors.New("idempotency: WithRetention is required: decide how long duplicates can arrive; there is no default and no 'forever'")
	}
	if c.storeTimeout == 0 {
		c.storeTimeout = min(DefaultStoreTimeout, c.lease/4)
	}
	if c.renewEvery == 0 {
		c.renewEvery = c.lease / 3
	}
	if !c.noRenewal && c.renewEvery+c.storeTimeout >= c.lease {
		return c, fmt.Errorf("idempotency: renew interval %s plus store timeout %s must be less than the lease %s, or a renewal could time out after the lease ran out",
			c.renewEvery, c.storeTimeout, c.lease)
	}
	if c.inProgress.delay == 0 {
		c.inProgress.delay = c.lease / 10
	}
	if c.meter == nil {
		c.meter = otel.GetMeterProvider()
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	return c, nil
}
