package idempotencytest

import (
	"context"
	"testing"

	"github.com/chokaq/idemlint/idempotency"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// Metrics collects what a middleware counts, in memory. Pass Provider to
// idempotency.WithMeterProvider and read the counters back with Count and StoreErrors.
type Metrics struct {
	Provider metric.MeterProvider
	reader   *sdkmetric.ManualReader
}

// NewMetrics returns an empty collector.
func NewMetrics() *Metrics {
	r := sdkmetric.NewManualReader()
	return &Metrics{Provider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(r)), reader: r}
}

// Count returns how many deliveries were counted with outcome, across all other attributes.
func (m *Metrics) Count(t testing.TB, outcome idempotency.Outcome) int64 {
	t.Helper()
	return m.sum(t, idempotency.MetricClaims, attribute.String(idempotency.AttrOutcome, string(outcome)))
}

// CountWith returns how many deliveries were counted with all of the given attributes.
func (m *Metrics) CountWith(t testing.TB, attrs ...attribute.KeyValue) int64 {
	t.Helper()
	return m.sum(t, idempotency.MetricClaims, attrs...)
}

// Counts returns the count of every outcome.
func (m *Metrics) Counts(t testing.TB) map[idempotency.Outcome]int64 {
	t.Helper()
	out := map[idempotency.Outcome]int64{}
	for _, o := range idempotency.Outcomes {
		out[o] = m.Count(t, o)
	}
	return out
}

// StoreErrors returns how many store calls of the given operation ("claim", "renew",
// "complete", "release") failed.
func (m *Metrics) StoreErrors(t testing.TB, operation string) int64 {
	t.Helper()
	return m.sum(t, idempotency.MetricStoreErrors, attribute.String(idempotency.AttrOperation, operation))
}

func (m *Metrics) sum(t testing.TB, name string, want ...attribute.KeyValue) int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := m.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatalf("collecting metrics: %v", err)
	}
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, mt := range sm.Metrics {
			if mt.Name != name {
				continue
			}
			sum, ok := mt.Data.(metricdata.Sum[int64])
			if !ok {
				t.Fatalf("metric %s is %T, want an int64 sum", name, mt.Data)
			}
		points:
			for _, dp := range sum.DataPoints {
				for _, kv := range want {
					if v, ok := dp.Attributes.Value(kv.Key); !ok || v != kv.Value {
						continue points
					}
				}
				n += dp.Value
			}
		}
	}
	return n
}

// StoreCalls returns how many store calls of the given operation the latency histogram
// (idempotency.MetricStoreDuration) has recorded.
func (m *Metrics) StoreCalls(t testing.TB, operation string) uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := m.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatalf("collecting metrics: %v", err)
	}
	var n uint64
	for _, sm := range rm.ScopeMetrics {
		for _, mt := range sm.Metrics {
			h, ok := mt.Data.(metricdata.Histogram[float64])
			if mt.Name != idempotency.MetricStoreDuration || !ok {
				continue
			}
			for _, dp := range h.DataPoints {
				if v, ok := dp.Attributes.Value(idempotency.AttrOperation); ok && v.AsString() == operation {
					n += dp.Count
				}
			}
		}
	}
	return n
}

// Gauge returns the value of the gauge name (an int64 or float64 one) on the data point that
// has all of the given attributes, and whether there is one. Reading it runs the gauges'
// callbacks.
func (m *Metrics) Gauge(t testing.TB, name string, attrs ...attribute.KeyValue) (float64, bool) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := m.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatalf("collecting metrics: %v", err)
	}
	has := func(set attribute.Set) bool {
		for _, kv := range attrs {
			if v, ok := set.Value(kv.Key); !ok || v != kv.Value {
				return false
			}
		}
		return true
	}
	for _, sm := range rm.ScopeMetrics {
		for _, mt := range sm.Metrics {
			if mt.Name != name {
				continue
			}
			switch g := mt.Data.(type) {
			case metricdata.Gauge[int64]:
				for _, dp := range g.DataPoints {
					if has(dp.Attributes) {
						return float64(dp.Value), true
					}
				}
			case metricdata.Gauge[float64]:
				for _, dp := range g.DataPoints {
					if has(dp.Attributes) {
						return dp.Value, true
					}
				}
			default:
				t.Fatalf("metric %s is %T, want a gauge", name, mt.Data)
			}
		}
	}
	return 0, false
}
