package idempotency_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"weak"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// The tests of this file reproduce the defects of the runtime middleware found by the
// adversarial review of issue #32, one test (or more) per item.

// Item 7: a key that ends in ':', '/', '|' or '#' (a URL, a path, a base64 ID, a Key result
// whose last part ends so) is a key like any other, not an empty one.
func TestKeysEndingInASeparatorAreKeys(t *testing.T) {
	ctx := context.Background()
	fromKey, err := idempotency.Key("order", "x:")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"https://shop.example/orders/42/", "exports/2024/", "a|", "tag#", "ns:", fromKey} {
		m := idempotencytest.NewMetrics()
		mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
		if err != nil {
			t.Fatal(err)
		}
		runs := 0
		for range 2 {
			if err := mw.Handle(ctx, k, func(context.Context, string) error { runs++; return nil }); err != nil {
				t.Fatalf("key %q: %v", k, err)
			}
		}
		if runs != 1 || m.Count(t, idempotency.OutcomeCompletedDuplicate) != 1 {
			t.Fatalf("key %q: %d runs, outcomes %v; want one run and one duplicate", k, runs, m.Counts(t))
		}
		if _, err := mw.StoreKeyOf(k); err != nil {
			t.Fatalf("StoreKeyOf(%q): %v", k, err)
		}
	}
}

