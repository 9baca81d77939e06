package schema

import (
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeFiles writes name -> content below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readDir discovers and reads the schema of dir.
func readDir(t *testing.T, dir string) *Schema {
	t.Helper()
	files, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Read(files)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestORMModels(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"models/gorm.go": `package models

import "gorm.io/gorm"

type Order struct {
	gorm.Model
	ExternalID string ` + "`gorm:\"uniqueIndex\"`" + `
	TenantID   string ` + "`gorm:\"uniqueIndex:idx_tenant_ref\"`" + `
	Ref        string ` + "`gorm:\"uniqueIndex:idx_tenant_ref;not null\"`" + `
	Code       string ` + "`gorm:\"column:promo;unique\"`" + `
	Note       string
}

type Payment struct {
	PaymentRef string ` + "`gorm:\"primaryKey\"`" + `
	Amount     int64
}

type LedgerEntry struct {
	ID    string ` + "`gorm:\"type:uuid;default:gen_random_uuid()\"`" + `
	JobID string ` + "`gorm:\"index:idx_job,unique,where:deleted_at IS NULL\"`" + `
}

type Invoice struct {
	ID   uint
	Ref  string ` + "`gorm:\"index\"`" + `
	Body []byte ` + "`gorm:\"type:jsonb;index:idx_invoice_uid,unique,expression:(body->>'uid')\"`" + `
}

func (Invoice) TableName() string { return "billing.invoice" }

// A struct without tags is no model.
type Request struct{ ID string }
`,
		"store/bun.go": `package store

import "github.com/uptrace/bun"

type Delivery struct {
	bun.BaseModel ` + "`bun:\"table:webhook_deliveries,alias:d\"`" + `
	ID        int64  ` + "`bun:\"id,pk,autoincrement\"`" + `
	EventID   string ` + "`bun:\",unique:event_endpoint\"`" + `
	Endpoint  string ` + "`bun:\"endpoint_id,unique:event_endpoint\"`" + `
	Signature string ` + "`bun:\",unique\"`" + `
}

type Category struct {
	Slug string ` + "`bun:\",pk\"`" + `
}
`,
		"ent/schema/user.go": `package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

type User struct{ ent.Schema }

func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("email").Unique(),
		field.String("name"),
		field.String("tenant"),
		field.String("handle").NotEmpty(),
		field.String("legacy").StorageKey(),
	}
}

func (User) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant", "handle").Unique().Annotations(entsql.IndexWhere("deleted_at IS NULL")),
		index.Fields("name"),
		index.Fields("name").Edges("owner").Unique(),
	}
}

type Transfer struct{ ent.Schema }

func (Transfer) Fields() []ent.Field {
	return []ent.Field{field.UUID("id", uuid.UUID{}).Default(uuid.New), field.String("ref")}
}

func (Transfer) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "money_transfers"}}
}
`,
	})
	s := readDir(t, dir)
	for _, tc := range []struct{ table, want string }{
		{"orders", "orders_pkey=id!;uni_orders_promo=promo;idx_orders_external_id=external_id;idx_tenant_ref=tenant_id,ref"},
		{"payments", "payments_pkey=payment_ref!"},
		{"ledger_entries", "ledger_entries_pkey=id!;idx_job=job_id where deleted_at IS NULL"},
		{"invoice", "invoice_pkey=id!;idx_invoice_uid=(body->>'uid')"},
		{"webhook_deliveries", "webhook_deliveries_pkey=id!;event_endpoint=event_id,endpoint_id;webhook_deliveries_signature_key=signature"},
		{"categories", "categories_pkey=slug!"},
		{"users", "users_pkey=id!;users_email_key=email;users_tenant_handle=tenant,handle where deleted_at IS NULL"},
		{"money_transfers", "money_transfers_pkey=id!"},
	} {
		if got := keys(s.Table(tc.table)); got != tc.want {
			t.Errorf("%s: keys %s, want %s", tc.table, got, tc.want)
		}
	}
	if s.Table("requests") != nil {
		t.Error("a struct without ORM tags was read as a model")
	}
	fresh := func(table, col string) bool { _, ok := s.Table(table).Fresh[col]; return ok }
	for _, tc := range []struct {
		table, col string
		want       bool
	}{
		{"orders", "id", true},             // gorm.Model's uint ID
		{"payments", "payment_ref", false}, // a string key the code sets
		{"ledger_entries", "id", true},     // default:gen_random_uuid()
		{"invoice", "id", true},
		{"webhook_deliveries", "id", true},
		{"categories", "slug", false},
		{"users", "id", true},           // ent's own id
		{"money_transfers", "id", true}, // Default(uuid.New)
	} {
		if got := fresh(tc.table, tc.col); got != tc.want {
			t.Errorf("%s.%s fresh = %v, want %v", tc.table, tc.col, got, tc.want)
		}
	}
	if at := s.Table("orders").Keys[2].At; filepath.Base(at.File) != "gorm.go" || at.Line != 7 {
		t.Errorf("a tag's key is at %v, want gorm.go:7", at)
	}
}

