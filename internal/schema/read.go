package schema

import (
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// Add reads the DDL of one file, named file in positions, into s. Statements it does not
// know are skipped; statements apply in order, so a later ALTER or DROP changes what an
// earlier CREATE declared.
func (s *Schema) Add(file string, text string) {
	s.Files = append(s.Files, file)
	s.addText(file, copyData(upSection(text)), 0, false)
}

// copyData blanks, keeping every line where it was, the rows of the COPY ... FROM stdin
// statements of a pg_dump file: the lines after one, up to and with the line "\.". They
// are data, not SQL: a quote or a dollar sign in them (a bcrypt hash's "$2a$10$") would
// make the rest of the file one literal, and hide the dump's keys, which it adds last
// (ALTER TABLE ONLY ... ADD CONSTRAINT ... PRIMARY KEY).
func copyData(text string) string {
	data := false
	return blankLines(text, func(line string) bool {
		switch {
		case data:
			data = line != `\.` // the end marker goes too: it would start the next statement
			return true
		case strings.HasPrefix(line, "copy ") && strings.HasSuffix(line, "from stdin;"):
			data = true
		}
		return false
	})
}

// blankLines blanks, keeping every line where it was, the lines of text that blank says to,
// asked of each line in order, trimmed and in lower case.
func blankLines(text string, blank func(line string) bool) string {
	lower := asciiLower(text) // the same length as text, so its offsets are text's
	var b []byte
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		if blank(strings.TrimSpace(lower[off:end])) {
			if b == nil {
				b = []byte(text)
			}
			for i := off; i < end; i++ {
				b[i] = ' '
			}
		}
		off = end + 1
	}
	if b == nil {
		return text
	}
	return string(b)
}

// addText reads DDL text found at line base+1 of file: a migration file's text (base 0),
// or a string literal of a Go migration, whose lines are the file's when it is a raw
// string (flat false) and are all its first line when escapes may join them.
func (s *Schema) addText(file, text string, base int, flat bool) {
	d := ddl{s: s, file: file, text: text, toks: sqlstmt.Tokens(text), base: base, flat: flat}
	from := 0
	for i := 0; i <= len(d.toks); i++ {
		if i == len(d.toks) || d.op(i, ";") {
			if i > from {
				d.statement(from, i)
			}
			from = i + 1
		}
	}
}

// ddl reads the tokens of one file.
type ddl struct {
	s     *Schema
	file  string
	text  string
	toks  []sqlstmt.Token
	lines []int // offsets of line starts, made on first use
	base  int   // the line the text starts on, less one
	flat  bool  // every position is the text's first line
}

func (d *ddl) kw(i, to int, k string) bool {
	return i >= 0 && i < to && d.toks[i].Kind == sqlstmt.Word && strings.EqualFold(d.toks[i].Text, k)
}

func (d *ddl) op(i int, o string) bool {
	return i >= 0 && i < len(d.toks) && d.toks[i].Kind == sqlstmt.Other && d.toks[i].Text == o
}

func (d *ddl) isName(i, to int) bool {
	return i >= 0 && i < to && (d.toks[i].Kind == sqlstmt.Word || d.toks[i].Kind == sqlstmt.Quoted)
}

// close is the index of the ')' of the '(' at i, within to.
func (d *ddl) close(i, to int) int { return min(d.toks[i].Close, to) }

func (d *ddl) pos(i int) Pos {
	if d.flat {
		return Pos{File: d.file, Line: d.base + 1}
	}
	if d.lines == nil {
		d.lines = []int{0}
		for k := 0; k < len(d.text); k++ {
			if d.text[k] == '\n' {
				d.lines = append(d.lines, k+1)
			}
		}
	}
	off := 0
	if i < len(d.toks) {
		off = d.toks[i].Offset
	}
	line, _ := slices.BinarySearch(d.lines, off+1)
	return Pos{File: d.file, Line: d.base + line}
}

