package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

var (
	_ idempotency.StepStore   = (*Store)(nil)
	_ idempotency.ReviewStore = (*Store)(nil)
)

// stepQueries are one dialect's statements for steps and failed markers (migrations 0006 and
// 0007 on PostgreSQL, 0004 and 0005 on SQLite), each with its arguments in a fixed order:
//
//	loadSteps:    key, now
//	loadStep:     key, name, now
//	staleSteps:   key, owner, epoch, name, now (SQLite: saveStep's first statement)
//	saveStep:     key, owner, epoch, retention (µs), now, name, result
//	fail:         key, owner, epoch, retention (µs), now, reason
//	keepSteps:    key, now (SQLite: fail's second statement)
//	retry:        key, now
//	forgetSteps:  key (SQLite; PostgreSQL's forget deletes them)
//	deleteSteps:  limit, now
//
// A key's steps live and expire together: they are kept while the latest of their
// expires_at is ahead. So a step's write never touches the key's other live rows (a handler
// transaction that recorded one, StepTx, would make a later Step wait for it); it deletes
// the rows of a finished run (all expired) so they do not come back with the new one.
type stepQueries struct {
	loadSteps, loadStep, staleSteps, saveStep, fail, keepSteps, retry, forgetSteps, deleteSteps string
}

// pgStepsLive is true when the key $1's steps are kept at the time now.
func pgStepsLive(now string) string {
	return `(SELECT max(l.expires_at) FROM idempotency_steps l WHERE l.key = $1) > ` + now
}

var postgresSteps = stepQueries{
	loadSteps: `SELECT name, result FROM idempotency_steps WHERE key = $1 AND ` + pgStepsLive(pgNow(2)),
	loadStep:  `SELECT result FROM idempotency_steps WHERE key = $1 AND name = $2 AND ` + pgStepsLive(pgNow(3)),
	// One statement: the key's row is locked for share while its token is checked, so a
	// takeover that commits meanwhile is seen (READ COMMITTED re-reads a row it locks) and
	// the step refused; inside a handler transaction (StepTx) the lock holds to its end, as
	// CompleteTx's does.
	saveStep: `
WITH now AS (SELECT ` + pgNow(5) + ` AS t),
held AS (
	SELECT 1 FROM idempotency_keys k
	WHERE k.key = $1 AND k.owner = $2 AND k.epoch = $3 AND k.state = 'in_progress' FOR SHARE
),
stale AS (
	DELETE FROM idempotency_steps s
	WHERE s.key = $1 AND s.name <> $6 AND EXISTS (SELECT 1 FROM held)
	  AND NOT coalesce(` + pgStepsLive("(SELECT t FROM now)") + `, false)
),
saved AS (
	INSERT INTO idempotency_steps (key, name, result, expires_at)
	SELECT $1, $6, $7, now.t + $4::bigint * interval '1 microsecond' FROM now, held
	ON CONFLICT (key, name) DO UPDATE SET result = excluded.result, expires_at = excluded.expires_at
	RETURNING 1
)
SELECT count(*) FROM saved`,
	// The key's live steps are kept as long as the marker, so that a Retry after review
	// resumes from them.
	fail: `
WITH failed AS (
	UPDATE idempotency_keys SET state = 'failed', expires_at = ` + pgNow(5) + ` + $4::bigint * interval '1 microsecond', result = $6
	WHERE key = $1 AND owner = $2 AND epoch = $3 AND state IN ('in_progress', 'failed')
	RETURNING expires_at
),
kept AS (
	UPDATE idempotency_steps s SET expires_at = greatest(s.expires_at, failed.expires_at) FROM failed
	WHERE s.key = $1 AND ` + pgStepsLive(pgNow(5)) + `
)
SELECT count(*) FROM failed`,
	retry: `
UPDATE idempotency_keys SET state = 'released', expires_at = ` + pgNow(2) + `, result = NULL
WHERE key = $1 AND state = 'failed' AND expires_at > ` + pgNow(2),
	// Keys whose every step has expired, found through the expiry index; the test is made
	// again on the rows being deleted, so a step just recorded is never lost.
	deleteSteps: `
DELETE FROM idempotency_steps d
WHERE d.key IN (
	SELECT DISTINCT c.key FROM idempotency_steps c
	WHERE c.expires_at <= ` + pgNow(2) + `
	  AND NOT EXISTS (SELECT 1 FROM idempotency_steps l WHERE l.key = c.key AND l.expires_at > ` + pgNow(2) + `)
	LIMIT $1)
  AND NOT EXISTS (SELECT 1 FROM idempotency_steps l WHERE l.key = d.key AND l.expires_at > ` + pgNow(2) + `)`,
}

