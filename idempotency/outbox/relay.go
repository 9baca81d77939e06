package outbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
)

// Publisher hands one message to a broker. It must use msg.ID as the broker's deduplication
// ID (asynq's TaskID, NATS's Nats-Msg-Id, SQS's MessageDeduplicationId, Watermill's UUID, a
// Kafka key): the relay publishes a message again, with the same ID, when it could not
// record that the first publish succeeded. A message the broker already has (a duplicate ID)
// is a success, not an error. An error puts the message off by the backoff.
type Publisher interface {
	Publish(ctx context.Context, msg Message) error
}

// PublisherFunc is a function that is a Publisher.
type PublisherFunc func(ctx context.Context, msg Message) error

// Publish calls f.
func (f PublisherFunc) Publish(ctx context.Context, msg Message) error { return f(ctx, msg) }

// Config configures a Relay.
type Config struct {
	// Dialect is the database the outbox lives in: Postgres or SQLite.
	Dialect Dialect
	// Publisher publishes the messages. Required.
	Publisher Publisher
	// Retention is how long a published message's row is kept before the relay deletes it.
	// Required: it is also how long a second Put of the same ID stays a no-op, so make it
	// at least the longest a redelivered handler can run again after the first (the
	// idempotency middleware's retention), or a late redelivery publishes its messages
	// again (under the same IDs, which only the broker's own deduplication window, often
	// minutes, can absorb).
	Retention time.Duration
	// Name names the relay on its metrics (attribute "relay") and logs.
	Name string
	// BatchSize is the most messages one batch takes (default 100). On PostgreSQL a batch
	// keeps its rows locked, and its transaction open, while it publishes them.
	BatchSize int
	// PollInterval is how long Run waits after a batch that was not full (default 1 s).
	// Wake cuts the wait short.
	PollInterval time.Duration
	// Backoff is how long a message waits after its attempts-th failed publish (default
	// DefaultBackoff). The later messages of its topic wait with it.
	Backoff func(attempts int) time.Duration
	// PublishTimeout bounds each Publish call (default 30 s).
	PublishTimeout time.Duration
	// StoreTimeout bounds each database call (default 30 s).
	StoreTimeout time.Duration
	// CleanupInterval is how often Run deletes the rows published more than Retention ago
	// (default 1 minute), CleanupBatch rows per statement (default 1000).
	CleanupInterval time.Duration
	CleanupBatch    int
	// StatsInterval is how often Run reads the pending count and lag for its gauges
	// (default 10 s).
	StatsInterval time.Duration
	// MeterProvider receives the relay's metrics (default the global provider).
	MeterProvider metric.MeterProvider
	// Logger receives publish failures and database errors (default slog.Default()).
	Logger *slog.Logger
}

// DefaultBackoff waits 1 s after a message's first failed publish and doubles the wait after
// each further one, up to 5 minutes.
func DefaultBackoff(attempts int) time.Duration {
	if attempts < 1 {
		attempts = 1
	}
	if attempts > 10 {
		return 5 * time.Minute
	}
	return min(time.Second<<(attempts-1), 5*time.Minute)
}

// Relay publishes the outbox's pending messages. It is safe for concurrent use, but one
// Relay runs one batch at a time.
//
// Order: the messages of a topic are published one at a time, in the order they were written
// (seq); a message whose publish fails is put off by the backoff, and the later messages of
// its topic wait for it, so a topic is never published out of order. Messages are numbered
// when written, not when committed: of two transactions writing to one topic at once, the
// later-numbered one may commit, and be published, first. Writers that need an order
// serialise themselves (a lock on the aggregate's row, which they usually hold anyway).
//
// On PostgreSQL, relays may run side by side (one per worker): a batch locks its topics
// (advisory locks for the batch's transaction) and its rows (FOR UPDATE SKIP LOCKED), so a
// message is published by one relay at a time and a topic by one relay at a time; different
// topics are published in parallel. On SQLite, run one relay per database: it reads a batch,
// publishes it and marks it in a short transaction, so writers are not held up meanwhile.
//
// Delivery is at least once: a relay that stops between publishing a message and marking it
// (a crash, a lost connection, a failed commit) leaves it pending, and it is published again
// with the same ID.
type Relay struct {
	db   *sql.DB
	cfg  Config
	in   *instruments
	log  *slog.Logger
	wake chan struct{}
	mu   sync.Mutex // one batch at a time
}

