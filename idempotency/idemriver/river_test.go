package idemriver_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/idemriver"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
)

type chargeArgs struct {
	AttemptID string `json:"attempt_id"`
	Amount    int    `json:"amount"`
}

func (chargeArgs) Kind() string { return "charge" }

func newMiddleware(t *testing.T, opts ...idempotency.Option) rivertype.WorkerMiddleware {
	t.Helper()
	mw, err := idemriver.New("charge", idemriver.ArgsKey(func(a chargeArgs) string { return a.AttemptID }), append([]idempotency.Option{
		idempotency.WithRetention(time.Hour),
		idempotency.WithFingerprint(idemriver.ArgsFingerprint),
		idempotency.WithLogger(slog.New(slog.DiscardHandler)),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return mw
}

func row(t *testing.T, attempt string, amount int) *rivertype.JobRow {
	t.Helper()
	b, err := json.Marshal(chargeArgs{AttemptID: attempt, Amount: amount})
	if err != nil {
		t.Fatal(err)
	}
	return &rivertype.JobRow{Kind: "charge", EncodedArgs: b}
}

func TestMiddleware(t *testing.T) {
	ctx := context.Background()
	mw := newMiddleware(t)
	runs := 0
	var seen idempotency.Claim
	work := func(ctx context.Context) error {
		runs++
		seen, _ = idempotency.ClaimFromContext(ctx)
		return nil
	}
	if err := mw.Work(ctx, row(t, "a1", 100), work); err != nil {
		t.Fatal(err)
	}
	if seen.Key != "charge:a1" {
		t.Fatalf("key %q, want the job kind and the attempt ID", seen.Key)
	}
	if err := mw.Work(ctx, row(t, "a1", 100), work); err != nil || runs != 1 {
		t.Fatalf("duplicate: err %v after %d runs; want it completed without running", err, runs)
	}
	var cancel *river.JobCancelError
	if err := mw.Work(ctx, row(t, "a1", 999), work); !errors.As(err, &cancel) || !idempotency.IsPermanent(err) {
		t.Fatalf("same key, other arguments: %v; want the job cancelled", err)
	}

	// A duplicate of a running job is snoozed for the rest of the holder's lease.
	var snooze *river.JobSnoozeError
	err := mw.Work(ctx, row(t, "slow", 1), func(context.Context) error {
		// Delivered on a context of its own: on the holder's, which holds the claim, the
		// middleware would take it for a second install and pass it through.
		return mw.Work(ctx, row(t, "slow", 1), work)
	})
	if !errors.As(err, &snooze) || snooze.Duration != idempotency.DefaultLease/10 {
		t.Fatalf("duplicate of a running job: %v; want a snooze of the policy's delay, a tenth of the lease", err)
	}
}

// TestClient runs a real River client on PostgreSQL: two jobs for one payment attempt,
// inserted separately, charge once.
func TestClient(t *testing.T) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, idempotencytest.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "idemriver_" + hex.EncodeToString(b[:])
	if _, err := pool.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = pool.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE") }()
	driver := riverpgxv5.New(pool)
	migrator, err := rivermigrate.New(driver, &rivermigrate.Config{Schema: schema, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		t.Fatal(err)
	}

	m := idempotencytest.NewMetrics()
	var charges atomic.Int32
	workers := river.NewWorkers()
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, _ *river.Job[chargeArgs]) error {
		charges.Add(1)
		time.Sleep(50 * time.Millisecond) // long enough for the second job to find it running
		return nil
	}))
	client, err := river.NewClient(driver, &river.Config{
		Schema:  schema,
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 2}},
		Workers: workers,
		Middleware: []rivertype.Middleware{newMiddleware(t, idempotency.WithMeterProvider(m.Provider),
			idempotency.WithInProgress(idempotency.RetryLaterAfter(200*time.Millisecond)))},
		FetchCooldown:     10 * time.Millisecond,
		FetchPollInterval: 20 * time.Millisecond,
		Logger:            slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	completed, stop := client.Subscribe(river.EventKindJobCompleted)
	defer stop()
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = client.Stop(context.Background()) }()
	for range 2 {
		if _, err := client.Insert(ctx, chargeArgs{AttemptID: "attempt-7", Amount: 100}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 {
		select {
		case ev := <-completed:
			t.Logf("completed %d after %s", ev.Job.ID, time.Since(ev.Job.CreatedAt))
		case <-time.After(60 * time.Second):
			t.Fatalf("%d of 2 jobs completed; outcomes %v", i, m.Counts(t))
		}
	}
	if n := charges.Load(); n != 1 {
		t.Fatalf("charged %d times, want 1", n)
	}
	if got := m.Counts(t); got[idempotency.OutcomeCompleted] != 1 || got[idempotency.OutcomeCompletedDuplicate] != 1 {
		t.Fatalf("outcomes %v, want one completed and one completed_duplicate", got)
	}
}

// Defect 2: a client-wide install must leave jobs of other kinds alone; before, a job whose
// arguments had no attempt ID was cancelled as an empty key.
func TestOtherKindsPassThrough(t *testing.T) {
	mw := newMiddleware(t)
	ran := 0
	for _, job := range []*rivertype.JobRow{
		{Kind: "email", EncodedArgs: []byte(`{"to":"a@example.com"}`)},
		{Kind: "report", EncodedArgs: []byte(`not json`)},
	} {
		if err := mw.Work(context.Background(), job, func(context.Context) error { ran++; return nil }); err != nil {
			t.Fatalf("%s job: %v, want it run untouched", job.Kind, err)
		}
	}
	if ran != 2 {
		t.Fatalf("%d of 2 jobs of other kinds ran", ran)
	}
	if _, err := idemriver.New("", idemriver.ArgsKey(func(a chargeArgs) string { return a.AttemptID }), idempotency.WithRetention(time.Hour)); err == nil {
		t.Fatal("New accepted an empty kind")
	}
}
