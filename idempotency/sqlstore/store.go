// Package sqlstore is an idempotency.Store in a SQL database over database/sql, for
// PostgreSQL and SQLite, with transactional completion: a handler can write its business rows
// and the completion marker in one transaction (CompleteTx), so a crash can never leave the
// rows without the marker or the marker without the rows.
//
// The schema is one table, idempotency_keys, with the key as its primary key, the epoch's
// high-water mark and, on PostgreSQL, idempotency_leases, where renewals extend a claim's
// lease (so a handler transaction at any isolation level can complete its claim). Its
// migrations ship as SQL (Migrations) for the migration tool you use, or Migrate applies them
// at start-up, taking no lock on the store's table when there is nothing to do. Leases and
// retentions are measured by the database clock, inside each statement (PostgreSQL's
// statement_timestamp(), SQLite's 'now'), so workers' clocks never disagree about who holds a
// key.
//
// Each store call is one statement: a job protected by the middleware costs two round trips
// (claim, complete), and with CompleteTx the completion rides in the handler's own
// transaction. Run RunCleanup (or DeleteExpired now and then) to drop expired rows;
// correctness does not depend on it, since expired rows are reused in place.
//
// What the database needs: on PostgreSQL, connections for renewals beside the handlers'
// transactions (pool headroom, or Config.RenewDB); on SQLite, WAL mode with a busy timeout
// or a single connection, and handler transactions begun with Store.BeginTx.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

// Dialect is the SQL database the store talks to.
type Dialect uint8

const (
	// Postgres works with any database/sql driver for PostgreSQL that takes $1 placeholders
	// (github.com/jackc/pgx/v5/stdlib, github.com/lib/pq).
	Postgres Dialect = iota + 1
	// SQLite needs SQLite 3.35 or newer (RETURNING), such as modernc.org/sqlite. Open the
	// database in WAL mode with a busy timeout so that workers wait for each other's writes
	// instead of failing.
	SQLite
)

func (d Dialect) String() string {
	switch d {
	case Postgres:
		return "postgres"
	case SQLite:
		return "sqlite"
	}
	return fmt.Sprintf("Dialect(%d)", uint8(d))
}

// Config configures a Store.
type Config struct {
	Dialect Dialect
	// Clock, when set, replaces the database clock (PostgreSQL) or the system clock (SQLite).
	// It exists for tests, which move a fake clock instead of waiting.
	Clock idempotency.Clock
	// RenewDB, when set, is the pool that renewals run on (PostgreSQL): a second *sql.DB on
	// the same database and schema, opened with the same settings, whose few connections
	// (SetMaxOpenConns(2) is plenty) are there for renewals alone. A handler's transaction
	// holds a connection of its pool while its claim must be renewed, so in a pool sized for
	// the workers every connection can be in a transaction just when the renewals need one:
	// they wait, time out, and the handlers are cancelled. Without RenewDB, give the store's
	// pool headroom instead: more connections than handlers can hold at once.
	RenewDB *sql.DB
}

// Store is an idempotency.Store in a SQL database. It is safe for concurrent use.
type Store struct {
	db      *sql.DB
	renewDB *sql.DB // db unless Config.RenewDB
	dialect Dialect
	clock   idempotency.Clock
	q       *queries
}

var _ idempotency.ResultStore = (*Store)(nil)

// New returns a Store on db. The table must exist: see Migrate.
func New(db *sql.DB, cfg Config) (*Store, error) {
	if db == nil {
		return nil, errors.New("sqlstore: nil *sql.DB")
	}
	s := &Store{db: db, renewDB: db, dialect: cfg.Dialect, clock: cfg.Clock}
	if cfg.RenewDB != nil {
		s.renewDB = cfg.RenewDB
	}
	switch cfg.Dialect {
	case Postgres:
		s.q = &postgresQueries
	case SQLite:
		s.q = &sqliteQueries
	default:
		return nil, fmt.Errorf("sqlstore: unknown dialect %v", cfg.Dialect)
	}
	return s, nil
}

