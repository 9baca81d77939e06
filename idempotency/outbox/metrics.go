package outbox

import (
	"context"
	"math"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Metric and attribute names, beside the middleware's (package idempotency's MetricClaims).
const (
	// MetricPublished counts the messages the relay published and marked published.
	MetricPublished = "chokaq.idempotency.outbox.published"
	// MetricPublishFailures counts the publishes that failed; each one delays its message
	// (and the later messages of its topic) by the backoff.
	MetricPublishFailures = "chokaq.idempotency.outbox.publish_failures"
	// MetricDeleted counts the published rows deleted after the retention.
	MetricDeleted = "chokaq.idempotency.outbox.deleted"
	// MetricErrors counts the relay's database calls that failed, by operation ("fetch",
	// "mark", "cleanup", "stats"). A failed mark means the batch is published again.
	MetricErrors = "chokaq.idempotency.outbox.errors"
	// MetricPending is a gauge of the messages not published yet, read every
	// Config.StatsInterval while Run runs.
	MetricPending = "chokaq.idempotency.outbox.pending"
	// MetricLag is a gauge of the age of the oldest message not published yet, in seconds (0
	// when none is pending): how far behind the relay is. A lag that keeps growing while the
	// pending count does not is a topic held back by a message that keeps failing.
	MetricLag = "chokaq.idempotency.outbox.lag"
	// AttrRelay names the relay (Config.Name) on its metrics.
	AttrRelay = "relay"
	// AttrOperation names the failed database call on MetricErrors.
	AttrOperation = "operation"
)

const instrumentationName = "github.com/chokaq/idemlint/idempotency/outbox"

const (
	opFetch   = "fetch"
	opMark    = "mark"
	opCleanup = "cleanup"
	opStats   = "stats"
)

// instruments holds the relay's instruments with their attribute sets built once.
type instruments struct {
	meter      metric.Meter
	published  metric.Int64Counter
	failures   metric.Int64Counter
	deleted    metric.Int64Counter
	errors     metric.Int64Counter
	pending    metric.Int64ObservableGauge
	lag        metric.Float64ObservableGauge
	attrs      []metric.AddOption
	observe    []metric.ObserveOption
	operations map[string][]metric.AddOption

	// The last stats read, for the gauges.
	pendingN atomic.Int64
	lagBits  atomic.Uint64
}

func newInstruments(mp metric.MeterProvider, relay string) (*instruments, error) {
	meter := mp.Meter(instrumentationName)
	in := &instruments{meter: meter, operations: map[string][]metric.AddOption{}}
	var err error
	if in.published, err = meter.Int64Counter(MetricPublished,
		metric.WithDescription("Outbox messages published."), metric.WithUnit("{message}")); err != nil {
		return nil, err
	}
	if in.failures, err = meter.Int64Counter(MetricPublishFailures,
		metric.WithDescription("Outbox publishes that failed and were put off by the backoff."), metric.WithUnit("{message}")); err != nil {
		return nil, err
	}
	if in.deleted, err = meter.Int64Counter(MetricDeleted,
		metric.WithDescription("Published outbox rows deleted after the retention."), metric.WithUnit("{message}")); err != nil {
		return nil, err
	}
	if in.errors, err = meter.Int64Counter(MetricErrors,
		metric.WithDescription("Outbox relay database calls that failed, by operation."), metric.WithUnit("{call}")); err != nil {
		return nil, err
	}
	if in.pending, err = meter.Int64ObservableGauge(MetricPending,
		metric.WithDescription("Outbox messages not published yet."), metric.WithUnit("{message}")); err != nil {
		return nil, err
	}
	if in.lag, err = meter.Float64ObservableGauge(MetricLag,
		metric.WithDescription("Age of the oldest outbox message not published yet."), metric.WithUnit("s")); err != nil {
		return nil, err
	}
	var kv []attribute.KeyValue
	if relay != "" {
		kv = append(kv, attribute.String(AttrRelay, relay))
	}
	set := attribute.NewSet(kv...)
	in.attrs = []metric.AddOption{metric.WithAttributeSet(set)}
	in.observe = []metric.ObserveOption{metric.WithAttributeSet(set)}
	for _, op := range []string{opFetch, opMark, opCleanup, opStats} {
		in.operations[op] = []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(append(kv[:len(kv):len(kv)], attribute.String(AttrOperation, op))...))}
	}
	return in, nil
}

// register starts reporting the gauges; the registration ends when Run returns.
func (in *instruments) register() (metric.Registration, error) {
	return in.meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		o.ObserveInt64(in.pending, in.pendingN.Load(), in.observe...)
		o.ObserveFloat64(in.lag, math.Float64frombits(in.lagBits.Load()), in.observe...)
		return nil
	}, in.pending, in.lag)
}

func (in *instruments) setStats(s Stats) {
	in.pendingN.Store(s.Pending)
	in.lagBits.Store(math.Float64bits(s.Lag.Seconds()))
}

func (in *instruments) failed(ctx context.Context, op string) {
	in.errors.Add(ctx, 1, in.operations[op]...)
}
