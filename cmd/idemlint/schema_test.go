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
		stdout, stderr, code := inProcess(t, dir, "-q", "-v", "./...")
		if code != 3 || !strings.Contains(stdout, keyed) {
			t.Fatalf("exit %d, want 3 and %q:\n%s%s", code, keyed, stdout, stderr)
		}
		if want := "idemlint: schema: 1 file, 1 table\n"; !strings.Contains(stderr, want) {
			t.Errorf("-v: stderr %q, want %q", stderr, want)
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

// The schema's other forms, each found with no configuration: ORM models (GORM and bun tags,
// an ent schema), a goose Go migration, the schema sqlc's configuration names where the walk
// does not look; and a model without the key, whose insert adds a row. The ent and goose
// packages are small stand-ins the module replaces the real ones with: the reader needs
// only their syntax, the run needs them to compile.
func TestSchemaFromGoAndSQLC(t *testing.T) {
	const fakes = "\nrequire (\n\tentgo.io/ent v0.0.0\n\tgithub.com/pressly/goose/v3 v3.0.0\n)\n\n" +
		"replace entgo.io/ent => ./_fake/ent\n\nreplace github.com/pressly/goose/v3 => ./_fake/goose\n"
	stand := map[string]string{
		"_fake/ent/go.mod":                "module entgo.io/ent\n\ngo 1.26\n",
		"_fake/ent/ent.go":                "package ent\n\ntype Schema struct{}\n\ntype Field any\n\ntype Index any\n",
		"_fake/ent/schema/field/field.go": "package field\n\ntype Builder struct{}\n\nfunc String(name string) *Builder { return nil }\n\nfunc (b *Builder) Unique() *Builder { return b }\n",
		"_fake/ent/schema/index/index.go": "package index\n\ntype Builder struct{}\n\nfunc Fields(names ...string) *Builder { return nil }\n\nfunc (b *Builder) Unique() *Builder { return b }\n",
		"_fake/goose/go.mod":              "module github.com/pressly/goose/v3\n\ngo 1.26\n",
		"_fake/goose/goose.go":            "package goose\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n)\n\nfunc AddMigrationContext(up, down func(context.Context, *sql.Tx) error) {}\n",
	}
	entSchema := "package schema\n\nimport (\n\t\"entgo.io/ent\"\n\t\"entgo.io/ent/schema/field\"\n)\n\ntype Order struct{ ent.Schema }\n\n" +
		"func (Order) Fields() []ent.Field {\n\treturn []ent.Field{field.String(\"external_id\").Unique()}\n}\n"
	gooseGo := "package migrations\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\n\t\"github.com/pressly/goose/v3\"\n)\n\n" +
		"func init() { goose.AddMigrationContext(up, down) }\n\n" +
		"func up(ctx context.Context, tx *sql.Tx) error {\n\t_, err := tx.ExecContext(ctx, `CREATE TABLE orders (id bigserial PRIMARY KEY, external_id text UNIQUE)`)\n\treturn err\n}\n\n" +
		"func down(ctx context.Context, tx *sql.Tx) error {\n\t_, err := tx.ExecContext(ctx, `DROP TABLE orders`)\n\treturn err\n}\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"gorm", map[string]string{"models/order.go": "package models\n\ntype Order struct {\n\tID         uint\n\tExternalID string `gorm:\"uniqueIndex\"`\n}\n"},
			"fails on a repeat: the unique key idx_orders_external_id (UNIQUE (external_id), models/order.go:5)"},
		{"bun", map[string]string{"models/order.go": "package models\n\ntype Order struct {\n\tID         int64  `bun:\",pk,autoincrement\"`\n\tExternalID string `bun:\",unique\"`\n}\n"},
			"fails on a repeat: the unique key orders_external_id_key (UNIQUE (external_id), models/order.go:5)"},
		{"ent", map[string]string{"ent/schema/order.go": entSchema},
			"fails on a repeat: the unique key orders_external_id_key (UNIQUE (external_id), ent/schema/order.go:11)"},
		{"goose go", map[string]string{"migrations/00001_orders.go": gooseGo},
			"fails on a repeat: the unique key orders_external_id_key (UNIQUE (external_id), migrations/00001_orders.go:13)"},
		{"sqlc", map[string]string{"_db/schema.sql": ordersKeyed, "sqlc.yaml": "version: \"2\"\nsql:\n  - engine: postgresql\n    schema: _db/schema.sql\n    queries: _db/queries.sql\n"},
			"fails on a repeat: the unique key orders_external_id_key (UNIQUE (external_id), _db/schema.sql:1)"},
		{"gorm without the key", map[string]string{"models/order.go": "package models\n\ntype Order struct {\n\tID         uint\n\tExternalID string `gorm:\"size:64\"`\n}\n"},
			"INSERT into orders adds a row on every run: orders has no unique key besides id, made anew on every insert (models/order.go:3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range stand {
				files[k] = v
			}
			for k, v := range tc.files {
				files[k] = v
			}
			dir := writeSchemaModule(t, "", files)
			mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), append(mod, fakes...), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := inProcess(t, dir, "-q", "./...")
			if code != 3 || !strings.Contains(stdout, tc.want) {
				t.Errorf("exit %d, want 3 and %q:\n%s%s", code, tc.want, stdout, stderr)
			}
		})
	}
}