// NewRelay returns a relay for the outbox in db. The table must exist: see Migrate.
func NewRelay(db *sql.DB, cfg Config) (*Relay, error) {
	if db == nil {
		return nil, errors.New("outbox: NewRelay: nil *sql.DB")
	}
	if cfg.Dialect != Postgres && cfg.Dialect != SQLite {
		return nil, fmt.Errorf("outbox: NewRelay: unknown dialect %v", cfg.Dialect)
	}
	if cfg.Publisher == nil {
		return nil, errors.New("outbox: NewRelay: Config.Publisher is required")
	}
	if cfg.Retention <= 0 {
		return nil, errors.New("outbox: NewRelay: Config.Retention is required: how long published rows (and the no-op of a repeated Put) are kept")
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 100
	}
	if cfg.CleanupBatch <= 0 {
		cfg.CleanupBatch = 1000
	}
	def(&cfg.PollInterval, time.Second)
	def(&cfg.PublishTimeout, 30*time.Second)
	def(&cfg.StoreTimeout, 30*time.Second)
	def(&cfg.CleanupInterval, time.Minute)
	def(&cfg.StatsInterval, 10*time.Second)
	if cfg.Backoff == nil {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.MeterProvider == nil {
		cfg.MeterProvider = otel.GetMeterProvider()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	in, err := newInstruments(cfg.MeterProvider, cfg.Name)
	if err != nil {
		return nil, fmt.Errorf("outbox: metrics: %w", err)
	}
	log := cfg.Logger
	if cfg.Name != "" {
		log = log.With(slog.String("relay", cfg.Name))
	}
	return &Relay{db: db, cfg: cfg, in: in, log: log, wake: make(chan struct{}, 1)}, nil
}

// Wake makes a Run that waits for its next poll take a batch at once: call it after
// committing a transaction that Put messages, for a lower latency than PollInterval.
func (r *Relay) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run publishes batches until ctx ends, then returns nil. After a batch that was full it
// takes the next at once; otherwise it waits PollInterval (or a Wake). Every CleanupInterval
// it deletes the rows published more than Retention ago, and every StatsInterval it reads
// the gauges' pending count and lag. Errors are logged and counted, and retried at the next
// poll.
//
// When ctx ends during a batch, the relay publishes no further message of it, records the
// messages it published (in a context of its own, bounded by StoreTimeout) and returns: a
// graceful stop publishes nothing twice.
func (r *Relay) Run(ctx context.Context) error {
	reg, err := r.in.register()
	if err != nil {
		return fmt.Errorf("outbox: metrics: %w", err)
	}
	defer func() { _ = reg.Unregister() }()
	var lastCleanup, lastStats time.Time
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		n, err := r.RelayOnce(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			r.log.ErrorContext(ctx, "outbox: relay batch failed", slog.Any("error", err))
		}
		if time.Since(lastCleanup) >= r.cfg.CleanupInterval {
			lastCleanup = time.Now()
			for {
				d, err := r.DeletePublished(ctx, r.cfg.CleanupBatch)
				if err != nil {
					if ctx.Err() == nil {
						r.log.ErrorContext(ctx, "outbox: deleting published rows failed", slog.Any("error", err))
					}
					break
				}
				if d < int64(r.cfg.CleanupBatch) {
					break
				}
			}
		}
		if time.Since(lastStats) >= r.cfg.StatsInterval {
			lastStats = time.Now()
			if _, err := r.Stats(ctx); err != nil && ctx.Err() == nil {
				r.log.ErrorContext(ctx, "outbox: reading the outbox's stats failed", slog.Any("error", err))
			}
		}
		if err == nil && n == r.cfg.BatchSize {
			continue // more may be waiting
		}
		timer.Reset(r.cfg.PollInterval)
		select {
		case <-ctx.Done():
			return nil
		case <-r.wake:
			if !timer.Stop() {
				<-timer.C
			}
		case <-timer.C:
		}
	}
}

// row is a pending message as a batch reads it.
type row struct {
	seq      int64
	attempts int
	msg      Message
}

// RelayOnce publishes one batch of pending messages and records the outcome: the number it
// took (published or put off by a failure; BatchSize means more may be waiting), and an
// error when the database failed (a batch whose marks failed is published again later). Run
// calls it in a loop; call it from your own scheduler instead of Run if you like.
func (r *Relay) RelayOnce(ctx context.Context) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cfg.Dialect == Postgres {
		return r.batchPostgres(ctx)
	}
	return r.batchSQLite(ctx)
}

