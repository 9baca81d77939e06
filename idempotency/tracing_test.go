package idempotency_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func TestSpansAndStoreLatency(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	m := idempotencytest.NewMetrics()
	mw, err := idempotency.New(key, idempotency.WithName("charge"), idempotency.WithRetention(time.Hour),
		idempotency.WithTracerProvider(tp), idempotency.WithMeterProvider(m.Provider), quiet)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var inner trace.SpanContext
	if err := mw.Handle(ctx, "k", func(ctx context.Context, _ string) error {
		_, s := tp.Tracer("test").Start(ctx, "charge the card")
		inner = s.SpanContext()
		s.End()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("declined")
	_ = mw.Handle(ctx, "k2", func(context.Context, string) error { return boom })
	_ = mw.Handle(ctx, "k", func(context.Context, string) error { return nil })

	var handles []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == idempotency.SpanHandle {
			handles = append(handles, s)
		}
	}
	if len(handles) != 3 {
		t.Fatalf("%d %s spans, want one per delivery", len(handles), idempotency.SpanHandle)
	}
	attr := func(s sdktrace.ReadOnlySpan, k string) string {
		for _, kv := range s.Attributes() {
			if string(kv.Key) == k {
				return kv.Value.Emit()
			}
		}
		return ""
	}
	for i, want := range []string{"completed", "released", "completed_duplicate"} {
		if got := attr(handles[i], idempotency.AttrSpanOutcome); got != want {
			t.Errorf("span %d: outcome %q, want %q", i, got, want)
		}
		if attr(handles[i], idempotency.AttrKeyHash) == "" || attr(handles[i], idempotency.AttrHandler) != "charge" {
			t.Errorf("span %d: attributes %v, want the key hash and the handler", i, handles[i].Attributes())
		}
	}
	if handles[1].Status().Code != codes.Error || handles[0].Status().Code == codes.Error {
		t.Errorf("statuses %v, %v; want an error for the failed handler only", handles[0].Status(), handles[1].Status())
	}
	for _, s := range rec.Ended() {
		if s.SpanContext().SpanID() == inner.SpanID() && s.Parent().SpanID() != handles[0].SpanContext().SpanID() {
			t.Error("the handler's span is not a child of the delivery's")
		}
	}
	if n := m.StoreCalls(t, "claim"); n != 3 {
		t.Errorf("claim latencies recorded %d, want 3", n)
	}
	if n := m.StoreCalls(t, "complete"); n != 1 {
		t.Errorf("complete latencies recorded %d, want 1", n)
	}
	if n := m.StoreCalls(t, "release"); n != 1 {
		t.Errorf("release latencies recorded %d, want 1", n)
	}
}

// Without a tracer provider, only deliveries that arrive traced are traced.
func TestNoSpanWithoutAParent(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), quiet)
	if err != nil {
		t.Fatal(err)
	}
	var seen trace.Span
	if err := mw.Handle(context.Background(), "k", func(ctx context.Context, _ string) error {
		seen = trace.SpanFromContext(ctx)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if seen.IsRecording() || len(rec.Ended()) != 0 {
		t.Fatal("an untraced delivery was traced")
	}
	_ = tp
}
