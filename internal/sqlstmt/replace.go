package sqlstmt

import (
	"strconv"
	"strings"
)

// The delete-then-insert "replace" pattern: a handler deletes the job's rows and inserts
// them again in one transaction (DELETE FROM lines WHERE order_id = $1; INSERT INTO lines
// (order_id, sku) VALUES ($1, $2)). A repeat deletes what the first run inserted and
// inserts it again: the state converges. DeleteKeys and InsertBinds read the two
// statements; the analyzer checks that they run on one transaction, the DELETE first, and
// that each key column the DELETE selects by is bound to the same value in the INSERT.

// ColumnParam is a column and the placeholder bound to it: $N, or the N-th ? of the text.
type ColumnParam struct {
	Column string
	Param  int
}

// DeleteKeys reads DELETE FROM table WHERE c1 = p1 [AND c2 = p2 ...], every pi a
// placeholder ($N or ?), nothing after the condition but RETURNING: the table as written
// (without quotes; qualified names keep their dots) and the key columns with their
// placeholders. ok is false for any other text: a condition with OR, another comparison, a
// literal, a Hole, several statements.
func DeleteKeys(text string) (table string, keys []ColumnParam, ok bool) {
	c, n, ok := single(text)
	if !ok || !c.kw(0, n, "DELETE") || !c.kw(1, n, "FROM") {
		return "", nil, false
	}
	tgt, j := c.target(2, n)
	if tgt.name == "" || tgt.hole || !c.kw(j, n, "WHERE") {
		return "", nil, false
	}
	table = c.s[tgt.span[0]:tgt.span[1]]
	q := c.paramsBefore(j)
	for j++; j < n; {
		col, _ := c.column(j, n)
		if col < 0 || !c.op(col+1, n, "=") || col+2 >= n || c.toks[col+2].kind != tParam {
			return "", nil, false
		}
		p := c.paramNumber(col+2, &q)
		if p == 0 {
			return "", nil, false
		}
		keys = append(keys, ColumnParam{Column: c.name(col), Param: p})
		j = col + 3
		switch {
		case j == n, c.kw(j, n, "RETURNING"):
			return unquote(table), keys, true
		case c.kw(j, n, "AND"):
			j++
		default:
			return "", nil, false
		}
	}
	return "", nil, false
}

// InsertBinds reads INSERT INTO table (c1, ...) VALUES (v1, ...), one row, and returns the
// table as DeleteKeys writes it and the columns bound to a placeholder, with it.
func InsertBinds(text string) (table string, binds []ColumnParam, ok bool) {
	row, ok := insertRow(text)
	if !ok {
		return "", nil, false
	}
	c := row.c
	q := c.paramsBefore(row.first)
	for i := range row.n {
		col, v := row.names[i], row.values[i]
		if v[1]-v[0] != 1 || c.toks[v[0]].kind != tParam {
			c.countParams(v[0], v[1], &q)
			continue
		}
		if p := c.paramNumber(v[0], &q); p > 0 && col[1]-col[0] == 1 && c.isName(col[0], row.end) {
			binds = append(binds, ColumnParam{Column: c.name(col[0]), Param: p})
		}
	}
	return row.table, binds, true
}

// InsertClocked returns the columns of a one-row INSERT (as InsertBinds reads it) whose
// value is the time of the insert: now(), CURRENT_TIMESTAMP, clock_timestamp(),
// LOCALTIMESTAMP, in lower case.
func InsertClocked(text string) []string {
	row, ok := insertRow(text)
	if !ok {
		return nil
	}
	c := row.c
	var out []string
	for i := range row.n {
		col, v := row.names[i], row.values[i]
		if col[1]-col[0] != 1 || !c.isName(col[0], row.end) {
			continue
		}
		switch strings.ToLower(strings.Join(strings.Fields(c.s[c.toks[v[0]].start:c.toks[v[1]-1].end]), "")) {
		case "now()", "current_timestamp", "clock_timestamp()", "localtimestamp":
			out = append(out, strings.ToLower(c.name(col[0])))
		}
	}
	return out
}

// insertedRow is the one row an INSERT gives: its columns' and values' token spans, as
// many of each (n), where the values start (first), and the statement's token count (end).
type insertedRow struct {
	c             *cursor
	table         string
	names, values [maxItems][2]int
	n, first, end int
}

// insertRow reads INSERT INTO table (c1, ...) VALUES (v1, ...), or SELECT v1, ... (the
// select list of INSERT ... SELECT $1, u.sku FROM unnest(...), whose items are the columns'
// values in order).
func insertRow(text string) (row insertedRow, ok bool) {
	c, n, ok := single(text)
	if !ok || !c.kw(0, n, "INSERT") || !c.kw(1, n, "INTO") {
		return row, false
	}
	tgt, j := c.target(2, n)
	if tgt.name == "" || tgt.hole || !c.is(j, n, '(') {
		return row, false
	}
	row.c, row.end = c, n
	row.table = unquote(c.s[tgt.span[0]:tgt.span[1]])
	ins := inserts{c}
	cols := j
	colsEnd := c.close(cols, n)
	src := colsEnd + 1
	var rowEnd int
	switch {
	case c.kw(src, n, "VALUES") && c.is(src+1, n, '('):
		row.first, rowEnd = src+2, c.close(src+1, n)
	case c.kw(src, n, "SELECT") && !c.kw(src+1, n, "DISTINCT"):
		row.first, rowEnd = src+1, c.findOr(src+1, n, "FROM", "WHERE", "UNION", "ON", "RETURNING")
	default:
		return row, false
	}
	nn := ins.items(cols+1, colsEnd, &row.names)
	nv := ins.items(row.first, rowEnd, &row.values)
	if nn <= 0 || nv != nn {
		return row, false
	}
	row.n = nn
	return row, true
}

// single tokenizes text, which must be one statement (a trailing ';' allowed) with no
// Hole, and returns its cursor and token count.
func single(text string) (*cursor, int, bool) {
	if strings.Contains(text, Hole) || uint64(len(text)) >= 1<<32 {
		return nil, 0, false
	}
	c := &cursor{s: text, toks: tokenize(text, nil)}
	n := len(c.toks)
	if n > 0 && c.is(n-1, n, ';') {
		n--
	}
	for i := range n {
		if c.is(i, n, ';') {
			return nil, 0, false
		}
	}
	return c, n, n > 0
}

// paramsBefore counts the ? placeholders before token i.
func (cur *cursor) paramsBefore(i int) int {
	q := 0
	cur.countParams(0, i, &q)
	return q
}

// countParams adds the ? placeholders in [from, to) to q.
func (cur *cursor) countParams(from, to int, q *int) {
	for k := from; k < to && k < len(cur.toks); k++ {
		if cur.toks[k].kind == tParam && cur.text(k) == "?" {
			*q++
		}
	}
}

// paramNumber returns the number of the placeholder at i ($N: N; ?: the next ordinal,
// counting q), or 0 for a named one.
func (cur *cursor) paramNumber(i int, q *int) int {
	t := cur.text(i)
	if t == "?" {
		*q++
		return *q
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(t, "$")); err == nil && strings.HasPrefix(t, "$") && n > 0 {
		return n
	}
	return 0
}

// unquote drops the quotes of a written table name: "audit"."log" is audit.log.
func unquote(name string) string {
	return strings.NewReplacer(`"`, "", "`", "", "[", "", "]", "").Replace(name)
}
