package sqlstmt

import "strings"

// ColumnConstant is a column an UPDATE sets to a constant.
type ColumnConstant struct {
	Column string // in lower case, without quotes or a table's name
	Value  string // the constant as written: a string literal with its quotes, a number, TRUE or FALSE
}

// SetConstants reads UPDATE [ONLY] table ... SET c = <constant>, ... WHERE ...: the
// assignments of a constant (a string or numeric literal, TRUE, FALSE); the others (c = $1,
// c = now(), c = c + 1) are left out. ok is false for any other text, and for text not known
// (a Hole).
func SetConstants(text string) (sets []ColumnConstant, ok bool) {
	c, n, ok := single(text)
	if !ok || !c.kw(0, n, "UPDATE") {
		return nil, false
	}
	set := c.find(1, n, "SET")
	if set < 0 {
		return nil, false
	}
	end := c.findOr(set+1, n, "FROM", "WHERE", "RETURNING")
	for it := set + 1; it < end; {
		to := c.itemEnd(it, end)
		if eq := c.eqAt(it, to); eq > it && eq+2 == to {
			if col, _ := c.column(it, eq); col >= 0 && col+1 == eq {
				if v, ok := c.constant(eq + 1); ok {
					sets = append(sets, ColumnConstant{Column: strings.ToLower(c.name(col)), Value: v})
				}
			}
		}
		it = to + 1
	}
	return sets, true
}

// ConstantTests reads a condition (the text after WHERE) and returns, in lower case, the
// columns its top-level conjuncts compare with constants: c = 'pending', c <> 1, c IN ('a',
// 'b'), c NOT IN (...). ok is false for a condition with an OR at its top level, and for text
// not known.
func ConstantTests(cond string) (cols []string, ok bool) {
	c, n, ok := single(cond)
	if !ok || c.find(0, n, "OR") >= 0 {
		return nil, false
	}
	for from := 0; from < n; {
		to := c.findOr(from, n, "AND")
		lo, hi := from, to
		if c.is(lo, hi, '(') && c.close(lo, hi) == hi-1 {
			lo, hi = lo+1, hi-1 // (status = 'pending'): one conjunct in parentheses
		}
		if col, _ := c.column(lo, hi); col >= 0 && c.constantTest(col+1, hi) {
			cols = append(cols, strings.ToLower(c.name(col)))
		}
		from = to + 1
	}
	return cols, true
}

// constant returns the constant token i is, as written (TRUE and FALSE in upper case).
func (cur *cursor) constant(i int) (string, bool) {
	switch {
	case cur.toks[i].kind == tString, cur.toks[i].kind == tNumber:
		return cur.text(i), true
	case cur.kw(i, i+1, "TRUE"), cur.kw(i, i+1, "FALSE"):
		return strings.ToUpper(cur.text(i)), true
	}
	return "", false
}

// constantTest reports whether [from, to) compares the column before it with constants:
// = k, <> k, != k, IN (k, ...), NOT IN (k, ...).
func (cur *cursor) constantTest(from, to int) bool {
	switch {
	case cur.op(from, to, "=") || cur.op(from, to, "<>") || cur.op(from, to, "!="):
		_, ok := cur.constant(from + 1)
		return ok && from+2 == to
	case cur.kw(from, to, "NOT") && cur.kw(from+1, to, "IN"):
		return cur.constantList(from+2, to)
	case cur.kw(from, to, "IN"):
		return cur.constantList(from+1, to)
	}
	return false
}

// constantList reports whether [from, to) is a parenthesized list of constants.
func (cur *cursor) constantList(from, to int) bool {
	if !cur.is(from, to, '(') || cur.close(from, to) != to-1 || from+1 == to-1 {
		return false
	}
	for i := from + 1; i < to-1; i++ {
		if _, ok := cur.constant(i); !ok {
			return false
		}
		if i+1 < to-1 && !cur.is(i+1, to-1, ',') {
			return false
		}
		i++
	}
	return true
}