// skip moves past the words given, in order, each optional: skip(j, to, "IF", "NOT",
// "EXISTS") after CREATE TABLE.
func (d *ddl) skipAll(j, to int, words ...string) int {
	k := j
	for _, w := range words {
		if !d.kw(k, to, w) {
			return j
		}
		k++
	}
	return k
}

// name reads a possibly qualified name at j: its last part, lower-cased, and the index
// after it.
func (d *ddl) name(j, to int) (string, int) {
	name := ""
	for d.isName(j, to) {
		name = d.toks[j].Text
		if d.toks[j].Kind == sqlstmt.Word {
			name = strings.ToLower(name)
		}
		j++
		if !d.op(j, ".") {
			break
		}
		j++
	}
	return name, j
}

func (d *ddl) statement(from, to int) {
	switch {
	case d.kw(from, to, "CREATE"):
		j := from + 1
		if d.kw(j, to, "OR") && d.kw(j+1, to, "REPLACE") {
			j += 2
		}
		for d.kw(j, to, "GLOBAL") || d.kw(j, to, "LOCAL") || d.kw(j, to, "TEMP") || d.kw(j, to, "TEMPORARY") || d.kw(j, to, "UNLOGGED") {
			j++
		}
		switch {
		case d.kw(j, to, "TABLE"):
			d.createTable(j+1, to)
		case d.kw(j, to, "UNIQUE") && d.kw(j+1, to, "INDEX"):
			d.createIndex(j+2, to, from)
		}
	case d.kw(from, to, "ALTER") && d.kw(from+1, to, "TABLE"):
		d.alterTable(from+2, to)
	case d.kw(from, to, "ALTER") && d.kw(from+1, to, "INDEX"):
		j := d.skipAll(from+2, to, "IF", "EXISTS")
		old, j := d.name(j, to)
		if d.kw(j, to, "RENAME") && d.kw(j+1, to, "TO") {
			nw, _ := d.name(j+2, to)
			d.renameIndex(old, nw)
		}
	case d.kw(from, to, "DROP") && d.kw(from+1, to, "TABLE"):
		j := d.skipAll(from+2, to, "IF", "EXISTS")
		for j < to {
			var n string
			if n, j = d.name(j, to); n == "" {
				break
			}
			d.dropTable(n)
			if !d.op(j, ",") {
				break
			}
			j++
		}
	case d.kw(from, to, "DROP") && d.kw(from+1, to, "INDEX"):
		j := d.skipAll(from+2, to, "CONCURRENTLY")
		j = d.skipAll(j, to, "IF", "EXISTS")
		for j < to {
			var n string
			if n, j = d.name(j, to); n == "" {
				break
			}
			if d.kw(j, to, "ON") { // MySQL: DROP INDEX name ON table
				t, _ := d.name(j+1, to)
				d.dropKey(t, n)
				break
			}
			d.dropKey(d.s.indexes[n], n)
			if !d.op(j, ",") {
				break
			}
			j++
		}
	case d.kw(from, to, "RENAME") && d.kw(from+1, to, "TABLE"): // MySQL
		old, j := d.name(from+2, to)
		if d.kw(j, to, "TO") {
			nw, _ := d.name(j+1, to)
			d.renameTable(old, nw)
		}
	}
}

// createTable reads CREATE TABLE [IF NOT EXISTS] name ( elements ) from j. A CREATE TABLE
// IF NOT EXISTS of a table already declared changes nothing.
func (d *ddl) createTable(j, to int) {
	ifNot := d.kw(j, to, "IF")
	j = d.skipAll(j, to, "IF", "NOT", "EXISTS")
	name, j := d.name(j, to)
	if name == "" || !d.op(j, "(") {
		return // CREATE TABLE ... AS SELECT, a name built at run time
	}
	if d.s.tables[name] != nil && ifNot {
		return
	}
	t := &Table{Name: name, At: d.pos(j - 1), Fresh: map[string]string{}}
	d.s.tables[name] = t
	end := d.close(j, to)
	for _, el := range d.items(j+1, end) {
		d.element(t, el[0], el[1])
	}
	d.replacingKey(t, end+1, to)
}

