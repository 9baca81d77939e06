// Package statements exercises statements misjudged before: DDL and merges that converge, text in a slice of struct literals, append-only tables. // want package:"has effects"
package statements

import (
	"context"
	"database/sql"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var db *sql.DB

// Every statement of the list is guarded by IF [NOT] EXISTS or converges by nature.
func Migrate(ctx context.Context, t *asynq.Task) error { // want Migrate:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	for _, m := range []struct{ name, sql string }{
		{"table", "CREATE TABLE IF NOT EXISTS totals (day date PRIMARY KEY, n int)"},
		{name: "view", sql: "REFRESH MATERIALIZED VIEW CONCURRENTLY daily_totals"},
		{"old", "DROP INDEX IF EXISTS totals_old"},
	} {
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			return err
		}
	}
	return nil
}

type step struct {
	Name string
	SQL  string
}

var steps = []step{{"a", "CREATE INDEX IF NOT EXISTS i ON t (a)"}, {"b", "CREATE TABLE t2 (a int)"}}

// One statement of the list fails on a repeat: the worst decides.
func MigrateTwice(ctx context.Context, t *asynq.Task) error { // want MigrateTwice:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	list := []step{{"a", "CREATE INDEX IF NOT EXISTS i ON t (a)"}, {"b", "CREATE TABLE t2 (a int)"}}
	for _, s := range list {
		if _, err := db.ExecContext(ctx, s.SQL); err != nil { // want `handler MigrateTwice: SQL write not safe to repeat: CREATE without IF NOT EXISTS`
			return err
		}
	}
	return nil
}

// A list held in a package variable assigned once is followed too.
func MigratePackageList(ctx context.Context, t *asynq.Task) error { // want MigratePackageList:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	for _, s := range steps {
		if _, err := db.ExecContext(ctx, s.SQL); err != nil { // want `handler MigratePackageList: SQL write not safe to repeat: CREATE without IF NOT EXISTS`
			return err
		}
	}
	return nil
}

// A JSON object merge converges; || on a column that may hold text or an array appends.
func MergeAttrs(ctx context.Context, t *asynq.Task) error { // want MergeAttrs:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "UPDATE messages SET attrs = COALESCE(attrs, '{}' :: jsonb) || $1 WHERE id = $2", t.Payload(), t.Type())
	return err
}

func AppendNote(ctx context.Context, t *asynq.Task) error { // want AppendNote:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "UPDATE messages SET notes = notes || $1 WHERE id = $2", t.Payload(), t.Type()) // want `handler AppendNote: SQL write not safe to repeat: relative UPDATE of notes`
	return err
}