func sqliteStepsLive(now string) string {
	return `(SELECT max(l.expires_at) FROM idempotency_steps l WHERE l.key = ?1) > ` + now
}

// SQLite runs one writer at a time, so a write of several statements in one transaction is
// as atomic as PostgreSQL's one statement.
var sqliteSteps = stepQueries{
	loadSteps: `SELECT name, result FROM idempotency_steps WHERE key = ?1 AND ` + sqliteStepsLive(sqliteNow(2)),
	loadStep:  `SELECT result FROM idempotency_steps WHERE key = ?1 AND name = ?2 AND ` + sqliteStepsLive(sqliteNow(3)),
	staleSteps: `
DELETE FROM idempotency_steps
WHERE key = ?1 AND name <> ?4
  AND EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.key = ?1 AND k.owner = ?2 AND k.epoch = ?3 AND k.state = 'in_progress')
  AND NOT coalesce(` + sqliteStepsLive(sqliteNow(5)) + `, 0)`,
	saveStep: `
INSERT INTO idempotency_steps (key, name, result, expires_at)
SELECT ?1, ?6, ?7, ` + sqliteNow(5) + ` + ?4 FROM idempotency_keys k
WHERE k.key = ?1 AND k.owner = ?2 AND k.epoch = ?3 AND k.state = 'in_progress'
ON CONFLICT (key, name) DO UPDATE SET result = excluded.result, expires_at = excluded.expires_at`,
	fail: `
UPDATE idempotency_keys SET state = 'failed', expires_at = ` + sqliteNow(5) + ` + ?4, result = ?6
WHERE key = ?1 AND owner = ?2 AND epoch = ?3 AND state IN ('in_progress', 'failed')`,
	keepSteps: `
UPDATE idempotency_steps SET expires_at = max(expires_at, (SELECT k.expires_at FROM idempotency_keys k WHERE k.key = ?1))
WHERE key = ?1 AND ` + sqliteStepsLive(sqliteNow(2)),
	retry: `
UPDATE idempotency_keys SET state = 'released', expires_at = ` + sqliteNow(2) + `, result = NULL
WHERE key = ?1 AND state = 'failed' AND expires_at > ` + sqliteNow(2),
	forgetSteps: `DELETE FROM idempotency_steps WHERE key = ?1`,
	deleteSteps: `
DELETE FROM idempotency_steps
WHERE key IN (
	SELECT DISTINCT c.key FROM idempotency_steps c
	WHERE c.expires_at <= ` + sqliteNow(2) + `
	  AND NOT EXISTS (SELECT 1 FROM idempotency_steps l WHERE l.key = c.key AND l.expires_at > ` + sqliteNow(2) + `)
	LIMIT ?1)`,
}

func (s *Store) steps() *stepQueries {
	if s.dialect == SQLite {
		return &sqliteSteps
	}
	return &postgresSteps
}

type querier interface {
	execer
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// LoadSteps implements idempotency.StepStore.
func (s *Store) LoadSteps(ctx context.Context, key string) (map[string][]byte, error) {
	steps, err := s.loadSteps(ctx, s.db, key)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: load steps: %w", err)
	}
	return steps, nil
}

func (s *Store) loadSteps(ctx context.Context, q querier, key string) (map[string][]byte, error) {
	rows, err := q.QueryContext(ctx, s.steps().loadSteps, key, s.now())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var steps map[string][]byte
	for rows.Next() {
		var (
			name   string
			result []byte
		)
		if err := rows.Scan(&name, &result); err != nil {
			return nil, err
		}
		if steps == nil {
			steps = map[string][]byte{}
		}
		steps[name] = result
	}
	return steps, rows.Err()
}

// SaveStep implements idempotency.StepStore.
func (s *Store) SaveStep(ctx context.Context, key string, token idempotency.Token, name string, result []byte, retention time.Duration) error {
	if s.dialect == SQLite {
		return s.inTx(ctx, "save step", func(tx *sql.Tx) error { return s.saveStep(ctx, tx, key, token, name, result, retention) })
	}
	return s.saveStep(ctx, s.db, key, token, name, result, retention)
}

func (s *Store) saveStep(ctx context.Context, q querier, key string, token idempotency.Token, name string, result []byte, retention time.Duration) error {
	sq := s.steps()
	if result == nil {
		result = []byte{} // the column is NOT NULL: an empty result is still a result
	}
	if s.dialect == SQLite {
		if _, err := q.ExecContext(ctx, sq.staleSteps, key, token.Owner, token.Epoch, name, s.now()); err != nil {
			return fmt.Errorf("sqlstore: save step: %w", err)
		}
		return s.update(ctx, q, "save step", sq.saveStep, key, token.Owner, token.Epoch, retention.Microseconds(), s.now(), name, result)
	}
	return s.counted(ctx, q, "save step", sq.saveStep, key, token.Owner, token.Epoch, retention.Microseconds(), s.now(), name, result)
}