// queries holds one dialect's statements, each with its arguments in a fixed order:
//
//	claim:         key, owner, fingerprint, lease (µs), now
//	claimFallback: key, now
//	renew:         key, owner, epoch, lease (µs), now
//	complete:      key, owner, epoch, retention (µs), now, result
//	release:       key, owner, epoch, now
//	deleteExpired: limit, now
//	inspect:       key, now
//	forget:        key
//
// where now is nil on PostgreSQL to use the database clock.
type queries struct {
	claim         string
	claimFallback string
	renew         string
	complete      string
	release       string
	deleteExpired string
	inspect       string
	forget        string
	// hold (SQLite): a write that changes nothing, to take the write lock in a handler's
	// transaction while checking that its claim is held: key, owner, epoch.
	hold string
	// deleteCounts: deleteExpired returns the number of rows it deleted as a row, rather than
	// as the statement's affected-row count (PostgreSQL's also deletes lease rows).
	deleteCounts bool
}

// pgNow is the PostgreSQL "now": the statement's start on the database clock unless a test
// passes its own. statement_timestamp() rather than now(): inside the handler's transaction
// (CompleteTx), now() would be the transaction's start, possibly long ago.
func pgNow(param int) string {
	return fmt.Sprintf("coalesce($%d::timestamptz, statement_timestamp())", param)
}

// pgExpiry is when the record of idempotency_keys row k runs out: for a claim, the later of
// its lease as claimed and as renewed in idempotency_leases (migration 0005), read from
// lease, a relation of the key's lease row (epoch, expires_at).
func pgExpiry(lease string) string {
	return `CASE WHEN k.state = 'in_progress'
		THEN greatest(k.expires_at, (SELECT l.expires_at FROM ` + lease + ` l WHERE l.epoch = k.epoch))
		ELSE k.expires_at END`
}