// An increment inside CASE in an upsert's update branch is relative.
func CountDaily(ctx context.Context, t *asynq.Task) error { // want CountDaily:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	const count = `INSERT INTO counters AS c (k, day, n) VALUES ($1, current_date, 1)
		ON CONFLICT (k) DO UPDATE SET n = CASE WHEN c.day = excluded.day THEN c.n + 1 ELSE 1 END, day = excluded.day`
	_, err := db.ExecContext(ctx, count, t.Type()) // want `handler CountDaily: SQL write not safe to repeat: upsert with relative update of n`
	return err
}

// A writable CTE whose insert is gated by WHERE NOT EXISTS adds the row once.
func ClaimOnce(ctx context.Context, t *asynq.Task) error { // want ClaimOnce:`effects sql.write:protected\(\(\*sql.DB\).QueryContext\)`
	rows, err := db.QueryContext(ctx, `WITH ins AS (
		INSERT INTO claims (job_id) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM claims WHERE job_id = $1) RETURNING job_id)
		SELECT job_id FROM ins`, t.Type())
	if err == nil {
		rows.Close()
	}
	return err
}

// job_attempts takes a row per run by design (.idemlint.yml); charges does not, and the
// message says how to declare a table that does.
func RecordAttempt(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO job_attempts (id, job) VALUES ($1, $2)", uuid.NewString(), t.Type())
	return err
}

// RecordRun writes the runner's own record of the run, a built-in append-only table.
func RecordRun(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO job_runs (id, task_type, status) VALUES ($1, $2, 'running')", uuid.NewString(), t.Type())
	return err
}

// RecordRunOutcome writes a business table named like a run log: reported.
func RecordRunOutcome(ctx context.Context, t *asynq.Task) error { // want RecordRunOutcome:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO payout_runs (id, job) VALUES ($1, $2)", uuid.NewString(), t.Type()) // want `handler RecordRunOutcome: SQL write not safe to repeat: INSERT without conflict handling into payout_runs`
	return err
}

func Charge(ctx context.Context, t *asynq.Task) error { // want Charge:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO charges (id, job) VALUES ($1, $2)", uuid.NewString(), t.Type()) // want `handler Charge: SQL write not safe to repeat: INSERT without conflict handling into charges: a new row on every run \(made from uuid.NewString\); a table that takes one per run by design is named under append_only in the models \(Charge -> \(\*sql.DB\).ExecContext\)`
	return err
}

// Statements prepared in a constructor and kept in fields: the text is found where the
// field is assigned or paired with the text in a list prepared in a loop.
type eventsTable struct {
	insertStmt *sql.Stmt
	upsertStmt *sql.Stmt
	bumpStmt   *sql.Stmt
}

type statementList []struct {
	Statement **sql.Stmt
	SQL       string
}

func (l statementList) prepare(db *sql.DB) (err error) {
	for _, s := range l {
		if *s.Statement, err = db.Prepare(s.SQL); err != nil {
			return err
		}
	}
	return nil
}

func newEventsTable(db *sql.DB) (*eventsTable, error) {
	s := &eventsTable{}
	var err error
	if s.bumpStmt, err = db.Prepare("UPDATE events SET seen = seen + 1 WHERE id = $1"); err != nil {
		return nil, err
	}
	return s, statementList{
		{&s.insertStmt, "INSERT INTO events (id) VALUES ($1)"},
		{&s.upsertStmt, "INSERT INTO events (id) VALUES ($1) ON CONFLICT DO NOTHING"},
	}.prepare(db)
}

func txStmt(tx *sql.Tx, stmt *sql.Stmt) *sql.Stmt {
	if tx != nil {
		stmt = tx.Stmt(stmt)
	}
	return stmt
}

func (s *eventsTable) Upsert(ctx context.Context, tx *sql.Tx, id string) error { // want Upsert:`effects sql.write:protected\(\(\*sql.Stmt\).ExecContext\)`
	_, err := txStmt(tx, s.upsertStmt).ExecContext(ctx, id)
	return err
}

func (s *eventsTable) Insert(ctx context.Context, tx *sql.Tx, id string) error { // want Insert:`effects sql.write:unprotected\(\(\*sql.Stmt\).ExecContext\)`
	stmt := txStmt(tx, s.insertStmt)
	_, err := stmt.ExecContext(ctx, id)
	return err
}

func (s *eventsTable) Bump(ctx context.Context, id string) error { // want Bump:`effects sql.write:unprotected\(\(\*sql.Stmt\).ExecContext\)`
	_, err := s.bumpStmt.ExecContext(ctx, id)
	return err
}

var events *eventsTable

func StoreEvent(ctx context.Context, t *asynq.Task) error { // want StoreEvent:`effects sql.write:protected\(\(\*sql.Stmt\).ExecContext\)`
	return events.Upsert(ctx, nil, t.Type())
}

func InsertEvent(ctx context.Context, t *asynq.Task) error { // want InsertEvent:`effects sql.write:unprotected\(\(\*sql.Stmt\).ExecContext\)`
	return events.Insert(ctx, nil, t.Type()) // want `handler InsertEvent: SQL write not safe to repeat: INSERT without conflict handling \(InsertEvent`
}

func BumpEvent(ctx context.Context, t *asynq.Task) error { // want BumpEvent:`effects sql.write:unprotected\(\(\*sql.Stmt\).ExecContext\)`
	return events.Bump(ctx, t.Type()) // want `handler BumpEvent: SQL write not safe to repeat: relative UPDATE of seen`
}