// replacingKey reads, from the table options after a CREATE TABLE's elements, a ClickHouse
// ReplacingMergeTree's sorting key: ENGINE = [Replicated]ReplacingMergeTree[(...)] and an
// ORDER BY of a column or a parenthesised list. Other engines (a SummingMergeTree adds the
// rows of one key up) keep every row an insert adds.
func (d *ddl) replacingKey(t *Table, j, to int) {
	engine := -1
	for k := j; k < to; k++ {
		if d.kw(k, to, "ENGINE") {
			engine = k
			break
		}
	}
	if engine < 0 {
		return
	}
	e := engine + 1
	if d.op(e, "=") {
		e++
	}
	if !d.kw(e, to, "ReplacingMergeTree") && !d.kw(e, to, "ReplicatedReplacingMergeTree") {
		return
	}
	for k := e + 1; k < to; k++ {
		if d.op(k, "(") {
			k = d.close(k, to)
			continue
		}
		if !d.kw(k, to, "ORDER") || !d.kw(k+1, to, "BY") {
			continue
		}
		cols := d.columnList(k+2, to)
		if cols == nil && d.isName(k+2, to) && !d.op(k+3, "(") {
			cols = []string{normColumn(d.toks[k+2].Text)}
		}
		if len(cols) > 0 {
			t.Replacing = &Key{Name: d.toks[e].Text, Columns: cols, At: d.pos(k)}
		}
		return
	}
}

// items splits [from, to) at the commas outside parentheses.
func (d *ddl) items(from, to int) [][2]int {
	var out [][2]int
	start := from
	for k := from; k <= to; k++ {
		if k < to && d.op(k, "(") {
			k = d.close(k, to)
			continue
		}
		if k == to || d.op(k, ",") {
			if k > start {
				out = append(out, [2]int{start, k})
			}
			start = k + 1
		}
	}
	return out
}

// element reads one element of a table's definition or an ALTER TABLE ADD: a table
// constraint or a column.
func (d *ddl) element(t *Table, from, to int) {
	cname := ""
	if d.kw(from, to, "CONSTRAINT") {
		cname, from = d.name(from+1, to)
	}
	switch {
	case d.kw(from, to, "PRIMARY") && d.kw(from+1, to, "KEY"):
		d.addKey(t, cname, true, d.columnList(from+2, to), "", from)
	case d.kw(from, to, "UNIQUE"):
		j := from + 1
		if d.kw(j, to, "KEY") || d.kw(j, to, "INDEX") {
			j++
		}
		j = d.skipAll(j, to, "NULLS", "NOT", "DISTINCT")
		j = d.skipAll(j, to, "NULLS", "DISTINCT")
		if d.isName(j, to) && d.op(j+1, "(") { // MySQL: UNIQUE KEY name (cols)
			if cname == "" {
				cname, _ = d.name(j, to)
			}
			j++
		}
		if d.kw(j, to, "USING") && d.kw(j+1, to, "INDEX") { // ADD CONSTRAINT c UNIQUE USING INDEX idx
			idx, _ := d.name(j+2, to)
			d.adoptIndex(t, idx, cname)
			return
		}
		d.addKey(t, cname, false, d.columnList(j, to), "", from)
	case d.kw(from, to, "EXCLUDE"):
		if cname != "" {
			t.Exclusions = append(t.Exclusions, cname)
		}
	case (d.kw(from, to, "KEY") || d.kw(from, to, "INDEX")) && !d.indexElement(from, to):
		d.column(t, from, to) // a column named key (key VARCHAR(200) UNIQUE)
	case d.kw(from, to, "FOREIGN"), d.kw(from, to, "CHECK"),
		d.kw(from, to, "KEY"), d.kw(from, to, "INDEX"), d.kw(from, to, "FULLTEXT"),
		d.kw(from, to, "SPATIAL"), d.kw(from, to, "LIKE"), d.kw(from, to, "PERIOD"):
		// not a unique key
	default:
		d.column(t, from, to)
	}
}