// counted runs a compare-and-set statement that returns how many rows it changed as a row.
func (s *Store) counted(ctx context.Context, q querier, op, query string, args ...any) error {
	var n int64
	if err := q.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return fmt.Errorf("sqlstore: %s: %w", op, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlstore: %s: %w", op, idempotency.ErrConflict)
	}
	return nil
}

// inTx runs f in a transaction of its own (SQLite's writes of several statements).
func (s *Store) inTx(ctx context.Context, op string, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: %s: %w", op, err)
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: %s: %w", op, err)
	}
	return nil
}

// StepTx is idempotency.Step for a step whose effect is rows in this database: fn writes
// them in the handler's transaction tx, and the step's recovery point is written in tx too,
// so the rows and the record that they were written commit together, or neither does. A
// redelivery after a rollback or a crash runs fn again; one after the commit gets its result
// back without running fn:
//
//	tx, err := store.BeginTx(ctx, nil)
//	...
//	id, err := sqlstore.StepTx(ctx, store, tx.Tx, "reserve", func(ctx context.Context) (int64, error) { ... })
//	...
//	return tx.Commit()
//
// From the step until the commit, the transaction holds the key's row for share, so no
// other worker can take the key over meanwhile (as with CompleteTx). If the claim was taken
// over, it fails with an error matching idempotency.ErrConflict: roll back and return it.
// Several steps may share one transaction, and CompleteTx may end it. Under RunUnprotected
// fn runs with nothing recorded; outside a handler run by the middleware StepTx fails with
// idempotency.ErrNoDelivery without running fn. On SQLite begin tx with Store.BeginTx.
func StepTx[T any](ctx context.Context, s *Store, tx *sql.Tx, name string, fn func(ctx context.Context) (T, error)) (T, error) {
	return idempotency.StepInTx(ctx, name,
		func(c idempotency.Claim) ([]byte, bool, error) {
			var result []byte
			err := tx.QueryRowContext(ctx, s.steps().loadStep, c.StoreKey, name, s.now()).Scan(&result)
			if errors.Is(err, sql.ErrNoRows) {
				return nil, false, nil
			}
			return result, err == nil, err
		},
		func(c idempotency.Claim, result []byte) error {
			err := s.saveStep(ctx, tx, c.StoreKey, c.Token, name, result, c.Retention)
			if s.dialect == Postgres && sqlState(err) == "40001" && !s.stillHeld(ctx, c) {
				return fmt.Errorf("sqlstore: save step in transaction: %w (the claim was taken over after the transaction began: %w)", idempotency.ErrConflict, err)
			}
			return err
		},
		fn)
}

// Fail implements idempotency.ReviewStore. The key's kept steps are kept as long as the
// failed marker.
func (s *Store) Fail(ctx context.Context, key string, token idempotency.Token, retention time.Duration, reason string) error {
	sq := s.steps()
	args := []any{key, token.Owner, token.Epoch, retention.Microseconds(), s.now(), []byte(reason)}
	if s.dialect == Postgres {
		return s.counted(ctx, s.db, "fail", sq.fail, args...)
	}
	return s.inTx(ctx, "fail", func(tx *sql.Tx) error {
		if err := s.update(ctx, tx, "fail", sq.fail, args...); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, sq.keepSteps, key, s.now()); err != nil {
			return fmt.Errorf("sqlstore: fail: %w", err)
		}
		return nil
	})
}

// Retry implements idempotency.ReviewStore.
func (s *Store) Retry(ctx context.Context, key string) error {
	err := s.update(ctx, s.db, "retry", s.steps().retry, key, s.now())
	if errors.Is(err, idempotency.ErrConflict) {
		return fmt.Errorf("sqlstore: retry: %w", idempotency.ErrNotFailed)
	}
	return err
}

// deleteExpiredSteps deletes the rows of up to limit keys whose steps have all expired.
func (s *Store) deleteExpiredSteps(ctx context.Context, limit int) (int64, error) {
	r, err := s.db.ExecContext(ctx, s.steps().deleteSteps, int64(limit), s.now())
	if err != nil {
		return 0, fmt.Errorf("sqlstore: delete expired steps: %w", err)
	}
	return r.RowsAffected()
}
