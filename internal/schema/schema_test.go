package schema

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keys renders a table's keys for comparison: "orders_pkey=id;orders_ext_key=external_id".
func keys(t *Table) string {
	if t == nil {
		return "<no table>"
	}
	var parts []string
	for _, k := range t.Keys {
		s := k.Name + "=" + strings.Join(k.Columns, ",")
		if k.Primary {
			s += "!"
		}
		if k.Partial != "" {
			s += " where " + k.Partial
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ";")
}

func TestKeys(t *testing.T) {
	for _, tc := range []struct {
		name, table, want string
		files             []string
	}{
		{"postgres inline and table constraints", "orders", "orders_pkey=id!;orders_external_id_key=external_id;orders_tenant_ref=tenant_id,ref",
			[]string{`CREATE TABLE IF NOT EXISTS public.orders (
				id BIGSERIAL PRIMARY KEY,
				external_id TEXT NOT NULL UNIQUE,
				tenant_id uuid REFERENCES tenants (id),
				ref text,
				CONSTRAINT orders_tenant_ref UNIQUE (tenant_id, ref),
				CHECK (ref <> '')
			);`}},
		{"a unique index, partial, then dropped and renamed", "users", "users_pkey=id!;users_email_live=lower(email) where deleted_at IS NULL",
			[]string{
				`CREATE TABLE "users" (id uuid DEFAULT gen_random_uuid(), email text, deleted_at timestamptz, PRIMARY KEY (id));
				 CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS users_email_idx ON users (email);
				 CREATE INDEX users_deleted ON users (deleted_at);`,
				`DROP INDEX IF EXISTS users_email_idx;
				 CREATE UNIQUE INDEX users_email_l ON ONLY users USING btree (lower(email)) WHERE deleted_at IS NULL;
				 ALTER INDEX users_email_l RENAME TO users_email_live;`}},
		{"alter table adds, drops and renames", "payments", "payments_pkey=id!;payments_attempt_key=order_ref,attempt",
			[]string{
				`CREATE TABLE payments (id serial PRIMARY KEY, order_id bigint, attempt int, note text UNIQUE);`,
				`ALTER TABLE payments ADD CONSTRAINT payments_attempt_key UNIQUE (order_id, attempt), DROP COLUMN note;
				 ALTER TABLE ONLY payments RENAME COLUMN order_id TO order_ref;`}},
		{"a pg_dump: keys added after COPY rows that hold quotes and dollar signs", "mfa_codes", "mfa_codes_pkey=user_id,device_id!",
			[]string{"CREATE TABLE public.mfa_codes (\n    user_id text NOT NULL,\n    device_id text NOT NULL,\n    code text\n);\n\n" +
				"COPY public.mfa_codes (user_id, device_id, code) FROM stdin;\n" +
				"u1\td1\t$2a$10$d/OrXRFJQoYb528yA61jX.b8h26\n" +
				"u2\td2\tit's\n" +
				"\\.\n\n" +
				"ALTER TABLE ONLY public.mfa_codes\n    ADD CONSTRAINT mfa_codes_pkey PRIMARY KEY (user_id, device_id);\n"}},
		{"drop constraint", "events", "events_pkey=id!",
			[]string{`CREATE TABLE events (id int PRIMARY KEY, event_id text CONSTRAINT events_event_uq UNIQUE);
				ALTER TABLE events DROP CONSTRAINT IF EXISTS events_event_uq;`}},
		{"renamed table", "ledger", "entries_pkey=id!;entries_ref_key=ref",
			[]string{`CREATE TABLE entries (id int PRIMARY KEY, ref text UNIQUE); ALTER TABLE entries RENAME TO ledger;`}},
		{"mysql", "accounts", "accounts_pkey=id!;uk_email=email",
			[]string{"CREATE TABLE `accounts` (\n `id` bigint NOT NULL AUTO_INCREMENT,\n `email` varchar(255),\n `name` varchar(20),\n PRIMARY KEY (`id`),\n UNIQUE KEY `uk_email` (`email`),\n KEY `idx_name` (`name`)\n) ENGINE=InnoDB;"}},
		{"mysql drop index on", "accounts", "accounts_pkey=id!",
			[]string{"CREATE TABLE accounts (id int PRIMARY KEY, email text, UNIQUE INDEX uk_email (email)); DROP INDEX uk_email ON accounts;"}},
		{"sqlite", "jobs", "jobs_pkey=id!;jobs_name_key=name",
			[]string{`CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, UNIQUE(name));`}},
		{"goose down section not applied", "items", "items_pkey=id!;items_sku_key=sku",
			[]string{"-- +goose Up\n-- +goose StatementBegin\nCREATE TABLE items (id int PRIMARY KEY, sku text UNIQUE);\n-- +goose StatementEnd\n\n-- +goose Down\nDROP TABLE items;\n"}},
		{"sql-migrate sections alternate", "items", "items_pkey=id!;items_code=code",
			[]string{"-- +migrate Up\nCREATE TABLE items (id int PRIMARY KEY);\n-- +migrate Down\nDROP TABLE items;\n-- +migrate Up\nCREATE UNIQUE INDEX items_code ON items (code);\n-- +migrate Down\nDROP INDEX items_code;\n"}},
		{"dbmate down section not applied", "items", "items_pkey=id!",
			[]string{"-- migrate:up\nCREATE TABLE items (id int PRIMARY KEY);\n-- migrate:down\nDROP TABLE items;\n"}},
		{"tern down part not applied", "items", "items_pkey=id!",
			[]string{"CREATE TABLE items (id int PRIMARY KEY);\n---- create above / drop below ----\nDROP TABLE items;\n"}},
		{"an index created again if not exists is one key", "tags", "tags_pkey=id!;tags_name_idx=name",
			[]string{"CREATE TABLE tags (id int PRIMARY KEY, name text);\nCREATE UNIQUE INDEX IF NOT EXISTS tags_name_idx ON tags (name);",
				"CREATE UNIQUE INDEX IF NOT EXISTS tags_name_idx ON tags (name);"}},
		{"a table dropped", "gone", "<no table>",
			[]string{"CREATE TABLE gone (id int PRIMARY KEY);", "DROP TABLE IF EXISTS gone, other CASCADE;"}},
		{"an index on an unknown table is not guessed", "elsewhere", "<no table>",
			[]string{"CREATE UNIQUE INDEX e_idx ON elsewhere (k);"}},
		{"not a schema: skipped, never an error", "t", "t_pkey=id!",
			[]string{"SELECT 1; DO $$ BEGIN CREATE TABLE nope (x int); END $$; CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1); CREATE FUNCTION f() RETURNS void AS 'select 1' LANGUAGE sql"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			for i, f := range tc.files {
				s.Add(filepath.Join("m", string(rune('1'+i))+".sql"), f)
			}
			if got := keys(s.Table(tc.table)); got != tc.want {
				t.Errorf("keys of %s = %q, want %q", tc.table, got, tc.want)
			}
		})
	}
}

func TestFreshAndPositions(t *testing.T) {
	s := New()
	s.Add("m/0001_init.up.sql", "-- orders\n\nCREATE TABLE orders (\n  id uuid DEFAULT gen_random_uuid() PRIMARY KEY,\n  seq bigint GENERATED ALWAYS AS IDENTITY,\n  created_at timestamptz DEFAULT now(),\n  ext text UNIQUE\n);\n")
	o := s.Table(`"public"."Orders"`)
	if o == nil {
		t.Fatal("orders not found by a quoted, qualified name")
	}
	for col, want := range map[string]string{"id": "gen_random_uuid()", "seq": "identity", "created_at": "now()", "ext": ""} {
		if got := o.Fresh[col]; got != want {
			t.Errorf("Fresh[%s] = %q, want %q", col, got, want)
		}
	}
	if got := o.At.String(); got != "m/0001_init.up.sql:3" {
		t.Errorf("table at %s, want m/0001_init.up.sql:3", got)
	}
	if got := o.Keys[1].Describe(); got != "orders_ext_key (UNIQUE (ext), m/0001_init.up.sql:7)" {
		t.Errorf("Describe = %q", got)
	}
}

func TestIndexIsNoConstraint(t *testing.T) {
	s := New()
	s.Add("m.sql", `CREATE TABLE t (id int PRIMARY KEY, a text, b text);
		CREATE UNIQUE INDEX t_a_idx ON t (a);
		CREATE UNIQUE INDEX t_b_idx ON t (b);
		ALTER TABLE t ADD CONSTRAINT t_b_key UNIQUE USING INDEX t_b_idx;`)
	got := map[string]bool{}
	for _, k := range s.Table("t").Keys {
		got[k.Name] = k.Index
	}
	if want := map[string]bool{"t_pkey": false, "t_a_idx": true, "t_b_key": false}; !maps.Equal(got, want) {
		t.Errorf("Index by key = %v, want %v", got, want)
	}
}

func TestMatches(t *testing.T) {
	k := Key{Columns: []string{"tenant_id", "ref"}}
	if !k.Matches([]string{"ref", "tenant_id"}, false) {
		t.Error("the same columns in another order do not match")
	}
	if k.Matches([]string{"ref"}, false) || k.Matches([]string{"ref", "tenant_id", "x"}, false) {
		t.Error("a subset or superset matches")
	}
	p := Key{Columns: []string{"email"}, Partial: "deleted_at IS NULL"}
	if p.Matches([]string{"email"}, false) || !p.Matches([]string{"email"}, true) {
		t.Error("a partial index matches a target without WHERE, or not one with")
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("db/migrations/10_b.up.sql", "ALTER TABLE a ADD UNIQUE (k);")
	write("db/migrations/2_a.up.sql", "CREATE TABLE a (id int PRIMARY KEY, k text);")
	write("db/migrations/2_a.down.sql", "DROP TABLE a;")
	write("db/down/2_a.sql", "DROP TABLE a;")
	write("db/queries/q.sql", "-- name: GetA :one\nSELECT * FROM a WHERE id = $1;")
	write("vendor/x/schema.sql", "CREATE TABLE v (id int);")
	write("testdata/schema.sql", "CREATE TABLE td (id int);")
	write(".hidden/schema.sql", "CREATE TABLE h (id int);")
	files, err := Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, f := range files {
		r, _ := filepath.Rel(root, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	if got, want := strings.Join(rel, " "), "db/migrations/2_a.up.sql db/migrations/10_b.up.sql"; got != want {
		t.Errorf("Discover = %s, want %s", got, want)
	}
	s, err := Read(files)
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(s.Table("a")); got != "a_pkey=id!;a_k_key=k" {
		t.Errorf("keys of a after both migrations = %q", got)
	}
	if _, err := Expand(root, []string{"db/nothing/*.sql"}); err == nil || !strings.Contains(err.Error(), "db/nothing/*.sql") {
		t.Errorf("Expand of a glob that matches nothing: %v, want an error naming it", err)
	}
	got, err := Expand(root, []string{"db/migrations/*.up.sql", "db/migrations"})
	if err != nil || len(got) != 2 {
		t.Errorf("Expand = %v, %v; want the two up files once each", got, err)
	}
}

// A column named key is a column, not MySQL's KEY element.
func TestColumnNamedKey(t *testing.T) {
	s := New()
	s.Add("s.sql", "CREATE TABLE settings (id SERIAL PRIMARY KEY, key VARCHAR(200) UNIQUE NOT NULL, value TEXT, KEY settings_value (value(10)), INDEX idx_v USING BTREE (value));")
	if got, want := keys(s.Table("settings")), "settings_pkey=id!;settings_key_key=key"; got != want {
		t.Errorf("settings: %s, want %s", got, want)
	}
}

// TestReplacingMergeTree: a ClickHouse ReplacingMergeTree's sorting key is read from its
// ORDER BY, a list or one column, replicated or not; other engines, and a table with no
// engine, have none.
func TestReplacingMergeTree(t *testing.T) {
	s := New()
	s.Add("ch.sql", `CREATE TABLE IF NOT EXISTS orders (
    id UInt64, status LowCardinality(String), created_at DateTime, updated_at DateTime
)
    ENGINE = ReplacingMergeTree(updated_at)
        PARTITION BY toYYYYMM(created_at)
        ORDER BY (created_at, id)
        SETTINGS index_granularity = 8192;
CREATE TABLE events (id UInt64, at DateTime) ENGINE = ReplicatedReplacingMergeTree('/ch/{shard}/events', '{replica}') ORDER BY id;
CREATE TABLE hits (day Date, n UInt64) ENGINE = SummingMergeTree ORDER BY day;
CREATE TABLE logs (line String) ENGINE = MergeTree ORDER BY tuple();
CREATE TABLE pg (id bigint PRIMARY KEY);
`)
	for name, want := range map[string]string{"orders": "created_at,id @ch.sql:6", "events": "id @ch.sql:8", "hits": "", "logs": "", "pg": ""} {
		got := ""
		if k := s.Table(name).Replacing; k != nil {
			got = strings.Join(k.Columns, ",") + " @" + k.At.String()
		}
		if got != want {
			t.Errorf("%s: replacing key %q, want %q", name, got, want)
		}
	}
}
