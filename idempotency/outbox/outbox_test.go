package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.opentelemetry.io/otel/attribute"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/outbox"
)

func TestMigrateTwice(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		migrate(t, e) // a second run finds everything recorded
		var n int
		if err := e.db.QueryRow(`SELECT count(*) FROM idempotency_outbox_schema_versions`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("versions recorded: %d, %v; want 1", n, err)
		}
	})
}

// A message Put in a transaction that rolls back is never published; one that commits is,
// with its ID, topic, payload and headers.
func TestPutRolledBackPublishesNothing(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		ctx := context.Background()
		tx, err := e.db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := outbox.Put(ctx, tx, outbox.Message{ID: "rolled-back", Topic: "orders", Payload: []byte("x")}); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		r := newRelay(t, e, e.db, outbox.Config{Publisher: rec})
		drain(t, r)
		if got := rec.ids(); len(got) != 0 {
			t.Fatalf("published %v after a rollback, want nothing", got)
		}
		want := outbox.Message{ID: "committed", Topic: "orders", Payload: []byte(`{"order":1}`), Headers: map[string]string{"trace": "t1"}}
		put(t, e, want)
		drain(t, r)
		if len(rec.published) != 1 || !reflect.DeepEqual(rec.published[0], want) {
			t.Fatalf("published %+v, want exactly %+v", rec.published, want)
		}
	})
}

// A redelivered handler's second Put of the same ID writes nothing: one publish, with the
// first write's payload, before and after the first was published.
func TestPutTwiceSameIDPublishesOnce(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		first := outbox.Message{ID: "charge-pa_1-charged", Topic: "payments", Payload: []byte("first")}
		second := first
		second.Payload = []byte("second")
		put(t, e, first)
		put(t, e, second)
		rec := &recorder{}
		r := newRelay(t, e, e.db, outbox.Config{Publisher: rec})
		drain(t, r)
		put(t, e, second) // after publishing, within the retention
		drain(t, r)
		if len(rec.published) != 1 || string(rec.published[0].Payload) != "first" {
			t.Fatalf("published %+v, want the first write once", rec.published)
		}
	})
}