// indexElement reports whether the KEY or INDEX at from starts MySQL's index element (KEY
// (a), KEY idx (a), INDEX idx USING BTREE (a)), not a column of that name, whose type
// follows (key VARCHAR(200), key text).
func (d *ddl) indexElement(from, to int) bool {
	j := from + 1
	if d.op(j, "(") {
		return true
	}
	if !d.isName(j, to) || d.toks[j].Kind == sqlstmt.Word && sqlType(d.toks[j].Text) {
		return false
	}
	return d.op(j+1, "(") || d.kw(j+1, to, "USING")
}

// sqlType reports whether a word names a column type a definition may start with.
func sqlType(w string) bool {
	switch strings.ToLower(w) {
	case "varchar", "char", "character", "text", "citext", "string", "int", "integer", "int2", "int4", "int8",
		"bigint", "smallint", "tinyint", "mediumint", "serial", "bigserial", "smallserial", "uuid", "bool",
		"boolean", "json", "jsonb", "bytea", "blob", "binary", "varbinary", "date", "time", "timestamp",
		"timestamptz", "datetime", "numeric", "decimal", "real", "double", "float", "money", "enum", "inet":
		return true
	}
	return false
}

// column reads a column definition: its inline PRIMARY KEY or UNIQUE, and a default or a
// type that makes its value fresh.
func (d *ddl) column(t *Table, from, to int) {
	col, j := d.name(from, to)
	if col == "" {
		return
	}
	col = normColumn(col)
	typ := ""
	if d.isName(j, to) {
		typ = strings.ToLower(d.toks[j].Text)
	}
	switch typ {
	case "serial", "bigserial", "smallserial", "serial4", "serial8", "serial2":
		t.Fresh[col] = typ
	}
	cname := "" // an inline CONSTRAINT name, for the constraint after it
	for k := j; k < to; k++ {
		if d.op(k, "(") {
			k = d.close(k, to)
			continue
		}
		switch {
		case d.kw(k, to, "CONSTRAINT"):
			cname, _ = d.name(k+1, to)
			k++
			continue
		case d.kw(k, to, "PRIMARY") && d.kw(k+1, to, "KEY"):
			d.addKey(t, cname, true, []string{col}, "", k)
			cname = ""
			if typ == "integer" && t.Fresh[col] == "" {
				// SQLite: an INTEGER PRIMARY KEY is the rowid, assigned when the insert
				// leaves it out (elsewhere an insert that leaves it out fails).
				t.Fresh[col] = "INTEGER PRIMARY KEY (rowid)"
			}
		case d.kw(k, to, "UNIQUE"):
			d.addKey(t, cname, false, []string{col}, "", k)
			cname = ""
		case d.kw(k, to, "REFERENCES"):
			k++ // REFERENCES t (col): the group is skipped above
		case d.kw(k, to, "AUTO_INCREMENT"), d.kw(k, to, "AUTOINCREMENT"):
			t.Fresh[col] = strings.ToLower(d.toks[k].Text)
		case d.kw(k, to, "GENERATED") && (d.kw(k+1, to, "ALWAYS") || d.kw(k+1, to, "BY")):
			if i := d.find(k, to, "IDENTITY"); i >= 0 {
				t.Fresh[col] = "identity"
			}
		case d.kw(k, to, "DEFAULT") && k+1 < to:
			if f := freshDefault(d.toks[k+1].Text, d.op(k+2, "(")); f != "" {
				t.Fresh[col] = f
			}
		}
	}
}

