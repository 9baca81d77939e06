package sqlstmt

import "strings"

// WhereEquals reads the condition of UPDATE [ONLY] table ... WHERE ... or DELETE FROM table
// WHERE ...: the table as written (without quotes) and the columns the condition fixes,
// each compared with = to one value (c = $1, c = 'pending', t.c = ?) in a conjunction at
// its top level; other conjuncts (IN, <, an expression) are left out, since they only
// narrow the rows. ok is false for a parenthesized conjunct, for any other text, a condition with an OR at its top
// level, or a statement without a WHERE: the rows it picks are then not known to be few.
func WhereEquals(text string) (table string, cols []string, ok bool) {
	c, n, ok := single(text)
	if !ok {
		return "", nil, false
	}
	j := 0
	switch {
	case c.kw(0, n, "UPDATE"):
		j = 1
		if c.kw(j, n, "ONLY") {
			j++
		}
	case c.kw(0, n, "DELETE") && c.kw(1, n, "FROM"):
		j = 2
	default:
		return "", nil, false
	}
	tgt, j := c.target(j, n)
	if tgt.name == "" || tgt.hole {
		return "", nil, false
	}
	table = unquote(c.s[tgt.span[0]:tgt.span[1]])
	w := c.find(j, n, "WHERE")
	if w < 0 {
		return "", nil, false
	}
	end := n
	if r := c.find(w+1, n, "RETURNING"); r >= 0 {
		end = r
	}
	if c.find(w+1, end, "OR") >= 0 {
		return "", nil, false
	}
	for from := w + 1; from < end; {
		to := c.find(from, end, "AND")
		if to < 0 {
			to = end
		} else if b := c.find(from, to, "BETWEEN"); b >= 0 {
			// x BETWEEN a AND b: its AND is part of the comparison.
			if next := c.find(to+1, end, "AND"); next >= 0 {
				to = next
			} else {
				to = end
			}
		}
		if c.is(from, to, '(') {
			return "", nil, false // a group, which may fix a column too: not read
		}
		col, _ := c.column(from, to)
		if col >= 0 && c.op(col+1, to, "=") && col+2 < to && col+3 == to {
			cols = append(cols, c.name(col))
		}
		from = to + 1
	}
	return table, cols, true
}

// NullTests reads a partial index's predicate that is only a conjunction of IS NULL tests of
// columns (deleted_at IS NULL AND archived_at IS NULL, each or all parenthesized or not)
// and returns the columns, in lower case. ok is false for any other predicate (status =
// 'pending').
func NullTests(pred string) (cols []string, ok bool) {
	c, n, ok := single(pred)
	if !ok {
		return nil, false
	}
	cols, ok = c.nullTests(0, n, nil)
	return cols, ok && len(cols) > 0
}

// nullTests appends to cols the columns of the IS NULL conjuncts of [from, to); ok is false
// when a conjunct is anything else.
func (cur *cursor) nullTests(from, to int, cols []string) ([]string, bool) {
	for from < to && cur.is(from, to, '(') && cur.close(from, to) == to-1 {
		from, to = from+1, to-1
	}
	for from < to {
		end := cur.findOr(from, to, "AND")
		switch {
		case cur.is(from, end, '(') && cur.close(from, end) == end-1:
			var ok bool
			if cols, ok = cur.nullTests(from, end, cols); !ok {
				return nil, false
			}
		case end-from == 3 && cur.isName(from, end) && cur.kw(from+1, end, "IS") && cur.kw(from+2, end, "NULL"):
			cols = append(cols, strings.ToLower(cur.name(from)))
		default:
			return nil, false
		}
		if end < to && end+1 >= to {
			return nil, false // a trailing AND
		}
		from = end + 1
	}
	return cols, true
}
