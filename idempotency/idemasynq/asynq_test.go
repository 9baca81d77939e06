package idemasynq_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/hibiken/asynq"
)

type chargePayload struct {
	AttemptID string `json:"attempt_id"`
	Amount    int    `json:"amount"`
}

func task(t *testing.T, attempt string, amount int) *asynq.Task {
	t.Helper()
	b, err := json.Marshal(chargePayload{AttemptID: attempt, Amount: amount})
	if err != nil {
		t.Fatal(err)
	}
	return asynq.NewTask("payment:charge", b)
}

func newMiddleware(t *testing.T, opts ...idempotency.Option) asynq.MiddlewareFunc {
	t.Helper()
	mw, err := idemasynq.New("payment:charge", idemasynq.PayloadKey(func(p chargePayload) string { return p.AttemptID }),
		append([]idempotency.Option{
			idempotency.WithRetention(time.Hour),
			idempotency.WithFingerprint(idemasynq.PayloadFingerprint),
			idempotency.WithLogger(slog.New(slog.DiscardHandler)),
		}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return mw
}

func TestMiddleware(t *testing.T) {
	ctx := context.Background()
	var runs atomic.Int32
	var seen idempotency.Claim
	running, finish := make(chan struct{}), make(chan struct{})
	h := newMiddleware(t)(asynq.HandlerFunc(func(ctx context.Context, task *asynq.Task) error {
		runs.Add(1)
		seen, _ = idempotency.ClaimFromContext(ctx)
		if string(task.Payload()) == `{"attempt_id":"slow","amount":1}` {
			close(running)
			<-finish
		}
		return nil
	}))

	if err := h.ProcessTask(ctx, task(t, "a1", 100)); err != nil {
		t.Fatal(err)
	}
	if seen.Key != "payment:charge:a1" {
		t.Fatalf("key %q, want the task type and the payload's attempt ID", seen.Key)
	}
	if err := h.ProcessTask(ctx, task(t, "a1", 100)); err != nil || runs.Load() != 1 {
		t.Fatalf("duplicate: err %v after %d runs; want it acknowledged without running", err, runs.Load())
	}

	err := h.ProcessTask(ctx, task(t, "a1", 999))
	if !errors.Is(err, asynq.SkipRetry) || !idempotency.IsPermanent(err) {
		t.Fatalf("same key, other payload: %v; want a permanent error marked SkipRetry", err)
	}
	if err := h.ProcessTask(ctx, task(t, "", 1)); !errors.Is(err, asynq.SkipRetry) || !errors.Is(err, idempotency.ErrEmptyKey) {
		t.Fatalf("empty attempt ID: %v; want ErrEmptyKey marked SkipRetry", err)
	}
	// Defect 8: a payload that does not decode never will; asynq must not retry it 25 times.
	if err := h.ProcessTask(ctx, asynq.NewTask("payment:charge", []byte("{"))); !errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("undecodable payload: %v; want it marked SkipRetry", err)
	}

	done := make(chan error, 1)
	go func() { done <- h.ProcessTask(ctx, task(t, "slow", 1)) }()
	<-running
	err = h.ProcessTask(ctx, task(t, "slow", 1))
	if !errors.Is(err, idempotency.ErrInProgress) || errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("duplicate of a running task: %v; want a retryable ErrInProgress", err)
	}
	close(finish)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestServer runs a real asynq server on Redis: two tasks for one payment attempt, enqueued
// separately, charge once.
func TestServer(t *testing.T) {
	redisOpt := asynq.RedisClientOpt{Addr: idempotencytest.RedisAddr(t)}
	queue := fmt.Sprint("idemtest-", time.Now().UnixNano())
	m := idempotencytest.NewMetrics()
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	var charges atomic.Int32
	mux := asynq.NewServeMux()
	mux.Use(newMiddleware(t, idempotency.WithStore(store), idempotency.WithMeterProvider(m.Provider)))
	mux.HandleFunc("payment:charge", func(ctx context.Context, _ *asynq.Task) error {
		charges.Add(1)
		time.Sleep(50 * time.Millisecond) // long enough for the second task to find it running
		return nil
	})
	srv := asynq.NewServer(redisOpt, asynq.Config{
		Concurrency:              2,
		Queues:                   map[string]int{queue: 1},
		RetryDelayFunc:           func(int, error, *asynq.Task) time.Duration { return 50 * time.Millisecond },
		DelayedTaskCheckInterval: 50 * time.Millisecond,
		TaskCheckInterval:        20 * time.Millisecond,
		LogLevel:                 asynq.FatalLevel,
	})
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	client := asynq.NewClient(redisOpt)
	defer client.Close()
	for range 2 {
		if _, err := client.Enqueue(task(t, "attempt-7", 100), asynq.Queue(queue)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for m.Count(t, idempotency.OutcomeCompleted)+m.Count(t, idempotency.OutcomeCompletedDuplicate) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("tasks not done: outcomes %v", m.Counts(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := charges.Load(); n != 1 {
		t.Fatalf("charged %d times, want 1", n)
	}
	if got := m.Counts(t); got[idempotency.OutcomeCompleted] != 1 || got[idempotency.OutcomeCompletedDuplicate] != 1 {
		t.Fatalf("outcomes %v, want one completed and one completed_duplicate", got)
	}
}

// Defect 2: a mux-wide install must leave tasks of other types alone; before, they were
// archived as "empty idempotency key" or failed to decode.
func TestOtherTypesPassThrough(t *testing.T) {
	ran := 0
	h := newMiddleware(t)(asynq.HandlerFunc(func(context.Context, *asynq.Task) error { ran++; return nil }))
	for _, task := range []*asynq.Task{
		asynq.NewTask("email:send", []byte(`{"to":"a@example.com"}`)),
		asynq.NewTask("report:build", []byte(`not json`)),
	} {
		if err := h.ProcessTask(context.Background(), task); err != nil {
			t.Fatalf("%s task: %v, want it run untouched", task.Type(), err)
		}
	}
	if ran != 2 {
		t.Fatalf("%d of 2 tasks of other types ran", ran)
	}
	if _, err := idemasynq.New("", idemasynq.PayloadKey(func(p chargePayload) string { return p.AttemptID }), idempotency.WithRetention(time.Hour)); err == nil {
		t.Fatal("New accepted an empty task type")
	}
}

// Defect 7 on asynq: a deferred duplicate must follow RetryAfter and spend no retry. With
// MaxRetry(1) a duplicate deferred twice was archived before; with Configure it is
// acknowledged once the holder completes.
func TestDeferralsSpendNoRetry(t *testing.T) {
	redisOpt := asynq.RedisClientOpt{Addr: idempotencytest.RedisAddr(t)}
	queue := fmt.Sprint("idemtest-defer-", time.Now().UnixNano())
	m := idempotencytest.NewMetrics()
	var charges atomic.Int32
	client := asynq.NewClient(redisOpt)
	defer client.Close()
	// Deferrals with retries left go through asynq's retry: RequeueDeferred, outside the
	// idempotency middleware, enqueues nothing.
	requeued := &countingEnqueuer{Enqueuer: client}
	mux := asynq.NewServeMux()
	mux.Use(idemasynq.RequeueDeferred(requeued))
	mux.Use(newMiddleware(t, idempotency.WithMeterProvider(m.Provider),
		idempotency.WithInProgress(idempotency.RetryLaterAfter(time.Second))))
	mux.HandleFunc("payment:charge", func(ctx context.Context, _ *asynq.Task) error {
		charges.Add(1)
		time.Sleep(2 * time.Second) // a few deferrals of the duplicate long
		return nil
	})
	cfg := asynq.Config{
		Concurrency:              2,
		Queues:                   map[string]int{queue: 1},
		RetryDelayFunc:           func(int, error, *asynq.Task) time.Duration { return time.Hour }, // for real failures
		DelayedTaskCheckInterval: 50 * time.Millisecond,
		TaskCheckInterval:        20 * time.Millisecond,
		LogLevel:                 asynq.FatalLevel,
	}
	configure(&cfg)
	srv := asynq.NewServer(redisOpt, cfg)
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	for range 2 {
		if _, err := client.Enqueue(task(t, "attempt-8", 100), asynq.Queue(queue), asynq.MaxRetry(1)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for m.Count(t, idempotency.OutcomeCompleted)+m.Count(t, idempotency.OutcomeCompletedDuplicate) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("tasks not done: outcomes %v", m.Counts(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := charges.Load(); n != 1 {
		t.Fatalf("charged %d times, want 1", n)
	}
	// asynq rounds retry times down to the second: each deferral waits between 0 and 1s.
	if n := m.Count(t, idempotency.OutcomeInProgressDuplicate); n < 1 || n > 8 {
		t.Fatalf("the duplicate was deferred %d times in a 2s run at a 1s RetryAfter; want a few, not a spin", n)
	}
	if n := requeued.n.Load(); n != 0 {
		t.Fatalf("RequeueDeferred enqueued %d copies of a task that had retries left", n)
	}
}

// countingEnqueuer counts the copies RequeueDeferred enqueues.
type countingEnqueuer struct {
	idemasynq.Enqueuer
	n atomic.Int32
}

func (c *countingEnqueuer) EnqueueContext(ctx context.Context, t *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	c.n.Add(1)
	return c.Enqueuer.EnqueueContext(ctx, t, opts...)
}

var configure = idemasynq.Configure