func TestPutPgx(t *testing.T) {
	e := openPostgres(t)
	ctx := context.Background()
	pcfg, err := pgxpool.ParseConfig("")
	if err != nil {
		t.Fatal(err)
	}
	pcfg.ConnConfig = e.pgx.Copy()
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for _, commit := range []bool{false, true, true} {
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := outbox.PutPgx(ctx, tx, outbox.Message{ID: "pgx-1", Topic: "t", Payload: []byte(fmt.Sprint(commit))}); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = tx.Commit(ctx)
		} else {
			err = tx.Rollback(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	rec := &recorder{}
	drain(t, newRelay(t, e, e.db, outbox.Config{Publisher: rec}))
	if got := rec.ids(); !slices.Equal(got, []string{"pgx-1"}) {
		t.Fatalf("published %v, want pgx-1 once", got)
	}
}

func TestPutRejectsInvalidMessages(t *testing.T) {
	e := openSQLite(t)
	ctx := context.Background()
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, m := range []outbox.Message{{Topic: "t"}, {ID: "x"}} {
		if err := outbox.Put(ctx, tx, m); !errors.Is(err, outbox.ErrInvalidMessage) {
			t.Errorf("Put(%+v) = %v, want ErrInvalidMessage", m, err)
		}
	}
	if err := outbox.Put(ctx, nil, outbox.Message{ID: "x", Topic: "t"}); err == nil {
		t.Error("Put with a nil tx succeeded")
	}
}

func TestID(t *testing.T) {
	a, err := outbox.ID("charge", "pa_1", "charged")
	if err != nil || len(a) != 64 {
		t.Fatalf("ID = %q, %v", a, err)
	}
	if b, _ := outbox.ID("charge", "pa_1", "charged"); b != a {
		t.Errorf("ID is not stable: %q, %q", a, b)
	}
	if b, _ := outbox.ID("charge", "pa_1:charged"); b == a {
		t.Error("ID of other parts is the same")
	}
	if _, err := outbox.ID("charge", "", "charged"); !errors.Is(err, idempotency.ErrEmptyKey) {
		t.Errorf("ID with an empty part: %v, want ErrEmptyKey", err)
	}
	if _, err := outbox.ClaimID(context.Background(), "charged"); !errors.Is(err, outbox.ErrNoClaim) {
		t.Errorf("ClaimID without a claim: %v, want ErrNoClaim", err)
	}
}

// ClaimID gives every delivery of a job the same ID: a first delivery that fails after its
// Put (rolled back) and the retry that commits it write the same message.
func TestClaimIDStableAcrossDeliveries(t *testing.T) {
	mw, err := idempotency.New(func(j string) (string, error) { return j, nil },
		idempotency.WithName("charge"), idempotency.WithRetention(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	h := mw.Wrap(func(ctx context.Context, j string) error {
		id, err := outbox.ClaimID(ctx, "charged")
		if err != nil {
			return err
		}
		ids = append(ids, id)
		if len(ids) == 1 {
			return errors.New("first delivery fails")
		}
		return nil
	})
	_ = h(context.Background(), "pa_1")
	if err := h(context.Background(), "pa_1"); err != nil {
		t.Fatal(err)
	}
	other, _ := outbox.ClaimID(context.Background(), "charged")
	if len(ids) != 2 || ids[0] != ids[1] || ids[0] == other {
		t.Fatalf("ids %v, want two equal ones", ids)
	}
}

// The relay dies after publishing and before marking: the message stays pending and the next
// relay publishes it again, with the same ID (at least once, with a deduplication ID).
func TestCrashAfterPublishRepublishesSameID(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		put(t, e, msg("orders", 1), msg("orders", 2))
		relayDB := e.another(t, "crashing")
		rec := &recorder{}
		rec.after = func(m outbox.Message) {
			if m.ID != "orders-0001" {
				return
			}
			// The crash: the relay's connection goes away after the broker took the message.
			if e.dialect == outbox.Postgres {
				var n int
				if err := e.db.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
					WHERE application_name LIKE '%\_crashing' AND state LIKE 'idle in transaction%'`).Scan(&n); err != nil || n != 1 {
					t.Errorf("terminated %d relay sessions, %v; want 1", n, err)
				}
			} else {
				_ = relayDB.Close()
			}
		}
		crashing := newRelay(t, e, relayDB, outbox.Config{Publisher: rec})
		if _, err := crashing.RelayOnce(context.Background()); err == nil {
			t.Fatal("the crashed batch reported no error")
		}
		if n := pending(t, e); n != 2 {
			t.Fatalf("%d messages pending after the crash, want 2 (none marked)", n)
		}
		rec.after = nil
		drain(t, newRelay(t, e, e.another(t, "next"), outbox.Config{Publisher: rec}))
		got := rec.ids()
		if got[0] != "orders-0001" || got[len(got)-1] != "orders-0002" || strings.Count(strings.Join(got, ","), "orders-0001") != 2 {
			t.Fatalf("published %v, want orders-0001 twice (same ID) and then orders-0002", got)
		}
		if n := pending(t, e); n != 0 {
			t.Fatalf("%d pending at the end", n)
		}
	})
}

// Two relays on PostgreSQL at once publish every message exactly once, each topic in order,
// and share the work: while one holds its first batch, the other publishes other topics.
func TestConcurrentRelaysPublishEachMessageOnce(t *testing.T) {
	e := openPostgres(t)
	const topics, perTopic = 12, 60
	var all []outbox.Message
	for i := range perTopic {
		for tp := range topics {
			all = append(all, msg(fmt.Sprintf("topic%02d", tp), i))
		}
	}
	for i := 0; i < len(all); i += 100 {
		put(t, e, all[i:min(i+100, len(all))]...)
	}
	rec := &recorder{delay: 50 * time.Microsecond}
	holding := make(chan struct{})  // relay 0 is in its first batch
	released := make(chan struct{}) // relay 1 published
	var holdOnce, releaseOnce sync.Once
	publisher := func(i int) outbox.Publisher {
		return outbox.PublisherFunc(func(ctx context.Context, m outbox.Message) error {
			err := rec.Publish(ctx, m)
			switch i {
			case 0:
				holdOnce.Do(func() {
					close(holding)
					select {
					case <-released:
					case <-time.After(10 * time.Second):
						t.Error("relay 1 published nothing while relay 0 held its first batch")
					}
				})
			case 1:
				releaseOnce.Do(func() { close(released) })
			}
			return err
		})
	}
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i := range 2 {
		if i == 1 {
			<-holding
		}
		r := newRelay(t, e, e.another(t, fmt.Sprint("relay", i)), outbox.Config{Publisher: publisher(i), BatchSize: 10})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for idle := 0; idle < 3; {
				n, err := r.RelayOnce(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				counts[i] += n
				if n == 0 {
					idle++
					time.Sleep(5 * time.Millisecond)
				} else {
					idle = 0
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("messages taken by each relay: %v", counts)
	seen := map[string]int{}
	last := map[string]string{}
	for _, m := range rec.published {
		seen[m.ID]++
		if prev, ok := last[m.Topic]; ok && prev > m.ID {
			t.Errorf("topic %s: %s published after %s", m.Topic, m.ID, prev)
		}
		last[m.Topic] = m.ID
	}
	for _, m := range all {
		if seen[m.ID] != 1 {
			t.Errorf("%s published %d times, want 1", m.ID, seen[m.ID])
		}
	}
	if len(rec.published) != len(all) {
		t.Errorf("%d publishes for %d messages", len(rec.published), len(all))
	}
}

// A topic is published in order; a failed message holds back its topic's later ones, not
// other topics.
func TestOrderPerTopicWithFailure(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		put(t, e, msg("a", 1), msg("b", 1), msg("a", 2), msg("b", 2), msg("a", 3), msg("b", 3))
		rec := &recorder{fail: func(m outbox.Message, attempt int) error {
			if m.ID == "a-0002" && attempt == 1 {
				return errors.New("broker says no")
			}
			return nil
		}}
		r := newRelay(t, e, e.db, outbox.Config{Publisher: rec, Backoff: func(int) time.Duration { return 0 }})
		if _, err := r.RelayOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got, want := rec.ids(), []string{"a-0001", "b-0001", "b-0002", "b-0003"}; !slices.Equal(got, want) {
			t.Fatalf("first batch published %v, want %v (a-0003 waits for a-0002)", got, want)
		}
		drain(t, r)
		if got, want := rec.ids(), []string{"a-0001", "b-0001", "b-0002", "b-0003", "a-0002", "a-0003"}; !slices.Equal(got, want) {
			t.Fatalf("published %v, want %v", got, want)
		}
	})
}

// A failed publish records the attempt and the error, and puts the message and its topic
// off until the backoff ends; other topics go on.
func TestBackoff(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		put(t, e, msg("a", 1), msg("a", 2), msg("b", 1))
		failing := true
		rec := &recorder{fail: func(m outbox.Message, _ int) error {
			if failing && m.ID == "a-0001" {
				return errors.New("broker down")
			}
			return nil
		}}
		var asked []int
		m := newMetrics()
		r := newRelay(t, e, e.db, outbox.Config{Publisher: rec, MeterProvider: m.provider, Name: "r1",
			Backoff: func(n int) time.Duration { asked = append(asked, n); return time.Hour }})
		for range 3 {
			if _, err := r.RelayOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if got := rec.ids(); !slices.Equal(got, []string{"b-0001"}) {
			t.Fatalf("published %v, want only b-0001 while a-0001 backs off", got)
		}
		if n := strings.Count(strings.Join(rec.attempts, ","), "a-0001"); n != 1 {
			t.Fatalf("a-0001 tried %d times within its backoff, want 1", n)
		}
		var attempts int
		var lastErr string
		var waitsLong bool
		q := `SELECT attempts, last_error, next_attempt_at > statement_timestamp() + interval '59 minutes' FROM idempotency_outbox WHERE id = 'a-0001'`
		if e.dialect == outbox.SQLite {
			q = fmt.Sprintf(`SELECT attempts, last_error, next_attempt_at > %d FROM idempotency_outbox WHERE id = 'a-0001'`, time.Now().Add(59*time.Minute).UnixMicro())
		}
		if err := e.db.QueryRow(q).Scan(&attempts, &lastErr, &waitsLong); err != nil {
			t.Fatal(err)
		}
		if attempts != 1 || lastErr != "broker down" || !waitsLong {
			t.Fatalf("a-0001: attempts %d, last_error %q, waits an hour %v", attempts, lastErr, waitsLong)
		}
		rl := attribute.String(outbox.AttrRelay, "r1")
		if f, p := m.value(t, outbox.MetricPublishFailures, rl), m.value(t, outbox.MetricPublished, rl); f != 1 || p != 1 {
			t.Errorf("metrics: %v failures, %v published; want 1 and 1", f, p)
		}
		// The backoff ends (moved back, rather than waited for); the broker is back.
		if _, err := e.db.Exec(`UPDATE idempotency_outbox SET next_attempt_at = 0 WHERE id = 'a-0001'`); err != nil {
			if _, err := e.db.Exec(`UPDATE idempotency_outbox SET next_attempt_at = '-infinity' WHERE id = 'a-0001'`); err != nil {
				t.Fatal(err)
			}
		}
		failing = false
		drain(t, r)
		if got := rec.ids(); !slices.Equal(got, []string{"b-0001", "a-0001", "a-0002"}) {
			t.Fatalf("published %v, want a-0001 and then a-0002 once the backoff ended", got)
		}
		if !slices.Equal(asked, []int{1}) {
			t.Errorf("backoff asked for attempts %v, want [1]", asked)
		}
	})
}

// Published rows older than the retention are deleted; younger ones and pending ones stay.
// A Put of a deleted ID writes it anew: the retention is the Put's deduplication window.
func TestRetentionDeletesOldPublishedRows(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		put(t, e, msg("a", 1), msg("a", 2), msg("a", 3))
		rec := &recorder{}
		m := newMetrics()
		r := newRelay(t, e, e.db, outbox.Config{Publisher: rec, Retention: time.Hour, MeterProvider: m.provider})
		drain(t, r)
		put(t, e, msg("a", 4)) // pending: never deleted
		old := `UPDATE idempotency_outbox SET published_at = published_at - interval '2 hours' WHERE id IN ('a-0001', 'a-0002')`
		if e.dialect == outbox.SQLite {
			old = `UPDATE idempotency_outbox SET published_at = published_at - 7200000000 WHERE id IN ('a-0001', 'a-0002')`
		}
		if _, err := e.db.Exec(old); err != nil {
			t.Fatal(err)
		}
		n, err := r.DeletePublished(context.Background(), 1)
		if err != nil || n != 1 {
			t.Fatalf("DeletePublished(1) = %d, %v; want 1 (the limit)", n, err)
		}
		if n, err = r.DeletePublished(context.Background(), 100); err != nil || n != 1 {
			t.Fatalf("DeletePublished(100) = %d, %v; want 1", n, err)
		}
		var left []string
		rows, err := e.db.Query(`SELECT id FROM idempotency_outbox ORDER BY seq`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id string
			_ = rows.Scan(&id)
			left = append(left, id)
		}
		rows.Close()
		if !slices.Equal(left, []string{"a-0003", "a-0004"}) {
			t.Fatalf("rows left %v, want a-0003 (young) and a-0004 (pending)", left)
		}
		if d := m.value(t, outbox.MetricDeleted); d != 2 {
			t.Errorf("deleted metric %v, want 2", d)
		}
		put(t, e, msg("a", 1), msg("a", 3))
		drain(t, r)
		if got := rec.ids(); !slices.Equal(got, []string{"a-0001", "a-0002", "a-0003", "a-0004", "a-0001"}) {
			t.Fatalf("published %v: want a-0001 again (deleted), a-0003 not (kept)", got)
		}
	})
}

// Run stops when its context ends, marking what it published: nothing is published twice.
func TestRunGracefulStop(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		var all []outbox.Message
		for i := range 20 {
			all = append(all, msg("a", i))
		}
		put(t, e, all...)
		ctx, cancel := context.WithCancel(context.Background())
		rec := &recorder{}
		rec.after = func(m outbox.Message) {
			if m.ID == "a-0004" {
				cancel() // stop in the middle of a batch
			}
		}
		m := newMetrics()
		r := newRelay(t, e, e.db, outbox.Config{Publisher: rec, MeterProvider: m.provider, PollInterval: time.Millisecond})
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Run = %v, want nil after a stop", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Run did not stop")
		}
		if n := pending(t, e); n != 15 {
			t.Fatalf("%d pending after the stop, want 15 (five published and marked)", n)
		}
		rec.after = nil
		drain(t, r)
		seen := map[string]bool{}
		for _, id := range rec.ids() {
			if seen[id] {
				t.Fatalf("%s published twice", id)
			}
			seen[id] = true
		}
		if len(seen) != 20 {
			t.Fatalf("%d published, want 20", len(seen))
		}
		s, err := r.Stats(context.Background())
		if err != nil || s.Pending != 0 || s.Lag != 0 {
			t.Fatalf("Stats = %+v, %v; want nothing pending", s, err)
		}
	})
}

// The gauges report the pending count and the oldest message's age.
func TestStatsGauges(t *testing.T) {
	each(t, func(t *testing.T, e env) {
		put(t, e, msg("a", 1), msg("a", 2))
		m := newMetrics()
		r := newRelay(t, e, e.db, outbox.Config{Publisher: &recorder{fail: func(outbox.Message, int) error { return errors.New("down") }},
			MeterProvider: m.provider, Backoff: func(int) time.Duration { return time.Hour }, PollInterval: time.Millisecond, StatsInterval: time.Millisecond})
		if _, err := e.db.Exec(`UPDATE idempotency_outbox SET created_at = created_at - ` +
			map[outbox.Dialect]string{outbox.Postgres: "interval '10 minutes'", outbox.SQLite: "600000000"}[e.dialect]); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		deadline := time.Now().Add(10 * time.Second)
		for m.value(t, outbox.MetricPending) != 2 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		p, lag := m.value(t, outbox.MetricPending), m.value(t, outbox.MetricLag)
		cancel()
		<-done
		if p != 2 {
			t.Errorf("pending gauge %v, want 2", p)
		}
		if lag < 600 || lag > 900 {
			t.Errorf("lag gauge %vs, want about 600", lag)
		}
	})
}

func TestNewRelayChecksConfig(t *testing.T) {
	e := openSQLite(t)
	for name, cfg := range map[string]outbox.Config{
		"no publisher": {Dialect: outbox.SQLite, Retention: time.Hour},
		"no retention": {Dialect: outbox.SQLite, Publisher: &recorder{}},
		"no dialect":   {Publisher: &recorder{}, Retention: time.Hour},
	} {
		if _, err := outbox.NewRelay(e.db, cfg); err == nil {
			t.Errorf("%s: NewRelay succeeded", name)
		}
	}
}
