package sqlstmt

import "strings"

// ColumnTest is one conjunct of a lookup's condition that fixes a column: c = ?, c = $2,
// c = 'pending', c IN ?, c IN (0, 1).
type ColumnTest struct {
	Column string // in lower case, without quotes or a table's name
	// Param is the placeholder the column is compared with ($N: N; ?: its ordinal in the
	// text), 0 when it is compared with constants.
	Param int
	// Values are the constants, as written (a string literal with its quotes, a number, TRUE
	// or FALSE): one for =, the list's for IN (...). None when Param is set.
	Values []string
	In     bool // an IN test: the column is one of the values, or of the list bound to Param
}

// ColumnTests reads a lookup's condition (the text of a query builder's Where: "ant_id = ?
// AND mode = 2 AND status IN ?"), a conjunction of tests each of which fixes a column to a
// placeholder's value or to constants. ok is false when any conjunct is something else (an
// OR, a range, an expression, a group): a row that passes the tests read would then not be
// known to pass the condition.
func ColumnTests(cond string) (tests []ColumnTest, ok bool) {
	c, n, ok := single(cond)
	if !ok || c.find(0, n, "OR") >= 0 {
		return nil, false
	}
	q := 0
	for from := 0; from < n; {
		to := c.findOr(from, n, "AND")
		col, _ := c.column(from, to)
		if col < 0 || col+2 > to {
			return nil, false
		}
		t := ColumnTest{Column: strings.ToLower(c.name(col))}
		switch k := col + 1; {
		case c.op(k, to, "=") && k+2 == to:
			if !c.operand(k+1, &t, &q) {
				return nil, false
			}
		case c.kw(k, to, "IN") && k+2 == to && c.toks[k+1].kind == tParam:
			t.In = true
			if !c.operand(k+1, &t, &q) {
				return nil, false
			}
		case c.kw(k, to, "IN") && c.is(k+1, to, '(') && c.close(k+1, to) == to-1:
			t.In = true
			if to-k == 4 && c.toks[k+2].kind == tParam { // IN (?), the list bound
				if !c.operand(k+2, &t, &q) {
					return nil, false
				}
				break
			}
			if !c.constantList(k+1, to) {
				return nil, false
			}
			for i := k + 2; i < to-1; i += 2 {
				v, _ := c.constant(i)
				t.Values = append(t.Values, v)
			}
		default:
			return nil, false
		}
		tests = append(tests, t)
		from = to + 1
	}
	return tests, len(tests) > 0
}

// operand reads token i, the right side of a column's test, into t: a placeholder (counting
// the ? ones in q) or a constant. false for anything else.
func (cur *cursor) operand(i int, t *ColumnTest, q *int) bool {
	if cur.toks[i].kind == tParam {
		t.Param = cur.paramNumber(i, q)
		return t.Param > 0
	}
	v, ok := cur.constant(i)
	if ok {
		t.Values = []string{v}
	}
	return ok
}