var postgresQueries = queries{
	// One statement, one round trip: the CTE inserts the row or takes over a free one (or
	// gives its owner back a claim it already holds: a retry after a lost reply), and when
	// the key is held the second branch reads the holder instead. The epoch comes from the
	// sequence (migration 0004's idempotency_next_epoch): store-wide, so above any epoch the
	// key ever had, and kept at least the clock in microseconds. A holder that committed
	// after this statement's snapshot is invisible to that branch; then nothing comes back
	// and claimFallback reads it with a fresh snapshot.
	//
	// Renewals extend the lease in idempotency_leases, so a claim's lease is the later of its
	// row's and its lease row's. The lease row is read with a lock, which waits for a renewal
	// under way and sees one that committed after this statement's snapshot (READ COMMITTED
	// re-reads a row it locks): a key is never taken over from a holder whose renewal landed.
	// Every claim writes its lease row, so that a renewal only ever updates an existing row,
	// which a lock can see.
	claim: `
WITH now AS (SELECT ` + pgNow(5) + ` AS t),
lease AS (SELECT epoch, expires_at FROM idempotency_leases WHERE key = $1 FOR SHARE),
claimed AS (
	INSERT INTO idempotency_keys AS k (key, state, owner, epoch, fingerprint, expires_at)
	SELECT $1, 'in_progress', $2, idempotency_next_epoch((extract(epoch FROM now.t) * 1000000)::bigint), $3,
	       now.t + $4::bigint * interval '1 microsecond'
	FROM now
	ON CONFLICT (key) DO UPDATE SET
		state       = 'in_progress',
		owner       = excluded.owner,
		epoch       = CASE WHEN k.state = 'in_progress' AND k.owner = excluded.owner AND ` + pgExpiry("lease") + ` > (SELECT t FROM now)
		                   THEN k.epoch ELSE greatest(k.epoch + 1, excluded.epoch) END,
		fingerprint = excluded.fingerprint,
		expires_at  = excluded.expires_at,
		result      = NULL
	WHERE k.state = 'released' OR ` + pgExpiry("lease") + ` <= (SELECT t FROM now)
	   OR (k.state = 'in_progress' AND k.owner = excluded.owner)
	RETURNING k.state, k.owner, k.epoch, k.fingerprint, k.expires_at, k.result
),
leased AS (
	INSERT INTO idempotency_leases AS l (key, owner, epoch, expires_at)
	SELECT $1, owner, epoch, expires_at FROM claimed
	ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, epoch = excluded.epoch, expires_at = excluded.expires_at
)
SELECT r.claimed, r.state, r.owner, r.epoch, r.fingerprint,
       (extract(epoch FROM r.expires_at - now.t) * 1000000)::bigint, r.result
FROM now, (
	SELECT true AS claimed, state, owner, epoch, fingerprint, expires_at, result FROM claimed
	UNION ALL
	SELECT false, k.state, k.owner, k.epoch, k.fingerprint, ` + pgExpiry("lease") + `, k.result FROM idempotency_keys k
	WHERE k.key = $1 AND NOT EXISTS (SELECT 1 FROM claimed)
) r`,
	claimFallback: `
SELECT false, k.state, k.owner, k.epoch, k.fingerprint,
       (extract(epoch FROM ` + pgExpiry("(SELECT epoch, expires_at FROM idempotency_leases WHERE key = $1)") + ` - ` + pgNow(2) + `) * 1000000)::bigint, k.result
FROM idempotency_keys k WHERE k.key = $1`,
	// The lease row is the claim's only while its key's row still is: after a completion,
	// a release or a takeover the renewal finds no claim and fails. A takeover rewrites the
	// lease row too, so a renewal that waited for it finds another owner.
	renew: `
UPDATE idempotency_leases SET expires_at = ` + pgNow(5) + ` + $4::bigint * interval '1 microsecond'
WHERE key = $1 AND owner = $2 AND epoch = $3
  AND EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.key = $1 AND k.owner = $2 AND k.epoch = $3 AND k.state = 'in_progress')`,
	// Completing again with the same token succeeds, so a retry after a lost reply is safe.
	complete: `
UPDATE idempotency_keys SET state = 'completed', expires_at = ` + pgNow(5) + ` + $4::bigint * interval '1 microsecond',
	result = $6
WHERE key = $1 AND owner = $2 AND epoch = $3 AND state IN ('in_progress', 'completed')`,
	release: `
UPDATE idempotency_keys SET state = 'released', expires_at = ` + pgNow(4) + `
WHERE key = $1 AND owner = $2 AND epoch = $3 AND state IN ('in_progress', 'released')`,
	// The candidates are read without locks; the outer test is evaluated again on the row
	// locked for deletion, with the lease row locked too, so neither a claim that has just
	// taken the key over nor a renewal that has just landed loses its key. A key's lease row
	// goes with it.
	deleteExpired: `
WITH gone AS (
	DELETE FROM idempotency_keys k
	WHERE k.key IN (
		SELECT c.key FROM idempotency_keys c LEFT JOIN idempotency_leases cl ON cl.key = c.key AND cl.epoch = c.epoch
		WHERE c.expires_at <= ` + pgNow(2) + ` AND (c.state <> 'in_progress' OR cl.expires_at IS NULL OR cl.expires_at <= ` + pgNow(2) + `)
		LIMIT $1)
	  AND ` + pgExpiry("(SELECT epoch, expires_at FROM idempotency_leases WHERE key = k.key FOR SHARE)") + ` <= ` + pgNow(2) + `
	RETURNING k.key
), leases AS (
	DELETE FROM idempotency_leases WHERE key IN (SELECT key FROM gone)
)
SELECT count(*) FROM gone`,
	inspect: `
SELECT false, k.state, k.owner, k.epoch, k.fingerprint,
       (extract(epoch FROM ` + pgExpiry("(SELECT epoch, expires_at FROM idempotency_leases WHERE key = $1)") + ` - ` + pgNow(2) + `) * 1000000)::bigint, k.result
FROM idempotency_keys k WHERE k.key = $1`,
	forget: `
WITH gone AS (DELETE FROM idempotency_keys WHERE key = $1),
steps AS (DELETE FROM idempotency_steps WHERE key = $1)
DELETE FROM idempotency_leases WHERE key = $1`,
	deleteCounts: true,
}

