package idemasynq_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/hibiken/asynq"
)

// Issue #32 item 6: asynq archives a failed task that has no retry left before it asks
// Config.IsFailure (processor.handleFailedMessage in v0.26.0), so a duplicate deferred on its
// last attempt (MaxRetry(0), or retries spent by real failures) was archived. When its holder
// had crashed and never completed, the job was lost. RequeueDeferred hands such a deferral to
// a copy of the task, enqueued for after RetryAfter, and acknowledges the original.
func TestDeferredDuplicateWithNoRetryLeft(t *testing.T) {
	t.Run("Requeued", func(t *testing.T) { testNoRetryLeft(t, nil) })
	// An enqueue that fails leaves the task to asynq, which archives it with both errors.
	t.Run("EnqueueFails", func(t *testing.T) { testNoRetryLeft(t, errors.New("redis is gone")) })
}

// failingEnqueuer is a client whose enqueues fail.
type failingEnqueuer struct{ err error }

func (f failingEnqueuer) EnqueueContext(context.Context, *asynq.Task, ...asynq.Option) (*asynq.TaskInfo, error) {
	return nil, f.err
}

func testNoRetryLeft(t *testing.T, enqueueErr error) {
	ctx := context.Background()
	redisOpt := asynq.RedisClientOpt{Addr: idempotencytest.RedisAddr(t)}
	queue := fmt.Sprint("idemtest-noretry-", time.Now().UnixNano())
	clock := idempotencytest.NewClock(time.Time{})
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Clock: clock})
	m := idempotencytest.NewMetrics()
	mw, err := idempotency.New(idemasynq.PayloadKey(func(p chargePayload) string { return p.AttemptID }),
		idempotency.WithName("payment:charge"), idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
		idempotency.WithLease(time.Minute), idempotency.WithInProgress(idempotency.RetryLaterAfter(time.Second)),
		idempotency.WithMeterProvider(m.Provider), idempotency.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	tk := task(t, "attempt-9", 100)
	// A worker claimed the task's key and crashed: its claim holds until its lease ends.
	key, err := mw.StoreKeyOf(tk)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Claim(ctx, idempotency.ClaimRequest{Key: key, Owner: "crashed", Lease: time.Minute}); err != nil {
		t.Fatal(err)
	}
	client := asynq.NewClient(redisOpt)
	defer client.Close()
	var charges atomic.Int32
	mux := asynq.NewServeMux()
	var enqueuer idemasynq.Enqueuer = client
	if enqueueErr != nil {
		enqueuer = failingEnqueuer{enqueueErr}
	}
	mux.Use(noRetryStack(enqueuer, mw)...)
	mux.HandleFunc("payment:charge", func(context.Context, *asynq.Task) error { charges.Add(1); return nil })
	cfg := asynq.Config{
		Concurrency:              1,
		Queues:                   map[string]int{queue: 1},
		DelayedTaskCheckInterval: 50 * time.Millisecond,
		TaskCheckInterval:        20 * time.Millisecond,
		LogLevel:                 asynq.FatalLevel,
	}
	idemasynq.Configure(&cfg)
	srv := asynq.NewServer(redisOpt, cfg)
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	inspector := asynq.NewInspector(redisOpt)
	defer inspector.Close()
	defer func() { _ = inspector.DeleteQueue(queue, true) }()
	if _, err := client.Enqueue(tk, asynq.Queue(queue), asynq.MaxRetry(0)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for m.Count(t, idempotency.OutcomeInProgressDuplicate) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the task was never deferred: outcomes %v", m.Counts(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if enqueueErr != nil {
		for {
			archived, _ := inspector.ListArchivedTasks(queue)
			if len(archived) == 1 {
				if msg := archived[0].LastErr; !strings.Contains(msg, "re-enqueueing") || !strings.Contains(msg, enqueueErr.Error()) {
					t.Fatalf("archived with %q, want the deferral joined with the enqueue error", msg)
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the task was not archived: outcomes %v", m.Counts(t))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// The crashed holder's lease ends: the next delivery of the job must run it.
	clock.Advance(time.Minute)
	for charges.Load() == 0 {
		if q, err := inspector.GetQueueInfo(queue); err == nil && q.Archived > 0 {
			t.Fatalf("the deferred duplicate was archived (%d archived, outcomes %v): the job is lost", q.Archived, m.Counts(t))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job never ran: outcomes %v", m.Counts(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
	for m.Count(t, idempotency.OutcomeCompleted) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := charges.Load(); n != 1 || m.Count(t, idempotency.OutcomeCompleted) != 1 {
		t.Fatalf("charged %d times, outcomes %v; want one completed run", n, m.Counts(t))
	}
}

// noRetryStack is the middleware the test installs.
var noRetryStack = func(client idemasynq.Enqueuer, mw *idempotency.Middleware[*asynq.Task]) []asynq.MiddlewareFunc {
	return []asynq.MiddlewareFunc{idemasynq.RequeueDeferred(client), idemasynq.Middleware(mw, "payment:charge")}
}