// store returns a context for a database call: not ended by ctx (a batch's marks must be
// written after a stop), bounded by StoreTimeout.
func (r *Relay) store(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), r.cfg.StoreTimeout)
}

// blocked is the topics held back by a message backing off, with now as $1.
const blocked = `SELECT topic FROM idempotency_outbox WHERE published_at IS NULL AND next_attempt_at > %s`

// pgTopicLockClass is the first key of the relay's advisory topic locks (the second is the
// topic's hashtext): a constant of its own, apart from sqlstore's and the migrations'.
const pgTopicLockClass = 1869968500

// pgTopics finds the topics of the first $1 pending messages (ten batches' worth) whose
// topics are not held back, and walks them in the order of their first message, locking
// each it can for the transaction, until the topics it locked hold $2 (a batch) of those
// messages: a topic another relay holds is being published by it, and this one passes it
// by, and a relay locks no more topics than its batch can use, leaving the rest to the
// others. The recursive walk tries one lock per step, in order, and stops there.
var pgTopics = `WITH RECURSIVE candidates AS MATERIALIZED (
	SELECT topic, count(*) AS n, row_number() OVER (ORDER BY min(seq)) AS i
	FROM (
		SELECT topic, seq FROM idempotency_outbox
		WHERE published_at IS NULL AND topic NOT IN (` + fmt.Sprintf(blocked, "statement_timestamp()") + `)
		ORDER BY seq LIMIT $1
	) first
	GROUP BY topic
),
walk (i, taken, topic, locked) AS (
	SELECT 0::bigint, 0::bigint, NULL::text, false
	UNION ALL
	SELECT c.i, w.taken + CASE WHEN l.ok THEN c.n ELSE 0 END, c.topic, l.ok
	FROM walk w
	JOIN candidates c ON c.i = w.i + 1
	CROSS JOIN LATERAL (SELECT pg_try_advisory_xact_lock(` + strconv.Itoa(pgTopicLockClass) + `, hashtext(c.topic)) AS ok) l
	WHERE w.taken < $2
)
SELECT topic FROM walk WHERE locked`

// pgBatch reads the pending messages of the locked topics ($1, a JSON array) in order and
// locks their rows. It runs after pgTopics, in a snapshot taken after the topic locks: a
// relay that held one before committed its marks first, so they are seen, and rows it
// published are not taken again (FOR UPDATE rechecks published_at on the latest row too).
var pgBatch = `SELECT seq, id, topic, payload, headers, attempts FROM idempotency_outbox
WHERE published_at IS NULL
  AND topic IN (SELECT jsonb_array_elements_text($1::jsonb))
  AND topic NOT IN (` + fmt.Sprintf(blocked, "statement_timestamp()") + `)
ORDER BY seq LIMIT $2
FOR UPDATE SKIP LOCKED`

var sqliteBatch = `SELECT seq, id, topic, payload, headers, attempts FROM idempotency_outbox
WHERE published_at IS NULL AND topic NOT IN (` + fmt.Sprintf(blocked, "$1") + `)
ORDER BY seq LIMIT $2`

var marks = map[Dialect]struct{ published, failed string }{
	Postgres: {
		published: `UPDATE idempotency_outbox SET published_at = statement_timestamp()
WHERE seq IN (SELECT (jsonb_array_elements_text($1::jsonb))::bigint) AND published_at IS NULL`,
		failed: `UPDATE idempotency_outbox SET attempts = attempts + 1, last_error = $2,
	next_attempt_at = statement_timestamp() + $3::bigint * interval '1 microsecond'
WHERE seq = $1 AND published_at IS NULL`,
	},
	SQLite: {
		published: `UPDATE idempotency_outbox SET published_at = $2
WHERE seq IN (SELECT value FROM json_each($1)) AND published_at IS NULL`,
		failed: `UPDATE idempotency_outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $4 + $3
WHERE seq = $1 AND published_at IS NULL`,
	},
}