// sqliteNow is the SQLite "now" in Unix microseconds: the database's clock (SQLite's
// 'now', the same for the whole statement, with millisecond precision) unless a test passes
// its own. Kept in SQL, like PostgreSQL's, so that the lease is measured where it is
// written, not in each process.
func sqliteNow(param int) string {
	return fmt.Sprintf("coalesce(?%d, CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER))", param)
}

// SQLite runs one writer at a time, so reading a held key's row in a second statement
// races with nothing that Claim does not retry; it cannot put an INSERT in a CTE anyway. The
// epoch is past the store-wide high-water mark that the migration's triggers keep.
var sqliteQueries = queries{
	claim: `
INSERT INTO idempotency_keys (key, state, owner, epoch, fingerprint, expires_at)
VALUES (?1, 'in_progress', ?2, max(` + sqliteNow(5) + `, (SELECT n + 1 FROM idempotency_epoch WHERE id = 1)), ?3, ` + sqliteNow(5) + ` + ?4)
ON CONFLICT (key) DO UPDATE SET
	state       = 'in_progress',
	owner       = excluded.owner,
	epoch       = CASE WHEN idempotency_keys.state = 'in_progress' AND idempotency_keys.owner = excluded.owner AND idempotency_keys.expires_at > ` + sqliteNow(5) + `
	                   THEN idempotency_keys.epoch ELSE max(idempotency_keys.epoch + 1, excluded.epoch) END,
	fingerprint = excluded.fingerprint,
	expires_at  = excluded.expires_at,
	result      = NULL
WHERE idempotency_keys.state = 'released' OR idempotency_keys.expires_at <= ` + sqliteNow(5) + `
   OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.owner = excluded.owner)
RETURNING true, state, owner, epoch, fingerprint, expires_at - ` + sqliteNow(5) + `, result`,
	claimFallback: `
SELECT false, state, owner, epoch, fingerprint, expires_at - ` + sqliteNow(2) + `, result
FROM idempotency_keys WHERE key = ?1`,
	renew: `
UPDATE idempotency_keys SET expires_at = ` + sqliteNow(5) + ` + ?4
WHERE key = ?1 AND owner = ?2 AND epoch = ?3 AND state = 'in_progress'`,
	complete: `
UPDATE idempotency_keys SET state = 'completed', expires_at = ` + sqliteNow(5) + ` + ?4, result = ?6
WHERE key = ?1 AND owner = ?2 AND epoch = ?3 AND state IN ('in_progress', 'completed')`,
	release: `
UPDATE idempotency_keys SET state = 'released', expires_at = ` + sqliteNow(4) + `
WHERE key = ?1 AND owner = ?2 AND epoch = ?3 AND state IN ('in_progress', 'released')`,
	deleteExpired: `
DELETE FROM idempotency_keys
WHERE expires_at <= ` + sqliteNow(2) + ` AND key IN (
	SELECT key FROM idempotency_keys WHERE expires_at <= ` + sqliteNow(2) + ` LIMIT ?1)`,
	inspect: `
SELECT false, state, owner, epoch, fingerprint, expires_at - ` + sqliteNow(2) + `, result
FROM idempotency_keys WHERE key = ?1`,
	forget: `DELETE FROM idempotency_keys WHERE key = ?1`,
	hold: `
UPDATE idempotency_keys SET expires_at = expires_at
WHERE key = ?1 AND owner = ?2 AND epoch = ?3 AND state = 'in_progress'`,
}

// now is the "now" argument: nil lets the database use its own clock (see pgNow and
// sqliteNow); a test's Clock is passed as a time (PostgreSQL) or Unix microseconds (SQLite).
func (s *Store) now() any {
	switch {
	case s.clock == nil:
		return nil
	case s.dialect == SQLite:
		return s.clock.Now().UnixMicro()
	}
	return s.clock.Now()
}

