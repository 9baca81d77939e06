package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSchemaModule writes a module whose handler inserts into orders by the message's id,
// with the migrations given (name -> text) and an optional .idemlint.yml after acmeModels.
func writeSchemaModule(t *testing.T, settings string, migrations map[string]string) string {
	t.Helper()
	dir := writeModule(t, acmeModels+settings)
	app := `package app

import (
	"context"
	"database/sql"

	"example.com/acme/queue"
)

var db *sql.DB

func Register() { queue.Subscribe("orders", onOrder) }

func onOrder(ctx context.Context, m *queue.Message) error {
	_, err := db.ExecContext(ctx, "INSERT INTO orders (external_id) VALUES ($1)", m.ID)
	return err
}
`
	files := map[string]string{"app/app.go": app}
	for name, text := range migrations {
		files[name] = text
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const ordersKeyed = "CREATE TABLE orders (id bigserial PRIMARY KEY, external_id text UNIQUE);\n"

// The schema is found in the module with no configuration, named by the setting otherwise
// (a bad entry is one error with its line), and its files are part of the cache's key: an
// edited migration changes the finding of a run answered from the cache before.
func TestSchemaFromMigrations(t *testing.T) {
	const keyed = "INSERT without conflict handling into orders fails on a repeat: the unique key orders_external_id_key (UNIQUE (external_id), " + "db/migrations/1_orders.up.sql:1)"
	t.Run("discovered", func(t *testing.T) {
		dir := writeSchemaModule(t, "", map[string]string{"db/migrations/1_orders.up.sql": ordersKeyed})
		stdout, stderr, code := inProcess(t, dir, "-q", "./...")
		if code != 3 || !strings.Contains(stdout, keyed) {
			t.Fatalf("exit %d, want 3 and %q:\n%s%s", code, keyed, stdout, stderr)
		}
		// The migration drops the key: the same run, cached before, now says the table has none.
		drop := ordersKeyed + "ALTER TABLE orders DROP CONSTRAINT orders_external_id_key;\n"
		if err := os.WriteFile(filepath.Join(dir, "db/migrations/1_orders.up.sql"), []byte(drop), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, _, code = inProcess(t, dir, "-q", "./...")
		if want := "orders has no unique key besides id, made anew on every insert (db/migrations/1_orders.up.sql:1)"; code != 3 || !strings.Contains(stdout, want) {
			t.Errorf("after the migration's edit: exit %d, want %q:\n%s", code, want, stdout)
		}
	})
	t.Run("setting", func(t *testing.T) {
		dir := writeSchemaModule(t, "schema: [sql/schema.sql]\n", map[string]string{"sql/schema.sql": ordersKeyed, "other/x.sql": "CREATE TABLE orders (id serial PRIMARY KEY, external_id text);"})
		stdout, stderr, code := inProcess(t, dir, "-q", "./...")
		if want := strings.Replace(keyed, "db/migrations/1_orders.up.sql", "sql/schema.sql", 1); code != 3 || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, want 3 and %q:\n%s%s", code, want, stdout, stderr)
		}
	})
	t.Run("bad entry", func(t *testing.T) {
		dir := writeSchemaModule(t, "schema: [nowhere/*.sql]\n", nil)
		_, stderr, code := inProcess(t, dir, "-q", "./...")
		if want := "idemlint: .idemlint.yml:12:10: field schema: nowhere/*.sql: no such file, directory or match\n"; code != 2 || stderr != want {
			t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, want)
		}
	})
	t.Run("no schema", func(t *testing.T) {
		dir := writeSchemaModule(t, "", nil)
		stdout, _, code := inProcess(t, dir, "-q", "./...")
		if code != 3 || !strings.Contains(stdout, "SQL write not safe to repeat: INSERT without conflict handling (onOrder") {
			t.Errorf("exit %d, want the statement's own judgement:\n%s", code, stdout)
		}
	})
}