// Models of one name in two packages are two models: each package's TableName names its
// own's table, and the name alone, asked without a directory, names neither.
func TestSameNamedModelsInTwoPackages(t *testing.T) {
	dir := t.TempDir()
	model := func(pkg, table string) string {
		return "package " + pkg + "\n\ntype Strategy struct {\n\tID        string `gorm:\"primaryKey\"`\n\tSymbol    string `gorm:\"uniqueIndex:idx_signal\"`\n\tTimestamp int64  `gorm:\"uniqueIndex:idx_signal\"`\n}\n\n" +
			"func (m *Strategy) TableName() string { return \"" + table + "\" }\n"
	}
	writeFiles(t, dir, map[string]string{
		"models/futures/strategy.go": model("futures", "binance_futures_strategies"),
		"models/swap/strategy.go":    model("swap", "raydium_swap_strategies"),
	})
	s := readDir(t, dir)
	st := types.NewStruct(nil, nil)
	for _, pkg := range []string{"futures", "swap"} {
		want := map[string]string{"futures": "binance_futures_strategies", "swap": "raydium_swap_strategies"}[pkg]
		table := s.ModelTable("Strategy", filepath.Join(dir, "models", pkg), st)
		if table == nil || table.Name != want {
			t.Errorf("Strategy of %s: table %v, want %s", pkg, table, want)
		}
	}
	if table := s.ModelTable("Strategy", "", st); table != nil {
		t.Errorf("Strategy of no known directory: table %s, want none (two are declared)", table.Name)
	}
	if got := keys(s.Table("binance_futures_strategies")); got != "binance_futures_strategies_pkey=id!;idx_signal=symbol,timestamp" {
		t.Errorf("binance_futures_strategies: %s", got)
	}
}

// The migrations are what the database has: a model adds only a table they do not declare.
func TestMigrationsWinOverModels(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"migrations/1_orders.up.sql": "CREATE TABLE orders (id bigserial PRIMARY KEY, ref text);",
		"models.go":                  "package m\n\ntype Order struct {\n\tID  uint\n\tRef string `gorm:\"uniqueIndex\"`\n}\n",
	})
	if got := keys(readDir(t, dir).Table("orders")); got != "orders_pkey=id!" {
		t.Errorf("orders: %s, want the migration's keys only", got)
	}
}