// Claim implements idempotency.Store.
func (s *Store) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	// Between a claim that found the key held and the read of its holder, the holder can
	// release it or its lease can end: then the key is free and claiming again is right.
	// Three tries cover any realistic interleaving.
	for range 3 {
		row := s.db.QueryRowContext(ctx, s.q.claim, req.Key, req.Owner, req.Fingerprint, req.Lease.Microseconds(), s.now())
		res, live, err := s.scanClaim(row)
		if errors.Is(err, sql.ErrNoRows) {
			res, live, err = s.scanClaim(s.db.QueryRowContext(ctx, s.q.claimFallback, req.Key, s.now()))
		}
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return res, fmt.Errorf("sqlstore: claim: %w", err)
		}
		if live {
			return res, nil
		}
	}
	return idempotency.ClaimResult{}, errors.New("sqlstore: claim: the key kept changing hands; try again")
}

// scanClaim reads a claim row. live is false for a row that is released or expired: free,
// to be claimed again.
func (s *Store) scanClaim(row *sql.Row) (res idempotency.ClaimResult, live bool, err error) {
	var (
		claimed   bool
		state     string
		expiresIn int64
	)
	if err := row.Scan(&claimed, &state, &res.Token.Owner, &res.Token.Epoch, &res.Fingerprint, &expiresIn, &res.Result); err != nil {
		return res, false, err
	}
	res.ExpiresIn = time.Duration(expiresIn) * time.Microsecond
	switch {
	case claimed:
		res.Status = idempotency.StatusClaimed
		res.Fingerprint, res.Result = nil, nil
		return res, true, nil
	case state == "completed":
		res.Status = idempotency.StatusCompleted
	case state == "in_progress":
		res.Status = idempotency.StatusInProgress
		res.Result = nil
	case state == "failed":
		// A failed marker keeps its error's text where a completion keeps its result.
		res.Status = idempotency.StatusFailed
		res.Reason, res.Result = string(res.Result), nil
	default:
		return res, false, nil
	}
	return res, res.ExpiresIn > 0, nil
}

// Renew implements idempotency.Store. It runs on Config.RenewDB when set.
func (s *Store) Renew(ctx context.Context, key string, token idempotency.Token, lease time.Duration) error {
	err := s.update(ctx, s.renewDB, "renew", s.q.renew, key, token.Owner, token.Epoch, lease.Microseconds(), s.now())
	if err != nil && ctx.Err() != nil {
		// The usual reason a renewal times out in a healthy database: it waited for a
		// connection of a pool whose every connection a handler's transaction holds.
		if st := s.renewDB.Stats(); st.MaxOpenConnections > 0 && st.InUse >= st.MaxOpenConnections {
			return fmt.Errorf("sqlstore: renew: every connection of the pool is in use (%d of %d), so the renewal waited for one until its timeout: "+
				"give the pool more connections than handlers hold at once, or renewals a pool of their own (Config.RenewDB): %w", st.InUse, st.MaxOpenConnections, err)
		}
	}
	return err
}

// Complete implements idempotency.Store.
func (s *Store) Complete(ctx context.Context, key string, token idempotency.Token, retention time.Duration) error {
	return s.CompleteWithResult(ctx, key, token, retention, nil)
}

// CompleteWithResult implements idempotency.ResultStore.
func (s *Store) CompleteWithResult(ctx context.Context, key string, token idempotency.Token, retention time.Duration, result []byte) error {
	return s.update(ctx, s.db, "complete", s.q.complete, key, token.Owner, token.Epoch, retention.Microseconds(), s.now(), result)
}

// Release implements idempotency.Store.
func (s *Store) Release(ctx context.Context, key string, token idempotency.Token) error {
	return s.update(ctx, s.db, "release", s.q.release, key, token.Owner, token.Epoch, s.now())
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// update runs a compare-and-set on the token: no row changed means the token does not hold
// the key.
func (s *Store) update(ctx context.Context, db execer, op, query string, args ...any) error {
	r, err := db.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("sqlstore: %s: %w", op, err)
	}
	n, err := r.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlstore: %s: %w", op, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlstore: %s: %w", op, idempotency.ErrConflict)
	}
	return nil
}

