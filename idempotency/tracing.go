package idempotency

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Span and attribute names of the middleware's traces.
const (
	SpanHandle  = "idempotency.handle"
	AttrKeyHash = "idempotency.key_hash"
	AttrEpoch   = "idempotency.epoch"
	// The span's outcome attribute: the last outcome counted for the delivery.
	AttrSpanOutcome = "idempotency.outcome"
)

// WithTracerProvider sets where the middleware's spans go. Each delivery gets a span,
// SpanHandle, around the claim, the handler (whose context carries it, so the handler's own
// spans are its children) and the completion, with the outcome and the key hash as
// attributes. Without this option the middleware traces only deliveries whose context
// already carries a recording span (the queue's instrumentation), through
// otel.GetTracerProvider(), so untraced deliveries cost nothing.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) {
		if tp == nil {
			c.errs = append(c.errs, errors.New("WithTracerProvider: nil provider"))
		}
		c.tracerProvider = tp
	}
}

// tracing holds the tracer; explicit says whether every delivery is traced.
type tracing struct {
	tracer   trace.Tracer
	explicit bool
}

func newTracing(tp trace.TracerProvider) tracing {
	if tp != nil {
		return tracing{tracer: tp.Tracer(instrumentationName), explicit: true}
	}
	return tracing{tracer: otel.GetTracerProvider().Tracer(instrumentationName)}
}

// start starts the delivery's span, or returns ctx and nil when the delivery is not traced.
func (tr tracing) start(ctx context.Context, handler string) (context.Context, trace.Span) {
	if !tr.explicit && !trace.SpanFromContext(ctx).IsRecording() {
		return ctx, nil
	}
	return tr.tracer.Start(ctx, SpanHandle, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(attribute.String(AttrHandler, handler)))
}

// spanError records the delivery's error on span: an error status for failures, none for a
// deferred duplicate, which is no failure.
func spanError(span trace.Span, err error) {
	if err != nil && !errors.Is(err, ErrInProgress) {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
}

// spanPanic ends the story of a delivery whose handler did not return: an error status on
// span, then the panic v again (nil under runtime.Goexit, which goes on by itself).
func spanPanic(span trace.Span, v any) {
	if v == nil {
		span.SetStatus(codes.Error, "idempotency: the handler did not return (runtime.Goexit)")
		return
	}
	err := fmt.Errorf("idempotency: the handler panicked: %v", v)
	span.RecordError(err, trace.WithStackTrace(true))
	span.SetStatus(codes.Error, err.Error())
	span.End() // the caller would end it after this call, which the panic never returns from
	panic(v)
}

// annotate sets one attribute on ctx's span if it is recording. One attribute, not a
// variadic list: the list would be allocated on every call, traced or not.
func annotate(ctx context.Context, kv attribute.KeyValue) {
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(kv)
	}
}

// since is the seconds from start to now, for the latency histogram.
func since(start time.Time) float64 { return time.Since(start).Seconds() }
