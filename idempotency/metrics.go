package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Outcome is the value of the "outcome" attribute on the claims counter.
type Outcome string

// The outcomes, one per event a delivery can meet. A delivery that runs the handler counts
// OutcomeClaimed and then exactly one of OutcomeCompleted, OutcomeCompleteFailed,
// OutcomeCompleteConflict, OutcomeReleased, OutcomeReleaseFailed, OutcomeClaimLost,
// OutcomeKept or OutcomeNeedsReview.
const (
	// OutcomeClaimed: the key was free; the handler runs.
	OutcomeClaimed Outcome = "claimed"
	// OutcomeCompleted: the handler succeeded and its completion marker is stored.
	OutcomeCompleted Outcome = "completed"
	// OutcomeCompletedDuplicate: the key was already completed; the delivery was
	// acknowledged without running the handler.
	OutcomeCompletedDuplicate Outcome = "completed_duplicate"
	// OutcomeInProgressDuplicate: another worker holds a live claim; the delivery was
	// deferred (RetryLater, or WaitUpTo that ran out or whose context ended while it waited)
	// or dropped (SkipDuplicate).
	OutcomeInProgressDuplicate Outcome = "in_progress_duplicate"
	// OutcomeReleased: the handler failed and its claim was released for a retry.
	OutcomeReleased Outcome = "released"
	// OutcomeCompleteConflict: the handler finished but its claim had been taken over, so no
	// completion was recorded. Investigate: the side effect may have run twice.
	OutcomeCompleteConflict Outcome = "complete_conflict"
	// OutcomeEmptyKey: the key function gave an empty key; the attribute "policy" says
	// whether the job was rejected or run unprotected.
	OutcomeEmptyKey Outcome = "empty_key"
	// OutcomeFingerprintMismatch: the key is held or completed for a different payload; the
	// job was rejected.
	OutcomeFingerprintMismatch Outcome = "fingerprint_mismatch"
	// OutcomeKeyError: the key or fingerprint function failed; the job was rejected.
	OutcomeKeyError Outcome = "key_error"
	// OutcomeCompleteFailed: the handler succeeded but the store did not take its completion
	// marker; the job runs again after the lease.
	OutcomeCompleteFailed Outcome = "complete_failed"
	// OutcomeReleaseFailed: the handler failed and releasing its claim failed too; the key
	// stays blocked until the lease ends.
	OutcomeReleaseFailed Outcome = "release_failed"
	// OutcomeClaimLost: the handler failed after its claim had been taken over (a fenced
	// worker); there was nothing of its own to release.
	OutcomeClaimLost Outcome = "claim_lost"
	// OutcomeKept: the handler failed and its claim was kept until its lease ends
	// (WithKeepClaimOn, or NeedsReview with a store that cannot keep a failed marker).
	OutcomeKept Outcome = "kept"
	// OutcomeNeedsReview: the handler asked for manual review (NeedsReview, WithNeedsReview)
	// and its key was marked failed: later deliveries are acknowledged without running it
	// until an operator retries or forgets the key.
	OutcomeNeedsReview Outcome = "needs_review"
	// OutcomeNeedsReviewDuplicate: the key is marked failed for manual review; the delivery
	// was acknowledged without running the handler (or, WithNeedsReviewReplay, given the
	// failure again).
	OutcomeNeedsReviewDuplicate Outcome = "needs_review_duplicate"
)

// Outcomes lists every Outcome, in a stable order.
var Outcomes = []Outcome{
	OutcomeClaimed, OutcomeCompleted, OutcomeCompletedDuplicate, OutcomeInProgressDuplicate,
	OutcomeReleased, OutcomeCompleteConflict, OutcomeEmptyKey, OutcomeFingerprintMismatch,
	OutcomeKeyError, OutcomeCompleteFailed, OutcomeReleaseFailed, OutcomeClaimLost, OutcomeKept,
	OutcomeNeedsReview, OutcomeNeedsReviewDuplicate,
}

// Metric and attribute names. The claims counter's name and its outcome values come from the
// ChokaQ middleware, so dashboards carry over.
const (
	MetricClaims      = "chokaq.idempotency.claims"
	MetricStoreErrors = "chokaq.idempotency.store_errors"
	// MetricStoreDuration is a histogram of store call latencies in seconds, by operation.
	MetricStoreDuration = "chokaq.idempotency.store.duration"
	// MetricMemoryRecords is a gauge of the records a MemoryStore holds: its live claims and
	// completion markers, and the expired ones not swept yet (at most a sweep interval's).
	MetricMemoryRecords = "chokaq.idempotency.memory.records"
	// MetricMemoryUtilization is a gauge of a MemoryStore's records as a share of its
	// capacity, from 0 to 1: at 1 it refuses every new claim (ErrStoreFull).
	MetricMemoryUtilization = "chokaq.idempotency.memory.utilization"
	AttrOutcome             = "outcome"
	AttrHandler             = "handler"
	AttrPolicy              = "policy"
	AttrOperation           = "operation"
	// AttrStore names a MemoryStore on its gauges (MemoryConfig.Name; the handler's name for
	// a middleware's own store).
	AttrStore = "store"
)

