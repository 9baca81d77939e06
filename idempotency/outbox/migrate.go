package outbox

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Dialect is the SQL database the outbox lives in.
type Dialect uint8

const (
	// Postgres works with any database/sql driver for PostgreSQL that takes $1 placeholders
	// (github.com/jackc/pgx/v5/stdlib, github.com/lib/pq); Put also takes a pgx.Tx (PutPgx).
	Postgres Dialect = iota + 1
	// SQLite needs SQLite 3.35 or newer and a driver that binds $N parameters by number, such
	// as modernc.org/sqlite. Run a single relay per database.
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

//go:embed migrations
var migrations embed.FS

// Migrations returns the dialect's migration files, named for golang-migrate
// (NNNN_name.up.sql, NNNN_name.down.sql), for teams that apply schema changes with their own
// tool. Every up file is safe to apply again.
func Migrations(d Dialect) (fs.FS, error) {
	switch d {
	case Postgres, SQLite:
		return fs.Sub(migrations, path.Join("migrations", d.String()))
	}
	return nil, fmt.Errorf("outbox: unknown dialect %v", d)
}

// DefaultMigrateLockTimeout bounds how long Migrate waits for a lock on PostgreSQL
// (lock_timeout), as sqlstore's Migrate does: handlers' Puts queue behind a migration that
// waits for a lock on the outbox table.
const DefaultMigrateLockTimeout = 2 * time.Second

// ErrMigrateLockTimeout is matched by the error Migrate returns when a migration could not
// take a lock within its lock timeout. Nothing was changed; running Migrate again retries.
var ErrMigrateLockTimeout = errors.New("outbox: migrate: a lock stayed held by another transaction")

// MigrateOption configures Migrate.
type MigrateOption func(*migrateConfig)

type migrateConfig struct{ lockTimeout time.Duration }

// MigrateLockTimeout sets how long Migrate waits for a lock on PostgreSQL (default
// DefaultMigrateLockTimeout). SQLite's wait is its busy timeout.
func MigrateLockTimeout(d time.Duration) MigrateOption {
	return func(c *migrateConfig) { c.lockTimeout = d }
}

// versionsTable records the migrations Migrate applied: a start-up with nothing to do reads
// it and returns, taking no lock.
const versionsTable = "idempotency_outbox_schema_versions"

// Migrate applies the dialect's up migrations that the database lacks and records them in
// idempotency_outbox_schema_versions. It is safe to run from every worker at start-up: with
// nothing to do it reads that table and returns; otherwise concurrent runs take turns (an
// advisory lock on PostgreSQL, the write lock on SQLite), every statement waits at most the
// lock timeout for a lock (PostgreSQL), and everything is applied in one transaction, so a
// failure changes nothing.
func Migrate(ctx context.Context, db *sql.DB, d Dialect, opts ...MigrateOption) error {
	cfg := migrateConfig{lockTimeout: DefaultMigrateLockTimeout}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.lockTimeout <= 0 {
		return fmt.Errorf("outbox: migrate: lock timeout %s must be positive", cfg.lockTimeout)
	}
	all, err := loadMigrations(d)
	if err != nil {
		return err
	}
	done, err := recordedVersions(ctx, db, d)
	if err != nil {
		return fmt.Errorf("outbox: migrate: reading %s: %w", versionsTable, err)
	}
	if len(pending(all, done)) == 0 {
		return nil
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("outbox: migrate: %w", err)
	}
	defer conn.Close()
	if err := migrateOn(ctx, conn, d, all, cfg); err != nil {
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		return err
	}
	return nil
}

type migration struct {
	version int
	name    string
	body    string
}

func loadMigrations(d Dialect) ([]migration, error) {
	files, err := Migrations(d)
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(files, "*.up.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]migration, 0, len(names))
	for _, name := range names {
		v, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("outbox: migration %s has no version number", name)
		}
		body, err := fs.ReadFile(files, name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, body: string(body)})
	}
	return out, nil
}

func migrateOn(ctx context.Context, conn *sql.Conn, d Dialect, all []migration, cfg migrateConfig) error {
	exec := func(what, stmt string, args ...any) error {
		if _, err := conn.ExecContext(ctx, stmt, args...); err != nil {
			if sqlState(err) == "55P03" { // lock_not_available
				return fmt.Errorf("%w for longer than the lock timeout (%s) while %s; nothing was changed: %w", ErrMigrateLockTimeout, cfg.lockTimeout, what, err)
			}
			return fmt.Errorf("outbox: migrate %s: %w", what, err)
		}
		return nil
	}
	if d == Postgres {
		if err := exec("begin", "BEGIN"); err != nil {
			return err
		}
		if err := exec("begin", `SELECT pg_advisory_xact_lock(7308327488571893505)`); err != nil {
			return err
		}
		if err := exec("begin", fmt.Sprintf("SET LOCAL lock_timeout = '%dms'", cfg.lockTimeout.Milliseconds())); err != nil {
			return err
		}
	} else if err := exec("begin", "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	if err := exec("create "+versionsTable, createVersions[d]); err != nil {
		return err
	}
	done, err := queryVersions(ctx, conn)
	if err != nil {
		return fmt.Errorf("outbox: migrate: reading %s: %w", versionsTable, err)
	}
	for _, m := range pending(all, done) {
		for _, stmt := range statements(m.body) {
			if err := exec(m.name, stmt); err != nil {
				return err
			}
		}
		if err := exec("recording "+m.name, `INSERT INTO `+versionsTable+` (version, name) VALUES ($1, $2)`, m.version, m.name); err != nil {
			return err
		}
	}
	return exec("commit", "COMMIT")
}

var createVersions = map[Dialect]string{
	Postgres: `CREATE TABLE IF NOT EXISTS ` + versionsTable + ` (
	version    integer     PRIMARY KEY,
	name       text        NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now())`,
	SQLite: `CREATE TABLE IF NOT EXISTS ` + versionsTable + ` (
	version    INTEGER PRIMARY KEY,
	name       TEXT    NOT NULL,
	applied_at TEXT    NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
}

func recordedVersions(ctx context.Context, db *sql.DB, d Dialect) (map[int]bool, error) {
	exists := `SELECT to_regclass('` + versionsTable + `') IS NOT NULL`
	if d == SQLite {
		exists = `SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = '` + versionsTable + `'`
	}
	var ok bool
	if err := db.QueryRowContext(ctx, exists).Scan(&ok); err != nil {
		return nil, err
	}
	if !ok {
		return map[int]bool{}, nil
	}
	return queryVersions(ctx, db)
}

func queryVersions(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) (map[int]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT version FROM `+versionsTable)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	done := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		done[v] = true
	}
	return done, rows.Err()
}

func pending(all []migration, done map[int]bool) []migration {
	var out []migration
	for _, m := range all {
		if !done[m.version] {
			out = append(out, m)
		}
	}
	return out
}

// statements splits a migration file at lines ending in ';', dropping comment lines.
func statements(body string) []string {
	var out, lines []string
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		lines = append(lines, l)
		if strings.HasSuffix(t, ";") {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(strings.Join(lines, "\n")), ";"))
			lines = nil
		}
	}
	if len(lines) > 0 {
		out = append(out, strings.Join(lines, "\n"))
	}
	return out
}

// sqlState returns a PostgreSQL error's SQLSTATE, for drivers whose errors have a SQLState
// method (pgx's *pgconn.PgError).
func sqlState(err error) string {
	var s interface{ SQLState() string }
	if errors.As(err, &s) {
		return s.SQLState()
	}
	return ""
}