func TestGooseGoMigrations(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"migrations/00001_init.sql": "-- +goose Up\nCREATE TABLE accounts (id bigserial PRIMARY KEY, email text);\n-- +goose Down\nDROP TABLE accounts;\n",
		"migrations/00002_unique_email.go": "package migrations\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\n\t\"github.com/pressly/goose/v3\"\n)\n\n" +
			"func init() { goose.AddMigrationContext(upUniqueEmail, downUniqueEmail) }\n\n" +
			"func upUniqueEmail(ctx context.Context, tx *sql.Tx) error {\n\t_, err := tx.ExecContext(ctx, `\n\t\tCREATE UNIQUE INDEX accounts_email_key\n\t\tON accounts (email);`)\n" +
			"\tif err != nil {\n\t\treturn err\n\t}\n\t_, err = tx.ExecContext(ctx, \"CREATE TABLE audit (id serial PRIMARY KEY, \" + \"ref text UNIQUE)\")\n\treturn err\n}\n\n" +
			"func downUniqueEmail(ctx context.Context, tx *sql.Tx) error {\n\t_, err := tx.ExecContext(ctx, `DROP INDEX accounts_email_key; CREATE UNIQUE INDEX gone ON accounts (id, email)`)\n\treturn err\n}\n",
	})
	s := readDir(t, dir)
	if got := keys(s.Table("accounts")); got != "accounts_pkey=id!;accounts_email_key=email" {
		t.Errorf("accounts: %s, want the Go migration's index and not its down's", got)
	}
	if got := keys(s.Table("audit")); got != "audit_pkey=id!;audit_ref_key=ref" {
		t.Errorf("audit (a concatenated constant): %s", got)
	}
	if at := s.Table("accounts").Keys[1].At; at.Line != 13 {
		t.Errorf("the index of a raw string is at line %d, want 13", at.Line)
	}
}

func TestSQLCSchemaPaths(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		// sqlc's schema lives where the walk does not look (a directory starting with _).
		"_db/schema/001_orders.sql": "CREATE TABLE orders (id text PRIMARY KEY);",
		"_db/queries/orders.sql":    "-- name: GetOrder :one\nSELECT * FROM orders WHERE id = $1;",
		"sqlc.yaml":                 "version: \"2\"\nsql:\n  - engine: postgresql\n    schema: [\"_db/schema\"]\n    queries: _db/queries\n",
		"other/sqlc.json":           `{"version": "1", "packages": [{"schema": "../_db/legacy.sql", "queries": "q"}]}`,
		"_db/legacy.sql":            "CREATE TABLE legacy (ref text UNIQUE);",
	})
	rel := discoverRel(t, dir)
	if want := []string{"_db/schema/001_orders.sql", "_db/legacy.sql"}; !slices.Equal(rel, want) {
		t.Errorf("Discover = %v, want %v", rel, want)
	}
}

// discoverRel is Discover(dir), with the files relative to dir, in slash form.
func discoverRel(t *testing.T, dir string) []string {
	t.Helper()
	files, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, f := range files {
		r, _ := filepath.Rel(dir, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	return rel
}

// A snapshot beside the migrations sqlc reads applies first: the migrations' keys win.
func TestSQLCSchemaWins(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"database/migrations/001_init.sql":  "CREATE TABLE orders (id bigserial PRIMARY KEY, ref text);",
		"database/migrations/002_index.sql": "CREATE UNIQUE INDEX orders_ref_key ON orders (ref);",
		"database/schema/base.sql":          "CREATE TABLE orders (id bigserial PRIMARY KEY, ref text);",
		"sqlc.yaml":                         "version: \"2\"\nsql:\n  - engine: postgresql\n    schema: database/migrations\n    queries: database/queries\n",
	})
	rel := discoverRel(t, dir)
	if want := []string{"database/schema/base.sql", "database/migrations/001_init.sql", "database/migrations/002_index.sql"}; !slices.Equal(rel, want) {
		t.Errorf("Discover = %v, want %v", rel, want)
	}
	if got := keys(readDir(t, dir).Table("orders")); got != "orders_pkey=id!;orders_ref_key=ref" {
		t.Errorf("orders: %s, want the migrations' unique index", got)
	}
}

func TestNaming(t *testing.T) {
	for in, want := range map[string]string{
		"ExternalID": "external_id", "HTTPStatus": "http_status", "OrderItem": "order_item", "ID": "id", "UserID2": "user_id2",
	} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%s) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"order_item": "order_items", "category": "categories", "status": "statuses", "person": "people", "key": "keys", "box": "boxes",
		"address": "addresses", "settings": "settings", "analysis": "analyses", "information": "information",
	} {
		if got := Plural(in); got != want {
			t.Errorf("Plural(%s) = %s, want %s", in, got, want)
		}
	}
}
