package sqlstore

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
	return nil, fmt.Errorf("sqlstore: unknown dialect %v", d)
}

// DefaultMigrateLockTimeout bounds how long Migrate waits for a lock on the store's table
// (PostgreSQL's lock_timeout) when a migration has to change it. Claims queue behind a
// migration that waits for a lock, so the wait must stay short.
const DefaultMigrateLockTimeout = 2 * time.Second

// ErrMigrateLockTimeout is matched by the error Migrate returns when a migration could not
// lock the store's table within its lock timeout, because another transaction held it (a
// pg_dump, a long report, an open handler transaction). Nothing was changed; running Migrate
// again retries.
var ErrMigrateLockTimeout = errors.New("sqlstore: migrate: the store's table stayed locked by another transaction")

// MigrateOption configures Migrate.
type MigrateOption func(*migrateConfig)

type migrateConfig struct {
	lockTimeout time.Duration
}

// MigrateLockTimeout sets how long Migrate waits for a lock on the store's table on
// PostgreSQL (default DefaultMigrateLockTimeout). It matters only when a migration is still
// to be applied; SQLite's wait is its busy timeout.
func MigrateLockTimeout(d time.Duration) MigrateOption {
	return func(c *migrateConfig) { c.lockTimeout = d }
}

// versionsTable records the migrations Migrate applied, so that a start-up with nothing to
// do reads one small table and takes no lock on the store's.
const versionsTable = "idempotency_schema_versions"

// migration is one up file and what Migrate knows about it.
type migration struct {
	version int
	name    string // the file name, kept in the versions table for people
	body    string
	// applied asks the catalog, without locking the store's table, whether the migration's
	// changes are there already: in a database migrated before Migrate recorded versions, or
	// by another tool. It returns one boolean.
	applied string
	// alters: the migration changes idempotency_keys itself, which takes a lock that waits
	// for every transaction using the table (and that every claim then waits behind).
	alters bool
}

// migrationInfo is the per-version knowledge the files cannot carry (other tools read them).
var migrationInfo = map[Dialect]map[int]struct {
	applied string
	alters  bool
}{
	Postgres: {
		1: {`SELECT to_regclass('idempotency_keys') IS NOT NULL AND to_regclass('idempotency_keys_expires_at') IS NOT NULL`, true},
		2: {`SELECT to_regclass('idempotency_epoch') IS NOT NULL`, false},
		3: {`SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('idempotency_keys') AND attname = 'result' AND NOT attisdropped)`, true},
		4: {`SELECT to_regprocedure('idempotency_next_epoch(bigint)') IS NOT NULL`, false},
		5: {`SELECT to_regclass('idempotency_leases') IS NOT NULL`, false},
		6: {`SELECT to_regclass('idempotency_steps') IS NOT NULL AND to_regclass('idempotency_steps_expires_at') IS NOT NULL`, false},
		7: {`SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass('idempotency_keys') AND conname = 'idempotency_keys_state_check'
			AND pg_get_constraintdef(oid) LIKE '%failed%')`, true},
	},
	SQLite: {
		1: {`SELECT count(*) = 2 FROM sqlite_master WHERE (type = 'table' AND name = 'idempotency_keys') OR (type = 'index' AND name = 'idempotency_keys_expires_at')`, true},
		2: {`SELECT count(*) = 3 FROM sqlite_master WHERE (type = 'table' AND name = 'idempotency_epoch')
			OR (type = 'trigger' AND name IN ('idempotency_epoch_insert', 'idempotency_epoch_update'))`, false},
		3: {`SELECT count(*) = 1 FROM pragma_table_info('idempotency_keys') WHERE name = 'result'`, true},
		4: {`SELECT count(*) = 2 FROM sqlite_master WHERE (type = 'table' AND name = 'idempotency_steps') OR (type = 'index' AND name = 'idempotency_steps_expires_at')`, false},
		5: {`SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = 'idempotency_keys' AND sql LIKE '%''failed''%'`, true},
	},
}

// loadMigrations reads the dialect's up files in version order.
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
			return nil, fmt.Errorf("sqlstore: migration %s has no version number", name)
		}
		info, ok := migrationInfo[d][v]
		if !ok {
			return nil, fmt.Errorf("sqlstore: migration %s is not described in migrationInfo", name)
		}
		body, err := fs.ReadFile(files, name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, body: string(body), applied: info.applied, alters: info.alters})
	}
	return out, nil
}

// Migrate applies the dialect's up migrations that the database lacks, and records them in
// the table idempotency_schema_versions. It is safe to run from every worker at start-up:
//
//   - When every migration is recorded (the usual start-up), it reads that small table and
//     returns, taking no lock on the store's table: a pg_dump, a report or an open handler
//     transaction cannot stall it, and claims never wait for it.
//   - Otherwise concurrent runs take turns (an advisory lock on PostgreSQL, the write lock on
//     SQLite), and a migration whose changes the catalog already shows (a database migrated
//     before versions were recorded, or by another tool) is recorded without being run.
//   - A migration that has to change the store's table first locks it, waiting at most the
//     lock timeout (MigrateLockTimeout, on PostgreSQL) and failing with an error matching
//     ErrMigrateLockTimeout if another transaction holds it longer: claims queue behind
//     that wait, so it is kept short, and a start-up that fails can simply be retried.
//
// Everything is applied in one transaction, so a failure changes nothing.
func Migrate(ctx context.Context, db *sql.DB, d Dialect, opts ...MigrateOption) error {
	cfg := migrateConfig{lockTimeout: DefaultMigrateLockTimeout}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.lockTimeout <= 0 {
		return fmt.Errorf("sqlstore: migrate: lock timeout %s must be positive", cfg.lockTimeout)
	}
	all, err := loadMigrations(d)
	if err != nil {
		return err
	}
	done, err := recordedVersions(ctx, db, d)
	if err != nil {
		return fmt.Errorf("sqlstore: migrate: reading %s: %w", versionsTable, err)
	}
	if pending(all, done) == nil {
		return nil
	}
	// A dedicated connection: SQLite's BEGIN IMMEDIATE is not something database/sql's
	// BeginTx can ask for, and every statement below must run in the one transaction.
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("sqlstore: migrate: %w", err)
	}
	defer conn.Close()
	if err := migrateOn(ctx, conn, d, all, cfg); err != nil {
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
			// The connection may be in any state: do not hand it back to the pool.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		return err
	}
	return nil
}