func (r *Relay) batchPostgres(ctx context.Context) (int, error) {
	sctx, cancel := r.store(ctx)
	defer cancel()
	tx, err := r.db.BeginTx(sctx, nil)
	if err != nil {
		r.in.failed(ctx, opFetch)
		return 0, fmt.Errorf("outbox: begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	topics, err := queryStrings(sctx, tx, pgTopics, 10*r.cfg.BatchSize, r.cfg.BatchSize)
	if err != nil {
		r.in.failed(ctx, opFetch)
		return 0, fmt.Errorf("outbox: fetching topics: %w", err)
	}
	if len(topics) == 0 {
		return 0, tx.Commit()
	}
	list, _ := json.Marshal(topics)
	rows, err := queryRows(sctx, tx, pgBatch, string(list), r.cfg.BatchSize)
	if err != nil {
		r.in.failed(ctx, opFetch)
		return 0, fmt.Errorf("outbox: fetching a batch: %w", err)
	}
	published, failed := r.publish(ctx, rows)
	if err := r.mark(sctx, tx, published, failed, 0); err != nil {
		r.in.failed(ctx, opMark)
		return len(rows), err
	}
	if err := tx.Commit(); err != nil {
		r.in.failed(ctx, opMark)
		return len(rows), fmt.Errorf("outbox: committing a batch's marks (its messages will be published again): %w", err)
	}
	r.counted(ctx, published, failed)
	return len(rows), nil
}

func (r *Relay) batchSQLite(ctx context.Context) (int, error) {
	sctx, cancel := r.store(ctx)
	defer cancel()
	rows, err := queryRows(sctx, r.db, sqliteBatch, time.Now().UnixMicro(), r.cfg.BatchSize)
	if err != nil {
		r.in.failed(ctx, opFetch)
		return 0, fmt.Errorf("outbox: fetching a batch: %w", err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	published, failed := r.publish(ctx, rows)
	if len(published) == 0 && len(failed) == 0 {
		return len(rows), nil
	}
	tx, err := r.db.BeginTx(sctx, nil)
	if err != nil {
		r.in.failed(ctx, opMark)
		return len(rows), fmt.Errorf("outbox: begin marking a batch (its messages will be published again): %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := r.mark(sctx, tx, published, failed, time.Now().UnixMicro()); err != nil {
		r.in.failed(ctx, opMark)
		return len(rows), err
	}
	if err := tx.Commit(); err != nil {
		r.in.failed(ctx, opMark)
		return len(rows), fmt.Errorf("outbox: committing a batch's marks (its messages will be published again): %w", err)
	}
	r.counted(ctx, published, failed)
	return len(rows), nil
}

// failure is a message whose publish failed.
type failure struct {
	r     row
	err   error
	delay time.Duration // the backoff
}

// publish publishes rows in order, a topic at a time in the sense that a topic whose message
// failed publishes nothing more in this batch. It stops when ctx ends.
func (r *Relay) publish(ctx context.Context, rows []row) (published []int64, failed []failure) {
	stopped := map[string]bool{}
	for _, m := range rows {
		if ctx.Err() != nil {
			return
		}
		if stopped[m.msg.Topic] {
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, r.cfg.PublishTimeout)
		err := r.cfg.Publisher.Publish(pctx, m.msg)
		cancel()
		if err == nil {
			published = append(published, m.seq)
			continue
		}
		stopped[m.msg.Topic] = true
		if ctx.Err() != nil {
			return // stopping: not the message's failure
		}
		failed = append(failed, failure{r: m, err: err, delay: r.cfg.Backoff(m.attempts + 1)})
	}
	return
}

// mark records a batch's outcome in tx; now is SQLite's clock (Unix µs), unused on PostgreSQL.
func (r *Relay) mark(ctx context.Context, tx *sql.Tx, published []int64, failed []failure, now int64) error {
	q := marks[r.cfg.Dialect]
	if len(published) > 0 {
		list, _ := json.Marshal(published)
		args := []any{string(list)}
		if r.cfg.Dialect == SQLite {
			args = append(args, now)
		}
		if _, err := tx.ExecContext(ctx, q.published, args...); err != nil {
			return fmt.Errorf("outbox: marking a batch published (its messages will be published again): %w", err)
		}
	}
	for _, f := range failed {
		args := []any{f.r.seq, errorText(f.err), f.delay.Microseconds()}
		if r.cfg.Dialect == SQLite {
			args = append(args, now)
		}
		if _, err := tx.ExecContext(ctx, q.failed, args...); err != nil {
			return fmt.Errorf("outbox: recording a failed publish: %w", err)
		}
	}
	return nil
}

// counted counts and logs a batch whose marks were committed.
func (r *Relay) counted(ctx context.Context, published []int64, failed []failure) {
	if len(published) > 0 {
		r.in.published.Add(ctx, int64(len(published)), r.in.attrs...)
	}
	for _, f := range failed {
		r.in.failures.Add(ctx, 1, r.in.attrs...)
		r.log.WarnContext(ctx, "outbox: publish failed; the message and the later ones of its topic wait for the backoff",
			slog.String("id", f.r.msg.ID), slog.String("topic", f.r.msg.Topic),
			slog.Int("attempts", f.r.attempts+1), slog.Duration("backoff", f.delay), slog.Any("error", f.err))
	}
}

// errorText is a failure as last_error keeps it: at most 1000 bytes of valid UTF-8.
func errorText(err error) string {
	s := strings.ToValidUTF8(err.Error(), "?")
	if len(s) <= 1000 {
		return s
	}
	s = s[:1000]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func queryStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rs, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		var s string
		if err := rs.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rs.Err()
}

func queryRows(ctx context.Context, q querier, query string, args ...any) ([]row, error) {
	rs, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []row
	for rs.Next() {
		var m row
		var headers string
		if err := rs.Scan(&m.seq, &m.msg.ID, &m.msg.Topic, &m.msg.Payload, &headers, &m.attempts); err != nil {
			return nil, err
		}
		if headers != "" && headers != "{}" {
			if err := json.Unmarshal([]byte(headers), &m.msg.Headers); err != nil {
				return nil, fmt.Errorf("outbox: message %q: headers: %w", m.msg.ID, err)
			}
		}
		out = append(out, m)
	}
	return out, rs.Err()
}

// DeletePublished deletes at most limit rows published more than Retention ago, and returns
// how many it deleted. Run calls it every CleanupInterval; call it from your own scheduler
// if you use RelayOnce.
func (r *Relay) DeletePublished(ctx context.Context, limit int) (int64, error) {
	if limit <= 0 {
		return 0, fmt.Errorf("outbox: DeletePublished: limit %d must be positive", limit)
	}
	sctx, cancel := context.WithTimeout(ctx, r.cfg.StoreTimeout)
	defer cancel()
	var res sql.Result
	var err error
	if r.cfg.Dialect == Postgres {
		res, err = r.db.ExecContext(sctx, `DELETE FROM idempotency_outbox WHERE seq IN (
	SELECT seq FROM idempotency_outbox
	WHERE published_at < statement_timestamp() - $1::bigint * interval '1 microsecond'
	ORDER BY published_at LIMIT $2 FOR UPDATE SKIP LOCKED)`, r.cfg.Retention.Microseconds(), limit)
	} else {
		res, err = r.db.ExecContext(sctx, `DELETE FROM idempotency_outbox WHERE seq IN (
	SELECT seq FROM idempotency_outbox WHERE published_at < $1 ORDER BY published_at LIMIT $2)`,
			time.Now().Add(-r.cfg.Retention).UnixMicro(), limit)
	}
	if err != nil {
		r.in.failed(ctx, opCleanup)
		return 0, fmt.Errorf("outbox: deleting published rows: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("outbox: deleting published rows: %w", err)
	}
	if n > 0 {
		r.in.deleted.Add(ctx, n, r.in.attrs...)
	}
	return n, nil
}

// Stats is what the outbox holds back.
type Stats struct {
	// Pending is the number of messages not published yet.
	Pending int64
	// Lag is the age of the oldest of them (0 when none is pending).
	Lag time.Duration
}

// Stats reads the pending count and lag (one query, which counts the pending rows), and
// reports them on the relay's gauges.
func (r *Relay) Stats(ctx context.Context) (Stats, error) {
	sctx, cancel := context.WithTimeout(ctx, r.cfg.StoreTimeout)
	defer cancel()
	var s Stats
	if r.cfg.Dialect == Postgres {
		var lagMicros int64
		err := r.db.QueryRowContext(sctx, `SELECT count(*),
	coalesce((extract(epoch FROM statement_timestamp() - min(created_at)) * 1000000)::bigint, 0)
FROM idempotency_outbox WHERE published_at IS NULL`).Scan(&s.Pending, &lagMicros)
		if err != nil {
			r.in.failed(ctx, opStats)
			return Stats{}, fmt.Errorf("outbox: stats: %w", err)
		}
		s.Lag = time.Duration(max(lagMicros, 0)) * time.Microsecond
	} else {
		var oldest sql.NullInt64
		err := r.db.QueryRowContext(sctx, `SELECT count(*), min(created_at) FROM idempotency_outbox WHERE published_at IS NULL`).Scan(&s.Pending, &oldest)
		if err != nil {
			r.in.failed(ctx, opStats)
			return Stats{}, fmt.Errorf("outbox: stats: %w", err)
		}
		if oldest.Valid {
			s.Lag = max(time.Since(time.UnixMicro(oldest.Int64)), 0)
		}
	}
	r.in.setStats(s)
	return s, nil
}