// find returns the first keyword k in [from, to) outside parentheses, or -1.
func (d *ddl) find(from, to int, k string) int {
	for i := from; i < to; i++ {
		if d.op(i, "(") {
			i = d.close(i, to)
			continue
		}
		if d.kw(i, to, k) {
			return i
		}
	}
	return -1
}

// freshDefault names a default that makes a new value on every insert, or "".
func freshDefault(word string, call bool) string {
	w := strings.ToLower(word)
	switch {
	case call && (w == "gen_random_uuid" || strings.HasPrefix(w, "uuid_generate_v") || w == "uuid" ||
		w == "nextval" || w == "now" || w == "random" || w == "uuidv7" || w == "uuidv4" ||
		w == "gen_ulid" || w == "generate_ulid" || w == "clock_timestamp"):
		return w + "()"
	case !call && (w == "current_timestamp" || w == "localtimestamp"):
		return w
	}
	return ""
}

// columnList reads ( c1, c2, ... ) at j: the columns, lower-cased; an item that is not a
// bare name (an expression, a name with an operator class or order) is its first name,
// or, for an expression, its text without spaces.
func (d *ddl) columnList(j, to int) []string {
	if !d.op(j, "(") {
		return nil
	}
	end := d.close(j, to)
	var cols []string
	for _, it := range d.items(j+1, end) {
		if d.isName(it[0], it[1]) && !d.op(it[0]+1, "(") {
			cols = append(cols, normColumn(d.toks[it[0]].Text))
			continue
		}
		last := d.toks[it[1]-1]
		stop := last.Offset + len(last.Text)
		if last.Kind == sqlstmt.Quoted {
			stop += 2
		}
		cols = append(cols, normColumn(d.text[d.toks[it[0]].Offset:stop]))
	}
	return cols
}

// createIndex reads the rest of CREATE UNIQUE INDEX [CONCURRENTLY] [IF NOT EXISTS] [name]
// ON [ONLY] table [USING method] (cols) [INCLUDE (...)] [WHERE predicate] from j.
func (d *ddl) createIndex(j, to, stmt int) {
	j = d.skipAll(j, to, "CONCURRENTLY")
	j = d.skipAll(j, to, "IF", "NOT", "EXISTS")
	name := ""
	if !d.kw(j, to, "ON") {
		name, j = d.name(j, to)
	}
	if !d.kw(j, to, "ON") {
		return
	}
	j = d.skipAll(j+1, to, "ONLY")
	table, j := d.name(j, to)
	t := d.s.tables[table]
	if t == nil {
		return // an index on a table the schema does not declare: nothing is guessed
	}
	if d.kw(j, to, "USING") {
		j += 2
	}
	if !d.op(j, "(") {
		return
	}
	cols := d.columnList(j, to)
	partial := ""
	if w := d.find(d.close(j, to)+1, to, "WHERE"); w >= 0 && w+1 < to {
		last := d.toks[to-1]
		partial = strings.Join(strings.Fields(d.text[d.toks[w+1].Offset:last.Offset+len(last.Text)]), " ")
	}
	if name == "" {
		name = t.Name + "_" + strings.Join(cols, "_") + "_idx"
	}
	if slices.ContainsFunc(t.Keys, func(k Key) bool { return k.Name == name }) {
		return // CREATE UNIQUE INDEX IF NOT EXISTS run again, or a name taken: one key
	}
	if k := d.addKey(t, name, false, cols, partial, stmt); k != nil {
		k.Index = true
		d.s.indexes[name] = t.Name
	}
}

// alterTable reads ALTER TABLE [IF EXISTS] [ONLY] name action, ... from j.
func (d *ddl) alterTable(j, to int) {
	j = d.skipAll(j, to, "IF", "EXISTS")
	j = d.skipAll(j, to, "ONLY")
	name, j := d.name(j, to)
	t := d.s.tables[name]
	if t == nil {
		return
	}
	for _, a := range d.items(j, to) {
		d.alterAction(t, a[0], a[1])
	}
}