// migrateOn runs the migration transaction on conn and commits it.
func migrateOn(ctx context.Context, conn *sql.Conn, d Dialect, all []migration, cfg migrateConfig) error {
	exec := func(what, stmt string, args ...any) error {
		if _, err := conn.ExecContext(ctx, stmt, args...); err != nil {
			return migrateError(what, err, cfg)
		}
		return nil
	}
	if d == Postgres {
		if err := exec("begin", "BEGIN"); err != nil {
			return err
		}
		// Concurrent runs take turns; the wait is bounded by ctx only, since the run being
		// waited for is itself bounded by the lock timeout.
		if err := exec("begin", `SELECT pg_advisory_xact_lock(7308327488571893504)`); err != nil {
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
	// Read again under the lock: another run may have applied them meanwhile.
	done, err := queryVersions(ctx, conn)
	if err != nil {
		return migrateError("reading "+versionsTable, err, cfg)
	}
	todo := pending(all, done)
	run := map[int]bool{} // the versions whose changes the catalog does not show
	alters := false
	for _, m := range todo {
		var there bool
		if err := conn.QueryRowContext(ctx, m.applied).Scan(&there); err != nil {
			return migrateError(m.name, err, cfg)
		}
		run[m.version] = !there
		alters = alters || (!there && m.alters)
	}
	if d == Postgres && alters && tableExists(ctx, conn) {
		// The strongest lock the migrations need, taken first: a migration that took a
		// weaker lock and then asked for a stronger one would deadlock with claims.
		if err := exec("locking idempotency_keys", `LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE`); err != nil {
			return err
		}
	}
	for _, m := range todo {
		if run[m.version] {
			for _, stmt := range statements(m.body) {
				if err := exec(m.name, stmt); err != nil {
					return err
				}
			}
		}
		if err := exec("recording "+m.name, insertVersion[d], m.version, m.name); err != nil {
			return err
		}
	}
	return exec("commit", "COMMIT")
}

// tableExists reports whether idempotency_keys is there already (a table this transaction
// creates needs no waiting for). In doubt it says yes, which only costs the lock.
func tableExists(ctx context.Context, conn *sql.Conn) bool {
	var exists bool
	err := conn.QueryRowContext(ctx, `SELECT to_regclass('idempotency_keys') IS NOT NULL`).Scan(&exists)
	return err != nil || exists
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

var insertVersion = map[Dialect]string{
	Postgres: `INSERT INTO ` + versionsTable + ` (version, name) VALUES ($1, $2)`,
	SQLite:   `INSERT INTO ` + versionsTable + ` (version, name) VALUES (?1, ?2)`,
}

// recordedVersions reads the versions table outside any transaction: it is the whole of a
// start-up that finds nothing to do. A database without the table has recorded nothing.
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

// pending returns the migrations not recorded in done, in order; nil when there are none.
func pending(all []migration, done map[int]bool) []migration {
	var out []migration
	for _, m := range all {
		if !done[m.version] {
			out = append(out, m)
		}
	}
	return out
}

// migrateError names the step that failed, and says what a lock timeout means.
func migrateError(what string, err error, cfg migrateConfig) error {
	if sqlState(err) == "55P03" { // lock_not_available: lock_timeout
		return fmt.Errorf("%w for longer than the lock timeout (%s) while %s: a long transaction holds it (a pg_dump, a report, an open handler transaction); "+
			"nothing was changed and claims waited at most that long: start again, or apply the migration while no long transaction holds the table: %w",
			ErrMigrateLockTimeout, cfg.lockTimeout, what, err)
	}
	return fmt.Errorf("sqlstore: migrate %s: %w", what, err)
}

// statements splits a migration file into statements, one Exec each, since not every driver
// runs several in one call. A statement ends with a line ending in ';', except inside a
// trigger's BEGIN ... END, which ends with the line "END;", and inside a $$-quoted function
// body. Comment lines are dropped.
func statements(body string) []string {
	var out, lines []string
	inTrigger, inDollar := false, false
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		if len(lines) == 0 && strings.HasPrefix(strings.ToUpper(t), "CREATE TRIGGER") {
			inTrigger = true
		}
		if strings.Count(t, "$$")%2 == 1 {
			inDollar = !inDollar
		}
		lines = append(lines, l)
		if end := strings.HasSuffix(t, ";"); end && !inDollar && (!inTrigger || strings.EqualFold(t, "END;")) {
			stmt := strings.TrimSuffix(strings.TrimSpace(strings.Join(lines, "\n")), ";")
			out = append(out, stmt)
			lines, inTrigger = nil, false
		}
	}
	if len(lines) > 0 {
		out = append(out, strings.Join(lines, "\n"))
	}
	return out
}
