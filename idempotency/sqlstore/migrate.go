package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
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

// Migrate applies the dialect's up migrations in order, in one transaction. It is safe to run
// from every worker at start-up: on PostgreSQL an advisory lock makes concurrent runs wait for
// each other, and every statement checks before it creates.
func Migrate(ctx context.Context, db *sql.DB, d Dialect) error {
	files, err := Migrations(d)
	if err != nil {
		return err
	}
	names, err := fs.Glob(files, "*.up.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: migrate: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if d == Postgres {
		// Concurrent CREATE ... IF NOT EXISTS can still collide in the catalog; take turns.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7308327488571893504)`); err != nil {
			return fmt.Errorf("sqlstore: migrate: %w", err)
		}
	}
	for _, name := range names {
		body, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		for _, stmt := range statements(string(body)) {
			if d == SQLite && addsColumn(stmt) {
				// SQLite cannot say ADD COLUMN IF NOT EXISTS; a savepoint keeps the
				// transaction usable when the column is there already.
				if err := addColumnOnce(ctx, tx, stmt); err != nil {
					return fmt.Errorf("sqlstore: migrate %s: %w", name, err)
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("sqlstore: migrate %s: %w", name, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: migrate: %w", err)
	}
	return nil
}

// statements splits a migration file into statements, one Exec each, since not every driver
// runs several in one call. A statement ends with a line ending in ';', except inside a
// trigger's BEGIN ... END, which ends with the line "END;". Comment lines are dropped.
func statements(body string) []string {
	var out, lines []string
	inTrigger := false
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		if len(lines) == 0 && strings.HasPrefix(strings.ToUpper(t), "CREATE TRIGGER") {
			inTrigger = true
		}
		lines = append(lines, l)
		if end := strings.HasSuffix(t, ";"); end && (!inTrigger || strings.EqualFold(t, "END;")) {
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

func addsColumn(stmt string) bool {
	u := strings.ToUpper(stmt)
	return strings.HasPrefix(strings.TrimSpace(u), "ALTER TABLE") && strings.Contains(u, "ADD COLUMN")
}

// addColumnOnce runs an ALTER TABLE ... ADD COLUMN, taking "duplicate column name" for done.
func addColumnOnce(ctx context.Context, tx *sql.Tx, stmt string) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT add_column"); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, stmt); err != nil {
		if !strings.Contains(err.Error(), "duplicate column name") {
			return err
		}
		if _, err := tx.ExecContext(ctx, "ROLLBACK TO add_column"); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, "RELEASE add_column")
	return err
}