func (d *ddl) alterAction(t *Table, from, to int) {
	switch {
	case d.kw(from, to, "ADD"):
		j := d.skipAll(from+1, to, "COLUMN")
		j = d.skipAll(j, to, "IF", "NOT", "EXISTS")
		if d.kw(j, to, "INDEX") || d.kw(j, to, "KEY") {
			return
		}
		d.element(t, j, to)
	case d.kw(from, to, "DROP") && d.kw(from+1, to, "CONSTRAINT"):
		j := d.skipAll(from+2, to, "IF", "EXISTS")
		n, _ := d.name(j, to)
		d.dropKey(t.Name, n)
	case d.kw(from, to, "DROP") && (d.kw(from+1, to, "INDEX") || d.kw(from+1, to, "KEY")): // MySQL
		n, _ := d.name(from+2, to)
		d.dropKey(t.Name, n)
	case d.kw(from, to, "DROP") && d.kw(from+1, to, "PRIMARY") && d.kw(from+2, to, "KEY"):
		t.Keys = slices.DeleteFunc(t.Keys, func(k Key) bool { return k.Primary })
	case d.kw(from, to, "DROP"):
		j := d.skipAll(from+1, to, "COLUMN")
		j = d.skipAll(j, to, "IF", "EXISTS")
		col, _ := d.name(j, to)
		if col == "" {
			return
		}
		col = normColumn(col)
		// A key with the column goes with it (PostgreSQL drops the constraint; MySQL
		// narrows a key, which the model then cannot tell unique: dropped too).
		t.Keys = slices.DeleteFunc(t.Keys, func(k Key) bool { return slices.Contains(k.Columns, col) })
		delete(t.Fresh, col)
	case d.kw(from, to, "RENAME") && d.kw(from+1, to, "TO"), d.kw(from, to, "RENAME") && d.kw(from+1, to, "AS"):
		nw, _ := d.name(from+2, to)
		d.renameTable(t.Name, nw)
	case d.kw(from, to, "RENAME") && d.kw(from+1, to, "CONSTRAINT"), d.kw(from, to, "RENAME") && d.kw(from+1, to, "INDEX"), d.kw(from, to, "RENAME") && d.kw(from+1, to, "KEY"):
		old, j := d.name(from+2, to)
		if d.kw(j, to, "TO") {
			nw, _ := d.name(j+1, to)
			for i := range t.Keys {
				if t.Keys[i].Name == old {
					t.Keys[i].Name = nw
				}
			}
			d.renameIndex(old, nw)
		}
	case d.kw(from, to, "RENAME"):
		j := d.skipAll(from+1, to, "COLUMN")
		old, j := d.name(j, to)
		if !d.kw(j, to, "TO") || old == "" {
			return
		}
		nw, _ := d.name(j+1, to)
		old, nw = normColumn(old), normColumn(nw)
		for i := range t.Keys {
			for c := range t.Keys[i].Columns {
				if t.Keys[i].Columns[c] == old {
					t.Keys[i].Columns[c] = nw
				}
			}
		}
		if f, ok := t.Fresh[old]; ok {
			delete(t.Fresh, old)
			t.Fresh[nw] = f
		}
	case d.kw(from, to, "ALTER"):
		// ALTER [COLUMN] c SET DEFAULT gen_random_uuid() / DROP DEFAULT / ADD GENERATED ... AS IDENTITY
		j := d.skipAll(from+1, to, "COLUMN")
		col, j := d.name(j, to)
		if col == "" {
			return
		}
		col = normColumn(col)
		switch {
		case d.kw(j, to, "SET") && d.kw(j+1, to, "DEFAULT") && j+2 < to:
			if f := freshDefault(d.toks[j+2].Text, d.op(j+3, "(")); f != "" {
				t.Fresh[col] = f
			} else {
				delete(t.Fresh, col)
			}
		case d.kw(j, to, "DROP") && (d.kw(j+1, to, "DEFAULT") || d.kw(j+1, to, "IDENTITY")):
			delete(t.Fresh, col)
		case d.kw(j, to, "ADD") && d.kw(j+1, to, "GENERATED"):
			t.Fresh[col] = "identity"
		}
	}
}

