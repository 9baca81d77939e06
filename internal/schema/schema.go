// Package schema is the table model the project's own schema declares: per table, its
// primary key, unique constraints and unique indexes (with a partial index's predicate),
// and the columns whose default makes a value fresh on every insert (serial, identity,
// gen_random_uuid(), now()). The sinks stage judges an INSERT with it (a unique key the job
// binds makes a redelivery fail on the constraint; a table whose only keys are generated
// takes a duplicate row), and the conflicts check finds ON CONFLICT targets that match no
// key.
//
// Its input is SQL text (migration files in the order they apply, found by Discover or
// named in the settings); it reads CREATE TABLE, CREATE UNIQUE INDEX, ALTER TABLE (ADD and
// DROP of constraints and columns, RENAME), DROP TABLE and DROP INDEX, in the PostgreSQL,
// MySQL and SQLite forms, with the lexer of internal/sqlstmt. Every other statement is
// skipped, never an error: the model holds only what the text declares, and a table it does
// not know keeps the judgement its statement text alone gives. Go files add what they
// declare, from their syntax alone (gosource.go): goose Go migrations' constant DDL, and
// GORM, bun and ent models, whose tables count where no migration declares them; ModelTable
// and FieldColumn name an ORM record's table and columns for the sinks stage.
package schema

import (
	"fmt"
	"slices"
	"strings"
)

// Pos is where a declaration is: a file as it was named to the reader, and a 1-based line.
type Pos struct {
	File string
	Line int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// Key is a unique key of a table: its primary key, a UNIQUE constraint or a unique index.
type Key struct {
	// Name is the constraint's or index's name, PostgreSQL's default (orders_pkey,
	// orders_external_id_key) when the declaration names none.
	Name string
	// Columns are the key's columns in lower case (an expression of an index, lower(email),
	// as written without spaces).
	Columns []string
	Primary bool
	// Partial is the predicate of a partial unique index (CREATE UNIQUE INDEX ... WHERE
	// deleted_at IS NULL), "" for a key on every row.
	Partial string
	// Index: a unique index (CREATE UNIQUE INDEX), not a constraint. ON CONFLICT infers
	// either from its columns, but ON CONFLICT ON CONSTRAINT names only a constraint.
	Index bool
	At    Pos
}

// Describe is the key as a message names it: "orders_external_id_key (UNIQUE
// (external_id), migrations/0003.up.sql:4)".
func (k Key) Describe() string {
	what := "UNIQUE"
	if k.Primary {
		what = "PRIMARY KEY"
	}
	s := k.Name + " (" + what + " (" + strings.Join(k.Columns, ", ") + ")"
	if k.Partial != "" {
		s += " WHERE " + k.Partial
	}
	return s + ", " + k.At.String() + ")"
}

// Table is what the schema declares of one table.
type Table struct {
	// Name is the table's name in lower case, without a schema qualifier.
	Name string
	At   Pos
	Keys []Key
	// Fresh maps a column whose default makes a new value on every insert to what does
	// (serial, identity, auto_increment, gen_random_uuid()).
	Fresh map[string]string
	// Exclusions are the names of the table's EXCLUDE constraints: no unique key, but a
	// name ON CONFLICT ON CONSTRAINT may give.
	Exclusions []string
	// Replacing is the sorting key of a ClickHouse ReplacingMergeTree (ENGINE =
	// ReplacingMergeTree(ver) ... ORDER BY (a, b), replicated or not): the table keeps one
	// row per key, merging the rows an insert of the same key again adds (at once for a
	// query with FINAL), so such an insert converges. Nil for any other table.
	Replacing *Key
}

// Covers reports whether every column of key k is in cols.
func (k Key) Covers(cols []string) bool {
	for _, c := range k.Columns {
		if !slices.Contains(cols, c) {
			return false
		}
	}
	return true
}

// Matches reports whether key k is the key an ON CONFLICT target names: the same columns in
// any order; a partial index only for a target with a WHERE (the database infers a partial
// index only from a target whose predicate implies the index's).
func (k Key) Matches(cols []string, where bool) bool {
	if len(cols) != len(k.Columns) || (k.Partial != "" && !where) {
		return false
	}
	return k.Covers(cols)
}

// Schema is the tables a project's schema declares.
type Schema struct {
	tables  map[string]*Table
	indexes map[string]string // unique index name -> its table, for DROP INDEX
	// Files are the files read, in the order they applied.
	Files []string
	// orm holds the ORM models' tables until every file is read (addORM); tableNames maps
	// a Go type, by its directory and name (typeKey), to the table its TableName method
	// returns, and by its name alone ("" when types of that name in two directories return
	// different tables).
	orm        []ormTable
	tableNames map[string]string
	// modelTables maps the Go type of an ORM model to its table, keyed as tableNames are
	// ("" when two models of that name declare different tables).
	modelTables map[string]string
}

// typeKey keys a Go type declared in directory dir by both: types of one name in two
// packages (a Strategy model in each exchange's package) are two types.
func typeKey(dir, name string) string { return dir + "\x00" + name }

// New returns an empty schema, to which Read adds files.
func New() *Schema {
	return &Schema{tables: map[string]*Table{}, indexes: map[string]string{}, tableNames: map[string]string{}, modelTables: map[string]string{}}
}

// Table returns the table a statement names (quoted, qualified or not), or nil when the
// schema does not declare it.
func (s *Schema) Table(name string) *Table {
	if s == nil {
		return nil
	}
	return s.tables[normName(name)]
}

// Len is the number of tables.
func (s *Schema) Len() int {
	if s == nil {
		return 0
	}
	return len(s.tables)
}

// Tables returns the tables sorted by name.
func (s *Schema) Tables() []*Table {
	out := make([]*Table, 0, s.Len())
	for _, t := range s.tables {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *Table) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// normName is a table's or column's key: lower case, quotes and a schema qualifier
// dropped (public.orders and "Orders" are orders).
func normName(name string) string {
	name = strings.NewReplacer(`"`, "", "`", "", "[", "", "]", "").Replace(name)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.ToLower(strings.TrimSpace(name))
}

// NormColumns is columns as keys hold them (lower case, unquoted), for a caller comparing a
// statement's columns with a key's.
func NormColumns(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = normColumn(c)
	}
	return out
}

// TargetColumns is an ON CONFLICT target's columns as keys hold them (NormColumns); ok is
// false when one is not a column the database sees but a template's verb or a bind
// ("%s", "{{.Col}}", "$1").
func TargetColumns(cols []string) (norm []string, ok bool) {
	norm = NormColumns(cols)
	for _, c := range norm {
		if strings.ContainsAny(c, "%{$?:@") {
			return nil, false
		}
	}
	return norm, true
}

func normColumn(c string) string {
	c = strings.NewReplacer(`"`, "", "`", "", " ", "", "\t", "", "\n", "").Replace(c)
	return strings.ToLower(c)
}

// ClockDefault reports whether a column's fresh default (Table.Fresh's value) is the time
// of the insert.
func ClockDefault(def string) bool {
	switch def {
	case "now()", "clock_timestamp()", "current_timestamp", "localtimestamp":
		return true
	}
	return false
}