// Item 12: Key joins its parts unambiguously: no two lists of parts give one key, whatever
// the parts hold, and a single part is no exception.
func TestKeyJoinIsUnambiguous(t *testing.T) {
	lists := [][]string{
		{"order:42"}, {"order", "42"},
		{"a:b", "c"}, {"a", "b:c"}, {"a:b:c"}, {"a", "b", "c"},
		{`a\`, "b"}, {`a\:b`}, {"a", `\b`}, {`a\\`, "b"}, {`a\`, `\b`},
		{"#3#a:b"}, {"a:b"}, {"#3#a:b", "c"},
		{"order-7"}, {"x:"}, {"x", ":"}, {":", "x"}, {":x"},
	}
	seen := map[string][]string{}
	for _, parts := range lists {
		k, err := idempotency.Key(parts...)
		if err != nil {
			t.Fatalf("Key(%q): %v", parts, err)
		}
		if prev, ok := seen[k]; ok {
			t.Errorf("Key(%q) and Key(%q) are both %q", prev, parts, k)
		}
		seen[k] = parts
	}
	// The common case keeps its plain form: a part without ':' or '\' is written as it is.
	if k, _ := idempotency.Key("charge", "pa_123"); k != "charge:pa_123" {
		t.Errorf(`Key("charge", "pa_123") = %q, want "charge:pa_123"`, k)
	}
	if k, _ := idempotency.Key("order-7"); k != "order-7" {
		t.Errorf(`Key("order-7") = %q, want the part itself`, k)
	}
}

// A service-level namespace: services that share a store (one Redis, one SQL table) and
// handlers of the same name keep their keys apart with WithService; without it keys are
// stored as before.
func TestServiceNamespacesKeys(t *testing.T) {
	ctx := context.Background()
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	build := func(opts ...idempotency.Option) *idempotency.Middleware[string] {
		t.Helper()
		mw, err := idempotency.New(key, append([]idempotency.Option{idempotency.WithStore(store), idempotency.WithName("charge"),
			idempotency.WithRetention(time.Hour), quiet}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return mw
	}
	billing, shipping := build(idempotency.WithService("billing")), build(idempotency.WithService("shipping"))
	billingReplica, unset := build(idempotency.WithService("billing")), build()
	runs := map[string]int{}
	for _, c := range []struct {
		name string
		mw   *idempotency.Middleware[string]
	}{{"billing", billing}, {"shipping", shipping}, {"billing", billingReplica}, {"unset", unset}} {
		if err := c.mw.Handle(ctx, "order-42", func(context.Context, string) error { runs[c.name]++; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if runs["billing"] != 1 || runs["shipping"] != 1 || runs["unset"] != 1 {
		t.Fatalf("runs %v; want one per service (a replica of billing shares its keys) and one without a service", runs)
	}
	if got, want := unset.StoreKey("order-42"), idempotency.StoreKey("charge", "order-42"); got != want {
		t.Errorf("without WithService the stored key is %s, want %s as before", got, want)
	}
	if got, want := billing.StoreKey("order-42"), idempotency.StoreKey("billing:charge", "order-42"); got != want {
		t.Errorf("with WithService the stored key is %s, want StoreKey(Key(service, name), key) = %s", got, want)
	}
	for _, bad := range [][]idempotency.Option{
		{idempotency.WithService("")},
		{idempotency.WithService("billing"), idempotency.WithLegacyKeys()},
	} {
		if _, err := idempotency.New(key, append(bad, idempotency.WithRetention(time.Hour))...); err == nil {
			t.Errorf("New accepted %d options that conflict", len(bad))
		}
	}
}

// Item 4: a claim won after waiting (WaitUpTo) holds for a whole lease from when it was won;
// the local lease deadline counted from before the wait, so the handler was cancelled at
// once as if its lease were lost.
func TestWaitUpToLeaseCountsFromTheWonClaim(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []idempotency.Option
	}{
		{"WithoutRenewal", []idempotency.Option{idempotency.WithoutRenewal()}},
		// Renewals a little slow, so that a deadline already past fires before the first
		// renewal's reply could push it back.
		{"WithRenewal", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				mem := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
				slow := &slowRenewals{Store: mem, before: []time.Duration{100 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond}}
				opts := append([]idempotency.Option{idempotency.WithRetention(time.Hour), idempotency.WithLease(3 * time.Second),
					idempotency.WithInProgress(idempotency.WaitUpTo(time.Minute)), quiet}, c.opts...)
				holder, err := idempotency.New(key, append(opts, idempotency.WithStore(mem))...)
				if err != nil {
					t.Fatal(err)
				}
				waiter, err := idempotency.New(key, append(opts, idempotency.WithStore(slow))...)
				if err != nil {
					t.Fatal(err)
				}
				first := make(chan error, 1)
				go func() {
					first <- holder.Handle(t.Context(), "k", func(context.Context, string) error {
						time.Sleep(2500 * time.Millisecond) // inside its 3s lease, renewal or not
						return errors.New("holder failed")  // released: the waiter takes the key
					})
				}()
				synctest.Wait()
				ran := false
				err = waiter.Handle(t.Context(), "k", func(ctx context.Context, _ string) error {
					select {
					case <-time.After(2 * time.Second): // well inside a lease counted from the won claim
						ran = true
						return nil
					case <-ctx.Done():
						return context.Cause(ctx)
					}
				})
				if err != nil || !ran {
					t.Fatalf("the waiter, after winning the claim: ran %v, err %v; want its handler to finish inside its lease", ran, err)
				}
				<-first
			})
		})
	}
}

// renewalsInFlight is a store whose Renew calls take a while, and which counts the calls that
// have started and not yet returned.
type renewalsInFlight struct {
	idempotency.Store
	takes    time.Duration
	inFlight atomic.Int32
}

func (s *renewalsInFlight) Renew(ctx context.Context, key string, token idempotency.Token, lease time.Duration) error {
	s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	time.Sleep(s.takes)
	return s.Store.Renew(ctx, key, token, lease)
}

// Item 16: Handle returned while a renewal was still under way, which then ran on past the
// delivery (against a store the caller may be closing).
func TestHandleWaitsForARenewalInFlight(t *testing.T) {
	for _, c := range []struct {
		name    string
		handler func(ctx context.Context, _ string) error
	}{
		{"Succeeds", func(context.Context, string) error { time.Sleep(1200 * time.Millisecond); return nil }},
		{"Fails", func(context.Context, string) error { time.Sleep(1200 * time.Millisecond); return errors.New("failed") }},
		{"Panics", func(context.Context, string) error { time.Sleep(1200 * time.Millisecond); panic("handler bug") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				store := &renewalsInFlight{Store: idempotency.NewMemoryStore(idempotency.MemoryConfig{}), takes: 500 * time.Millisecond}
				mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
					idempotency.WithLease(3*time.Second), quiet) // a renewal at 1s, under way until 1.5s
				if err != nil {
					t.Fatal(err)
				}
				func() {
					defer func() { _ = recover() }()
					_ = mw.Handle(t.Context(), "k", c.handler)
				}()
				if n := store.inFlight.Load(); n != 0 {
					t.Fatalf("Handle returned with %d renewal(s) still under way", n)
				}
			})
		})
	}
}

// slowCompletions is a store whose first Complete calls hang until their context ends (the
// store never answers, nothing is written) and whose next call takes a while and succeeds.
type slowCompletions struct {
	idempotency.Store
	hang  int           // how many calls hang
	takes time.Duration // how long the call after them takes
	calls atomic.Int32
}

func (s *slowCompletions) Complete(ctx context.Context, key string, token idempotency.Token, retention time.Duration) error {
	if int(s.calls.Add(1)) <= s.hang {
		<-ctx.Done()
		return ctx.Err()
	}
	time.Sleep(s.takes)
	return s.Store.Complete(ctx, key, token, retention)
}

// Item 5: renewal stopped when the handler returned, and the completion's retries (three,
// each up to the store timeout) could outlast the lease: a redelivery then took the key and
// ran the effect again while the first completion was still being retried.
func TestCompletionRetriesKeepTheLease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
		store := &slowCompletions{Store: mem, hang: 2, takes: 700 * time.Millisecond}
		// A 3s lease: renewals every 1s, a 750ms store timeout (the default ratios).
		opts := []idempotency.Option{idempotency.WithRetention(time.Hour), idempotency.WithLease(3 * time.Second), quiet}
		a, err := idempotency.New(key, append(opts, idempotency.WithStore(store))...)
		if err != nil {
			t.Fatal(err)
		}
		b, err := idempotency.New(key, append(opts, idempotency.WithStore(mem))...)
		if err != nil {
			t.Fatal(err)
		}
		var effects atomic.Int32
		effect := func(context.Context, string) error { effects.Add(1); return nil }
		done := make(chan error, 1)
		go func() {
			done <- a.Handle(t.Context(), "k", func(ctx context.Context, k string) error {
				time.Sleep(1900 * time.Millisecond) // the last renewal at 1s: the lease holds to 4s
				return effect(ctx, k)
			})
		}()
		// A's completion: 1.9-2.65s (no answer), 2.67-3.42s (no answer), 3.46-4.16s (stored).
		time.Sleep(4050 * time.Millisecond)
		if err := b.Handle(t.Context(), "k", effect); !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("a redelivery while A still completes: %v; want it deferred, A's claim kept alive", err)
		}
		if err := <-done; err != nil {
			t.Fatalf("A: %v; want its completion stored on the third try", err)
		}
		if err := b.Handle(t.Context(), "k", effect); err != nil {
			t.Fatalf("a redelivery after A completed: %v", err)
		}
		if n := effects.Load(); n != 1 {
			t.Fatalf("the effect ran %d times, want once", n)
		}
	})
}

// Found while fixing item 5: the renewal's log lines passed the raw key where the stored key
// was expected, so their key_hash was the key's first 16 bytes (personal data in the logs),
// and a key shorter than that made the renewal goroutine panic.
func TestRenewalLogsCarryTheKeyHash(t *testing.T) {
	for _, k := range []string{"customer-jane.doe@example.com", "k"} {
		synctest.Test(t, func(t *testing.T) {
			var logs bytes.Buffer
			store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
			mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
				idempotency.WithLease(3*time.Second), idempotency.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
			if err != nil {
				t.Fatal(err)
			}
			_ = mw.Handle(t.Context(), k, func(ctx context.Context, _ string) error {
				c, _ := idempotency.ClaimFromContext(ctx)
				_ = store.Release(ctx, c.StoreKey, c.Token) // taken from under it: the renewal is refused
				_, _ = store.Claim(ctx, idempotency.ClaimRequest{Key: c.StoreKey, Owner: "thief", Lease: time.Hour})
				<-ctx.Done()
				return context.Cause(ctx)
			})
			out := logs.String()
			if !strings.Contains(out, "claim lost to another worker") || !strings.Contains(out, "key_hash="+mw.StoreKey(k)[:16]) {
				t.Fatalf("logs %q; want the lost claim logged with the stored key's hash", out)
			}
			if len(k) >= 16 && strings.Contains(out, k[:16]) {
				t.Fatalf("logs %q carry the key itself", out)
			}
		})
	}
}

// Item 11: the middleware installed twice on one handler (mux-wide and on the handler, as the
// docs show both) found its own claim in progress, deferred the job, released, and so never
// ran it. The inner install passes the job through when the context already holds the claim
// on that key.
func TestDoubleInstallPassesThrough(t *testing.T) {
	ctx := context.Background()
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	m := idempotencytest.NewMetrics()
	build := func() *idempotency.Middleware[string] {
		mw, err := idempotency.New(key, idempotency.WithStore(store), idempotency.WithName("charge"),
			idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
		if err != nil {
			t.Fatal(err)
		}
		return mw
	}
	outer, inner := build(), build()
	runs := 0
	h := outer.Wrap(inner.Wrap(func(ctx context.Context, _ string) error {
		runs++
		return idempotency.SetResult(ctx, []byte("receipt")) // reaches the outer claim
	}))
	for range 2 {
		if err := h(ctx, "order-42"); err != nil {
			t.Fatalf("doubly wrapped handler: %v", err)
		}
	}
	res, dup, err := outer.HandleResult(ctx, "order-42", nil)
	if runs != 1 || err != nil || !dup || string(res) != "receipt" {
		t.Fatalf("%d runs, then %q duplicate %v %v; want one run whose result was kept", runs, res, dup, err)
	}
	counts := m.Counts(t)
	if counts[idempotency.OutcomeClaimed] != 1 || counts[idempotency.OutcomeCompleted] != 1 || counts[idempotency.OutcomeCompletedDuplicate] != 2 ||
		counts[idempotency.OutcomeInProgressDuplicate] != 0 {
		t.Fatalf("outcomes %v; want one claim, completed, then duplicates, and no in-progress duplicate", counts)
	}
	// A nested job of its own (another key) is still protected on its own.
	nested := 0
	if err := outer.Handle(ctx, "order-43", func(ctx context.Context, _ string) error {
		return inner.Handle(ctx, "refund-7", func(context.Context, string) error { nested++; return nil })
	}); err != nil || nested != 1 {
		t.Fatalf("a nested job of another key: %v, ran %d; want it run once", err, nested)
	}
	if st, _ := store.Inspect(ctx, inner.StoreKey("refund-7")); st.Status != idempotency.StatusCompleted {
		t.Fatalf("the nested job's key is %s, want completed", st.Status)
	}
}

// Item 17: the span of a delivery whose handler panicked ended without an error status, so
// the crash looked like a success in traces. The panic itself goes on to the caller.
func TestPanicSpanHasErrorStatus(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), idempotency.WithTracerProvider(tp), quiet)
	if err != nil {
		t.Fatal(err)
	}
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		_ = mw.Handle(context.Background(), "k", func(context.Context, string) error { panic("handler bug") })
	}()
	if recovered != "handler bug" {
		t.Fatalf("recovered %v, want the handler's own panic", recovered)
	}
	spans := rec.Ended()
	if len(spans) != 1 || spans[0].Name() != idempotency.SpanHandle {
		t.Fatalf("%d spans ended, want the delivery's", len(spans))
	}
	if st := spans[0].Status(); st.Code != codes.Error || !strings.Contains(st.Description, "panic") {
		t.Fatalf("span status %+v, want an error that says the handler panicked", st)
	}
}

// Item 18: a WaitUpTo delivery whose context ended while it waited for the holder counted no
// outcome at all. It is deferred like a wait that runs out: in_progress_duplicate.
func TestWaitUpToCancelledCountsAnOutcome(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := idempotencytest.NewMetrics()
		mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider),
			idempotency.WithInProgress(idempotency.WaitUpTo(time.Minute)), quiet)
		if err != nil {
			t.Fatal(err)
		}
		first := make(chan error, 1)
		go func() {
			first <- mw.Handle(t.Context(), "k", func(context.Context, string) error { time.Sleep(10 * time.Second); return nil })
		}()
		synctest.Wait()
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second) // the queue gives up on the delivery
		defer cancel()
		ran := false
		err = mw.Handle(ctx, "k", func(context.Context, string) error { ran = true; return nil })
		if !errors.Is(err, context.DeadlineExceeded) || ran {
			t.Fatalf("a wait cut short: err %v, ran %v; want the context's error and no run", err, ran)
		}
		if err := <-first; err != nil {
			t.Fatal(err)
		}
		want := map[idempotency.Outcome]int64{idempotency.OutcomeClaimed: 1, idempotency.OutcomeCompleted: 1, idempotency.OutcomeInProgressDuplicate: 1}
		for _, o := range idempotency.Outcomes {
			if got := m.Count(t, o); got != want[o] {
				t.Errorf("outcome %s counted %d, want %d", o, got, want[o])
			}
		}
	})
}

// Item 19: a job's own IdempotencyRetention() of 72ns (72 meant as hours) was taken, and
// its completion marker expired at once: WithRetention's 1ms floor applies to it too. The
// job is rejected before it runs, fallback or not, since the job meant some retention.
func TestJobRetentionIsChecked(t *testing.T) {
	for _, opts := range [][]idempotency.Option{nil, {idempotency.WithRetention(time.Hour)}} {
		mw, err := idempotency.NewForJob[invoice](append(opts, quiet)...)
		if err != nil {
			t.Fatal(err)
		}
		ran := false
		err = mw.Handle(context.Background(), invoice{ID: "9", Retention: 72}, func(context.Context, invoice) error { ran = true; return nil })
		var re *idempotency.RetentionError
		if !errors.As(err, &re) || re.Retention != 72 || !idempotency.IsPermanent(err) || ran {
			t.Fatalf("a job retention of 72ns: err %v, ran %v; want a permanent *RetentionError before running", err, ran)
		}
		if !errors.Is(err, idempotency.ErrNoRetention) {
			t.Fatalf("%v does not match ErrNoRetention", err)
		}
		// The floor itself is accepted.
		if err := mw.Handle(context.Background(), invoice{ID: "10", Retention: time.Millisecond}, func(context.Context, invoice) error { return nil }); err != nil {
			t.Fatalf("a job retention of 1ms: %v", err)
		}
	}
}

// A memory store reports how full it is: the records it holds and their share of its
// capacity, on gauges. Observing them sweeps the shards whose sweep is due, so an idle store
// drops its expired records on the reader's schedule too, not only when claims come.
func TestMemoryStoreGauges(t *testing.T) {
	ctx := context.Background()
	clock := idempotencytest.NewClock(time.Time{})
	m := idempotencytest.NewMetrics()
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Capacity: 64, Clock: clock, MeterProvider: m.Provider, Name: "orders"})
	for i := range 16 {
		if _, err := store.Claim(ctx, idempotency.ClaimRequest{Key: fmt.Sprint("k", i), Owner: "o", Lease: time.Minute}); err != nil {
			t.Fatal(err)
		}
	}
	named := attribute.String(idempotency.AttrStore, "orders")
	gauge := func(name string) float64 {
		t.Helper()
		v, ok := m.Gauge(t, name, named)
		if !ok {
			t.Fatalf("no %s gauge for the store", name)
		}
		return v
	}
	if r, u := gauge(idempotency.MetricMemoryRecords), gauge(idempotency.MetricMemoryUtilization); r != 16 || u != 0.25 {
		t.Fatalf("records %v, utilization %v; want 16 and 0.25 of the 64 capacity", r, u)
	}
	clock.Advance(2 * time.Minute) // past the leases and the sweep interval, with no claim since
	if r := gauge(idempotency.MetricMemoryRecords); r != 0 || store.Len() != 0 {
		t.Fatalf("after the leases ran out: records %v, %d kept; want the expired records swept", r, store.Len())
	}
	// The middleware's own store reports on the middleware's meter, under its name.
	mm := idempotencytest.NewMetrics()
	mw, err := idempotency.New(key, idempotency.WithName("charge"), idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(mm.Provider), quiet)
	if err != nil {
		t.Fatal(err)
	}
	if err := mw.Handle(ctx, "k", func(context.Context, string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if v, ok := mm.Gauge(t, idempotency.MetricMemoryRecords, attribute.String(idempotency.AttrStore, "charge")); !ok || v != 1 {
		t.Fatalf("the default store's records gauge: %v %v, want 1", v, ok)
	}
}

// The gauges' registration does not keep a store alive: a provider that outlives its stores
// (the global one) must not hold every store ever made.
func TestMemoryStoreGaugesDoNotKeepTheStore(t *testing.T) {
	m := idempotencytest.NewMetrics()
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{MeterProvider: m.Provider})
	gone := weak.Make(store)
	store = nil
	for range 5 {
		runtime.GC()
	}
	if gone.Value() != nil {
		t.Fatal("the store is still reachable after its last use; the gauges' callback holds it")
	}
	if _, ok := m.Gauge(t, idempotency.MetricMemoryRecords); ok {
		t.Fatal("a collected store still reports its gauges")
	}
	_ = store
}