// addKey adds a key to t; the name defaults as PostgreSQL names it.
// addKey adds a key to t and returns it; nil when it has no columns.
func (d *ddl) addKey(t *Table, name string, primary bool, cols []string, partial string, at int) *Key {
	if len(cols) == 0 {
		return nil
	}
	if name == "" {
		if primary {
			name = t.Name + "_pkey"
		} else {
			name = t.Name + "_" + strings.Join(cols, "_") + "_key"
		}
	}
	if primary {
		t.Keys = slices.DeleteFunc(t.Keys, func(k Key) bool { return k.Primary })
	}
	t.Keys = append(t.Keys, Key{Name: name, Columns: cols, Primary: primary, Partial: partial, At: d.pos(at)})
	return &t.Keys[len(t.Keys)-1]
}

// adoptIndex makes the unique index idx a constraint of t (ADD CONSTRAINT c UNIQUE USING
// INDEX idx): the same key under the constraint's name.
func (d *ddl) adoptIndex(t *Table, idx, cname string) {
	for i := range t.Keys {
		if t.Keys[i].Name == idx && cname != "" {
			t.Keys[i].Name, t.Keys[i].Index = cname, false
			delete(d.s.indexes, idx)
		}
	}
}

func (d *ddl) dropKey(table, name string) {
	t := d.s.tables[table]
	if t == nil || name == "" {
		return
	}
	t.Keys = slices.DeleteFunc(t.Keys, func(k Key) bool { return k.Name == name })
	delete(d.s.indexes, name)
}

func (d *ddl) dropTable(name string) {
	delete(d.s.tables, name)
	for idx, t := range d.s.indexes {
		if t == name {
			delete(d.s.indexes, idx)
		}
	}
}

func (d *ddl) renameTable(old, nw string) {
	t := d.s.tables[old]
	if t == nil || nw == "" {
		return
	}
	delete(d.s.tables, old)
	t.Name = nw
	d.s.tables[nw] = t
	for idx, tn := range d.s.indexes {
		if tn == old {
			d.s.indexes[idx] = nw
		}
	}
}

func (d *ddl) renameIndex(old, nw string) {
	tn, ok := d.s.indexes[old]
	if !ok || nw == "" {
		return
	}
	delete(d.s.indexes, old)
	d.s.indexes[nw] = tn
	if t := d.s.tables[tn]; t != nil {
		for i := range t.Keys {
			if t.Keys[i].Name == old {
				t.Keys[i].Name = nw
			}
		}
	}
}

// upSection blanks, keeping every line where it was, the parts of a migration file that
// undo it: the down sections of goose (-- +goose Down), sql-migrate (-- +migrate Down) and
// dbmate (-- migrate:down), which may alternate with up sections, and what follows tern's
// "---- create above / drop below ----". In a file with an up marker, what comes before the
// first marker is no migration either.
func upSection(text string) string {
	lower := asciiLower(text)
	ups := []string{"-- +goose up", "-- +migrate up", "-- migrate:up"}
	downs := []string{"-- +goose down", "-- +migrate down", "-- migrate:down", "---- create above / drop below ----"}
	keep := true
	for _, u := range ups {
		if strings.Contains(lower, u) {
			keep = false
		}
	}
	return blankLines(text, func(line string) bool {
		for _, u := range ups {
			if strings.HasPrefix(line, u) {
				keep = true
			}
		}
		for _, d := range downs {
			if strings.HasPrefix(line, d) {
				keep = false
			}
		}
		return !keep
	})
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