// CompleteTx writes the completion marker for the claim that ctx's handler runs under, in
// the handler's transaction tx, and tells the middleware it need not write it again. Call it
// last in the transaction, just before Commit, and return Commit's error from the handler:
//
//	tx, err := db.BeginTx(ctx, nil)
//	...                                   // the business rows
//	if err := store.CompleteTx(ctx, tx); err != nil {
//		tx.Rollback()
//		return err
//	}
//	return tx.Commit()
//
// The business rows and the marker then commit together or not at all, which closes the
// crash window for effects in this database. If the claim was taken over, CompleteTx fails
// with an error matching idempotency.ErrConflict: roll back, and return it, so that a
// worker that lost its claim leaves no rows behind. From this call until the commit, the
// transaction holds the key's row, so no other worker can take the key over.
//
// Any isolation level works. On PostgreSQL, renewals extend the lease in a table of their
// own (idempotency_leases), never in the key's row, so a REPEATABLE READ or SERIALIZABLE
// transaction that outlives renewals can still update it; the serialization failure such a
// transaction gets when the claim was taken over after its snapshot is reported as the
// conflict it is.
//
// ctx must be the handler's context (or one derived from it); tx must belong to this store's
// database. For a job run without a claim (the RunUnprotected empty-key policy) it does
// nothing.
func (s *Store) CompleteTx(ctx context.Context, tx *sql.Tx) error {
	return idempotency.CompleteInTx(ctx, func(c idempotency.Claim) error {
		err := s.update(ctx, tx, "complete in transaction", s.q.complete,
			c.StoreKey, c.Token.Owner, c.Token.Epoch, c.Retention.Microseconds(), s.now(), c.Result)
		if s.dialect == Postgres && sqlState(err) == "40001" && !s.stillHeld(ctx, c) {
			// At REPEATABLE READ or SERIALIZABLE, a key's row that another worker took over
			// (or completed, released, forgot) after the transaction's snapshot cannot be
			// updated: the serialization failure is this transaction's "no such claim".
			return fmt.Errorf("sqlstore: complete in transaction: %w (the claim was taken over after the transaction began: %w)", idempotency.ErrConflict, err)
		}
		return err
	})
}

// sqlState is the SQLSTATE of a PostgreSQL error (pgx's and lib/pq's both tell it), or "".
func sqlState(err error) string {
	var st interface{ SQLState() string }
	if errors.As(err, &st) {
		return st.SQLState()
	}
	return ""
}

// stillHeld reports whether c's token still holds its key in progress, read outside the
// handler's transaction (which has failed). In doubt it says yes, which leaves the error as
// the database gave it: retryable, not a conflict.
func (s *Store) stillHeld(ctx context.Context, c idempotency.Claim) bool {
	var n int
	err := s.db.QueryRowContext(ctx,
		`SELECT count(*) FROM idempotency_keys WHERE key = $1 AND owner = $2 AND epoch = $3 AND state = 'in_progress'`,
		c.StoreKey, c.Token.Owner, c.Token.Epoch).Scan(&n)
	return err != nil || n > 0
}

// DeleteExpired deletes up to limit rows whose lease or retention has run out, and the steps
// of up to limit keys whose steps have all expired, and returns how many rows it deleted.
// Expired rows are harmless (a claim reuses them, and expired steps are never read), so this
// only bounds the tables' size; run it periodically, in batches, from any one worker.
func (s *Store) DeleteExpired(ctx context.Context, limit int) (int64, error) {
	if limit <= 0 {
		return 0, fmt.Errorf("sqlstore: DeleteExpired: limit %d must be positive", limit)
	}
	n, err := s.deleteExpiredKeys(ctx, limit)
	if err != nil {
		return n, err
	}
	steps, err := s.deleteExpiredSteps(ctx, limit)
	return n + steps, err
}

func (s *Store) deleteExpiredKeys(ctx context.Context, limit int) (int64, error) {
	if s.q.deleteCounts {
		var n int64
		if err := s.db.QueryRowContext(ctx, s.q.deleteExpired, int64(limit), s.now()).Scan(&n); err != nil {
			return 0, fmt.Errorf("sqlstore: delete expired: %w", err)
		}
		return n, nil
	}
	r, err := s.db.ExecContext(ctx, s.q.deleteExpired, int64(limit), s.now())
	if err != nil {
		return 0, fmt.Errorf("sqlstore: delete expired: %w", err)
	}
	return r.RowsAffected()
}
