// Package sqlwrite exercises the sql.write sinks and the statement classifier. // want package:"has effects"
package sqlwrite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var db *sql.DB
var pool *pgxpool.Pool

func PlainInsert(ctx context.Context, t *asynq.Task) error { // want PlainInsert:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO ledger (order_id, amount) VALUES ($1, $2)", 1, 2) // want `handler PlainInsert: SQL write not safe to repeat: INSERT without conflict handling \(PlainInsert -> \(\*sql.DB\).ExecContext\); missing: key, enforcement`
	return err
}

func Upsert(ctx context.Context, t *asynq.Task) error { // want Upsert:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	_, err := pool.Exec(ctx, `INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, 1)
	return err
}

func RelativeUpdate(ctx context.Context, t *asynq.Task) error { // want RelativeUpdate:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	_, err := pool.Exec(ctx, "UPDATE wallets SET balance = balance - $1 WHERE id = $2", 5, 1) // want `handler RelativeUpdate: SQL write not safe to repeat: relative UPDATE`
	return err
}

func AbsoluteAndDelete(ctx context.Context, t *asynq.Task) error { // want AbsoluteAndDelete:`effects sql.write:protected\(\(\*sql.DB\).Exec\)`
	if _, err := db.Exec("UPDATE orders SET status = 'paid' WHERE id = $1 AND status = 'pending'", 1); err != nil {
		return err
	}
	_, err := db.Exec("DELETE FROM carts WHERE order_id = $1", 1)
	return err
}

// UnknownText runs text of which nothing is known, not even its verb: nothing shows that it
// writes (a session statement is as likely), so it is not reported.
func UnknownText(ctx context.Context, t *asynq.Task) error {
	q := string(t.Payload())
	_, err := db.ExecContext(ctx, q)
	return err
}

// KnownVerbUnknownTail is its twin whose verb is known: an INSERT whose conflict clause may
// be the part built at run time stays reported.
func KnownVerbUnknownTail(ctx context.Context, t *asynq.Task) error { // want KnownVerbUnknownTail:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	tail := string(t.Payload())
	_, err := db.ExecContext(ctx, "INSERT INTO audit (line) VALUES ($1) "+tail, 1) // want `handler KnownVerbUnknownTail: SQL write not safe to repeat: conflict handling not known \(text built at run time\)`
	return err
}

// Concatenated and formatted statements are read through their constant parts.
func Built(ctx context.Context, t *asynq.Task) error { // want Built:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	table := string(t.Payload())
	if _, err := pool.Exec(ctx, "INSERT INTO "+table+" (a) VALUES ($1) ON CONFLICT DO NOTHING", 1); err != nil {
		return err
	}
	_, err := pool.Exec(ctx, fmt.Sprintf("INSERT INTO %s (a) VALUES ($1)", table), 1) // want `handler Built: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

const selectOrder = "SELECT id FROM orders WHERE id = $1"

func Reads(ctx context.Context, t *asynq.Task) error {
	var id int
	if err := pool.QueryRow(ctx, selectOrder, 1).Scan(&id); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, string(t.Payload())) // unknown text in a query: taken as a read
	if err != nil {
		return err
	}
	return rows.Close()
}

func InsertReturning(ctx context.Context, t *asynq.Task) error { // want InsertReturning:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).QueryRow\)`
	var id int
	return pool.QueryRow(ctx, "INSERT INTO orders (total) VALUES ($1) RETURNING id", 1).Scan(&id) // want `handler InsertReturning: SQL write not safe to repeat: INSERT without conflict handling`
}

func Batch(ctx context.Context, t *asynq.Task) error { // want Batch:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).SendBatch\)`
	b := &pgx.Batch{}
	b.Queue("UPDATE orders SET status = 'done' WHERE id = $1", 1)
	b.Queue("INSERT INTO events (kind) VALUES ('done')")
	return pool.SendBatch(ctx, b).Close() // want `handler Batch: SQL write not safe to repeat: INSERT without conflict handling`
}

func Copy(ctx context.Context, t *asynq.Task) error { // want Copy:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).CopyFrom\)`
	_, err := pool.CopyFrom(ctx, pgx.Identifier{"ledger"}, []string{"a"}, pgx.CopyFromRows(nil)) // want `handler Copy: SQL write not safe to repeat: bulk COPY`
	return err
}

// snapshot empties its tables, then copies the new rows in: a repeat replaces them.
type snapshot struct{ pool *pgxpool.Pool }

func (s *snapshot) replace(ctx context.Context, rows [][]any) error { // want replace:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	if _, err := s.pool.Exec(ctx, `TRUNCATE bids; TRUNCATE delegators;`); err != nil {
		return err
	}
	if _, err := s.pool.CopyFrom(ctx, pgx.Identifier{"bids"}, []string{"a"}, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	_, err := s.pool.CopyFrom(ctx, pgx.Identifier{"public", "delegators"}, []string{"a"}, pgx.CopyFromRows(rows))
	return err
}

// appendOther empties one table and copies into another: the copy adds rows on a repeat.
func (s *snapshot) appendOther(ctx context.Context, rows [][]any) error { // want appendOther:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).CopyFrom\)`
	if _, err := s.pool.Exec(ctx, `TRUNCATE staging`); err != nil {
		return err
	}
	_, err := s.pool.CopyFrom(ctx, pgx.Identifier{"rewards"}, []string{"a"}, pgx.CopyFromRows(rows))
	return err
}

var snap = &snapshot{pool: pool}

func Snapshot(ctx context.Context, t *asynq.Task) error { // want Snapshot:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	return snap.replace(ctx, nil)
}

func AppendRewards(ctx context.Context, t *asynq.Task) error { // want AppendRewards:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).CopyFrom\)`
	return snap.appendOther(ctx, nil) // want `handler AppendRewards: SQL write not safe to repeat: bulk COPY`
}

func Prepared(ctx context.Context, t *asynq.Task) error { // want Prepared:`effects sql.write:unprotected\(\(\*sql.Stmt\).ExecContext\)`
	stmt, err := db.PrepareContext(ctx, "INSERT INTO ledger (a) VALUES ($1)")
	if err != nil {
		return err
	}
	_, err = stmt.ExecContext(ctx, 1) // want `handler Prepared: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func InTx(ctx context.Context, t *asynq.Task) error { // want InTx:`effects sql.write:protected\(\(pgx.Tx\).Exec\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "INSERT INTO outbox (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING", 1); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// FreshConflictKey upserts on an id it makes itself: the conflict never happens, and a
// repeat inserts another order.
func FreshConflictKey(ctx context.Context, t *asynq.Task) error { // want FreshConflictKey:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	id := uuid.NewString()
	_, err := pool.Exec(ctx, `INSERT INTO orders (body, id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, t.Payload(), id) // want `handler FreshConflictKey: SQL write not safe to repeat: upsert \(ON CONFLICT\) on a key made anew on every run \(from uuid.NewString\): a repeat inserts another row`
	return err
}

// JobConflictKey is its twin: the id comes from the job, so a repeat hits the conflict.
func JobConflictKey(ctx context.Context, t *asynq.Task) error { // want JobConflictKey:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	_, err := pool.Exec(ctx, `INSERT INTO orders (body, id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, t.Payload(), t.Type())
	return err
}