const instrumentationName = "github.com/chokaq/idemlint/idempotency"

// instruments holds the counters with their attribute sets built once, so counting on the hot
// path allocates nothing.
type instruments struct {
	claims      metric.Int64Counter
	storeErrors metric.Int64Counter
	storeTime   metric.Float64Histogram
	opRecord    map[string][]metric.RecordOption
	outcomes    map[Outcome][]metric.AddOption
	emptyKey    map[EmptyKeyPolicy][]metric.AddOption
	operations  map[string][]metric.AddOption
}

func newInstruments(mp metric.MeterProvider, handler string) (*instruments, error) {
	meter := mp.Meter(instrumentationName)
	claims, err := meter.Int64Counter(MetricClaims,
		metric.WithDescription("Idempotency middleware decisions, by outcome."),
		metric.WithUnit("{delivery}"))
	if err != nil {
		return nil, err
	}
	storeErrors, err := meter.Int64Counter(MetricStoreErrors,
		metric.WithDescription("Idempotency store calls that failed, by operation."),
		metric.WithUnit("{call}"))
	if err != nil {
		return nil, err
	}
	storeTime, err := meter.Float64Histogram(MetricStoreDuration,
		metric.WithDescription("Idempotency store call latency, by operation."),
		metric.WithUnit("s"),
		metric.WithExplicitBucketBoundaries(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
	if err != nil {
		return nil, err
	}
	in := &instruments{
		claims:      claims,
		storeErrors: storeErrors,
		storeTime:   storeTime,
		opRecord:    map[string][]metric.RecordOption{},
		outcomes:    map[Outcome][]metric.AddOption{},
		emptyKey:    map[EmptyKeyPolicy][]metric.AddOption{},
		operations:  map[string][]metric.AddOption{},
	}
	set := func(kv ...attribute.KeyValue) []metric.AddOption {
		if handler != "" {
			kv = append(kv, attribute.String(AttrHandler, handler))
		}
		return []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(kv...))}
	}
	for _, o := range Outcomes {
		in.outcomes[o] = set(attribute.String(AttrOutcome, string(o)))
	}
	for _, p := range []EmptyKeyPolicy{RejectEmptyKey, RunUnprotected} {
		in.emptyKey[p] = set(attribute.String(AttrOutcome, string(OutcomeEmptyKey)), attribute.String(AttrPolicy, p.String()))
	}
	for _, op := range []string{opClaim, opRenew, opComplete, opRelease, opStep, opFail} {
		in.operations[op] = set(attribute.String(AttrOperation, op))
		kv := []attribute.KeyValue{attribute.String(AttrOperation, op)}
		if handler != "" {
			kv = append(kv, attribute.String(AttrHandler, handler))
		}
		in.opRecord[op] = []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(kv...))}
	}
	return in, nil
}

const (
	opClaim    = "claim"
	opRenew    = "renew"
	opComplete = "complete"
	opRelease  = "release"
	opStep     = "step" // StepStore.LoadSteps and SaveStep
	opFail     = "fail" // ReviewStore.Fail
)

func (in *instruments) count(ctx context.Context, o Outcome) {
	in.claims.Add(ctx, 1, in.outcomes[o]...)
	if out, ok := ctx.Value(outcomeKey{}).(*Outcome); ok {
		*out = o
	}
	annotate(ctx, attribute.String(AttrSpanOutcome, string(o)))
}

// storeCall records the latency of one store call that started at start.
func (in *instruments) storeCall(ctx context.Context, op string, start time.Time) {
	in.storeTime.Record(ctx, since(start), in.opRecord[op]...)
}

func (in *instruments) countEmptyKey(ctx context.Context, p EmptyKeyPolicy) {
	in.claims.Add(ctx, 1, in.emptyKey[p]...)
	if out, ok := ctx.Value(outcomeKey{}).(*Outcome); ok {
		*out = OutcomeEmptyKey
	}
	annotate(ctx, attribute.String(AttrSpanOutcome, string(OutcomeEmptyKey)))
}

func (in *instruments) storeError(ctx context.Context, op string) {
	in.storeErrors.Add(ctx, 1, in.operations[op]...)
}

// KeyHash is the short, stable hash of a key that logs and errors carry instead of the key,
// which may be personal data. Use it to find a key's log lines.
func KeyHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// keyHash is the key_hash of logs and errors for a store key: the first 16 hex digits of a
// hashed store key (a prefix of the record's key, to find it by), or KeyHash of a raw one.
func (c *core) keyHash(storeKey string) string {
	if c.legacyKeys {
		return KeyHash(storeKey)
	}
	return storeKey[:16]
}

// log writes one record about the key stored as storeKey, computing the key hash only when
// the record will be written.
func (c *core) log(ctx context.Context, level slog.Level, msg, storeKey string, attrs ...slog.Attr) {
	if !c.logger.Enabled(ctx, level) {
		return
	}
	if storeKey != "" {
		attrs = append(attrs, slog.String("key_hash", c.keyHash(storeKey)))
	}
	if c.name != "" {
		attrs = append(attrs, slog.String("handler", c.name))
	}
	c.logger.LogAttrs(ctx, level, msg, attrs...)
}
