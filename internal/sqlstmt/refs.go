package sqlstmt

// setCtx says which column references in an assignment list mean the row being updated.
type setCtx struct {
	tgt target
	// excl is the qualifier of the proposed row (PostgreSQL "excluded", a MySQL row
	// alias): its columns are new values, not the stored ones.
	excl string
	// anyQual: every other qualifier names the target (upsert branches see only the
	// target and the proposed row). Otherwise a qualifier must name the target or its
	// alias, since UPDATE ... FROM and MERGE ... USING bring other tables in.
	anyQual bool
	// valuesFn: VALUES(col) is MySQL's proposed value, not a reference to col.
	valuesFn bool
}

// columnRefs finds where an expression reads a column of the row being written, and
// whether such a read makes the assignment relative. It is apart from assignments because
// it reads expressions (qualifiers, subqueries, function calls, casts) while assignments
// reads lists and conditions.
type columnRefs struct{ *cursor }

// maxTuple bounds how many columns of a tuple assignment "(a, b, ...) = ..." are checked,
// keeping the cost linear on hostile input.
const maxTuple = 64

// selfRef returns the LHS column of the assignment [from, end) (with '=' at eq) if the
// right side reads it, or -1.
func (r columnRefs) selfRef(from, eq, end int, c *setCtx) int {
	lf, lt := r.lhsRange(from, eq)
	for k, n := lf, 0; k < lt && n < maxTuple; k, n = r.itemEnd(k, lt)+1, n+1 {
		col, qual := r.column(k, lt)
		if col < 0 {
			continue
		}
		qn := ""
		if qual >= 0 {
			qn = r.name(qual)
		}
		if r.refers(eq+1, end, r.name(col), qn, c) {
			return col
		}
	}
	return -1
}

// refers reports whether the expression [from, to) reads column col of the target.
// lhsQual is the qualifier the assignment used for col, which also names the target. A
// reference that is the whole expression (col = col), or a whole argument of an
// idempotent function that is the whole expression (COALESCE(col, $1), GREATEST(col, $1)),
// or a CASE that is the whole expression and keeps the column or tests it for NULL
// (keptByCase), does not count: applying such an expression twice gives the same value.
func (r columnRefs) refers(from, to int, col, lhsQual string, c *setCtx) bool {
	found := false
	r.refs(from, to, c, lhsQual, func(start, end, depth int) bool {
		found = eqFold(r.name(end), col) && !r.wrapped(start, end, depth, from, to) && !r.objectMerge(start, end, from, to) &&
			!r.keptByCase(start, end, depth, from, to)
		return found
	})
	return found && !r.setAddCase(from, to) && !r.uniformCase(from, to, col, lhsQual, c)
}

// uniformCase reports whether the expression [from, to) is a CASE whose results are each
// the column itself or one and the same other expression g that is idempotent on its own (a
// value, COALESCE($1, col), a JSON object merge), whatever its conditions test: the
// fill-if-empty idiom, THEN COALESCE($2, col) ELSE col END under a test that the column is
// blank. A first run that keeps the column leaves the same input to the second; one that
// writes g(col) leaves a value that either branch maps to itself, since g(g(col)) is
// g(col). Two different results (WHEN col = 'a' THEN 'b' WHEN col = 'b' THEN 'c') can move
// the value on again. A CASE in a result is not looked into.
func (r columnRefs) uniformCase(from, to int, col, lhsQual string, c *setCtx) bool {
	if !r.kw(from, to, "CASE") || !r.kw(to-1, to, "END") {
		return false
	}
	set := [2]int{-1, -1}
	result := func(a, b int) bool {
		if a >= b || r.keeps(a, b, col, lhsQual, c) {
			return a < b
		}
		if r.kw(a, b, "CASE") || r.refers(a, b, col, lhsQual, c) {
			return false
		}
		if set[0] < 0 {
			set = [2]int{a, b}
			return true
		}
		return r.sameTokens(set[0], set[1], a, b)
	}
	depth, start := 0, -1
	for i := from + 1; i < to-1; i++ {
		switch {
		case r.is(i, to, '(') || r.kw(i, to, "CASE"):
			depth++
		case r.is(i, to, ')') || r.kw(i, to, "END"):
			depth--
		case depth != 0:
		case r.kw(i, to, "WHEN") || r.kw(i, to, "ELSE"):
			if start >= 0 && !result(start, i) {
				return false
			}
			start = -1
			if r.kw(i, to, "ELSE") {
				start = i + 1
			}
		case r.kw(i, to, "THEN"):
			start = i + 1
		}
	}
	return start >= 0 && result(start, to-1)
}

// keeps reports whether [a, b) is the column itself, qualified by the target or not.
func (r columnRefs) keeps(a, b int, col, lhsQual string, c *setCtx) bool {
	if b == a+1 {
		return r.isName(a, b) && eqFold(r.name(a), col)
	}
	return b == a+3 && r.is(a+1, b, '.') && r.isName(a+2, b) && eqFold(r.name(a+2), col) && r.qualIsTarget(a, lhsQual, c)
}

// sameTokens reports whether [a, b) and [x, y) are the same tokens.
func (r columnRefs) sameTokens(a, b, x, y int) bool {
	if b-a != y-x {
		return false
	}
	for k := 0; k < b-a; k++ {
		if r.toks[a+k].kind != r.toks[x+k].kind || !eqFold(r.text(a+k), r.text(x+k)) {
			return false
		}
	}
	return true
}

// setAddCase reports whether the expression [from, to) is the set-add idiom on an array
// column: CASE WHEN v = ANY(col) THEN col ELSE array_append(col, v) END, one WHEN testing
// membership with = ANY and an ELSE that is one array_append call. A repeat finds the value
// in the array and keeps it. That the value tested is the value appended is not checked.
func (r columnRefs) setAddCase(from, to int) bool {
	if !r.kw(from, to, "CASE") || !r.kw(to-1, to, "END") {
		return false
	}
	whens, member, elseAt, depth := 0, false, -1, 0
	for i := from + 1; i < to-1; i++ {
		switch {
		case r.is(i, to, '('):
			depth++
		case r.is(i, to, ')'):
			depth--
		case depth != 0:
		case r.kw(i, to, "WHEN"):
			whens++
		case r.kw(i, to, "ANY") && r.op(i-1, to, "=") && r.is(i+1, to, '(') && elseAt < 0:
			member = true
		case r.kw(i, to, "ELSE"):
			elseAt = i
		}
	}
	return whens == 1 && member && elseAt > 0 && r.kw(elseAt+1, to, "ARRAY_APPEND") && r.is(elseAt+2, to, '(') &&
		r.close(elseAt+2, to) == to-2
}

// refs calls fn with the first and last token and the parenthesis depth of every column
// reference in [from, to) that may mean the target's column, until fn returns true. Function names, type names
// after "::", columns of other tables, and unqualified names inside subqueries (which
// belong to the subquery's own tables) are not references.
func (r columnRefs) refs(from, to int, c *setCtx, lhsQual string, fn func(start, end, depth int) bool) {
	subEnd := -1
	depth := 0
	for i := from; i < to; i++ {
		if subEnd >= 0 && i >= subEnd {
			subEnd = -1
		}
		switch {
		case subEnd < 0 && r.isSubquery(i, to):
			subEnd = r.close(i, to)
			depth++
			continue
		case r.is(i, to, '('):
			depth++
			continue
		case r.is(i, to, ')'):
			depth--
			continue
		case c.valuesFn && r.kw(i, to, "VALUES") && r.is(i+1, to, '('):
			i = r.close(i+1, to)
			continue
		case !r.isName(i, to) && !r.isHole(i, to):
			continue
		}
		start, end := i, i
		for r.is(end+1, to, '.') && (r.isName(end+2, to) || r.isHole(end+2, to)) {
			end += 2
		}
		i = end
		if r.is(end+1, to, '(') || r.op(start-1, to, "::") || r.isHole(end, to) {
			continue
		}
		if end > start {
			if !r.qualIsTarget(end-2, lhsQual, c) {
				continue
			}
		} else if subEnd >= 0 {
			continue
		}
		if fn(start, end, depth) {
			return
		}
	}
}

func (r columnRefs) qualIsTarget(q int, lhsQual string, c *setCtx) bool {
	if r.isHole(q, len(r.toks)) {
		return c.anyQual || c.tgt.hole
	}
	qn := r.name(q)
	if c.excl != "" && eqFold(qn, c.excl) {
		return false
	}
	if c.anyQual || c.tgt.hole {
		return true
	}
	return eqFold(qn, c.tgt.name) || c.tgt.alias != "" && eqFold(qn, c.tgt.alias) ||
		lhsQual != "" && eqFold(qn, lhsQual)
}

// wrapped reports whether the reference [start, end] at depth is a whole expression
// [from, to) or a whole top-level argument of an idempotent function call that is the
// whole expression; see refers.
func (r columnRefs) wrapped(start, end, depth, from, to int) bool {
	if start == from && end == to-1 {
		return true // col = col
	}
	if depth != 1 || !(r.toks[from].kind == tWord && isIdempotentFn(r.text(from)) &&
		r.is(from+1, to, '(') && r.close(from+1, to) == to-1) {
		return false
	}
	return (start-1 == from+1 || r.is(start-1, to, ',')) && (end+1 == to-1 || r.is(end+1, to, ','))
}

// keptByCase reports whether the reference [start, end] is, in a CASE expression that is
// the whole expression [from, to), a result that keeps the column (THEN col, ELSE col) or a
// NULL test of it (WHEN col IS NULL, col IS NOT NULL): the set-once pattern "CASE WHEN col
// IS NULL THEN now() ELSE col END" (COALESCE written out), or keeping a value a first run
// set ("WHEN state IN (...) AND col IS NOT NULL THEN col"), or a result that is an
// idempotent function of it ("THEN COALESCE(col, now())"). A repeat keeps what the first
// run wrote. Any other test of the column in a condition (WHEN col = 'a' THEN 'b') can move
// the value on again, and counts.
func (r columnRefs) keptByCase(start, end, depth, from, to int) bool {
	if !r.kw(from, to, "CASE") || !r.kw(to-1, to, "END") {
		return false
	}
	result := func(first, last int) bool { // [first, last] is a whole THEN or ELSE result
		return (r.kw(first-1, to, "THEN") || r.kw(first-1, to, "ELSE")) &&
			(r.kw(last+1, to, "WHEN") || r.kw(last+1, to, "ELSE") || r.kw(last+1, to, "END"))
	}
	if depth == 1 {
		// THEN COALESCE(col, now()): a result that is an idempotent function of the column
		// (the column a whole argument) keeps what the first run wrote, as COALESCE alone does.
		if !r.is(start-1, to, ',') && !r.is(start-1, to, '(') {
			return false
		}
		open := start - 1
		for d := 0; open > from; open-- {
			if r.is(open, to, ')') {
				d++
			} else if r.is(open, to, '(') {
				if d == 0 {
					break
				}
				d--
			}
		}
		closing := r.close(open, to)
		return open > from+1 && r.toks[open-1].kind == tWord && isIdempotentFn(r.text(open-1)) &&
			(r.is(end+1, to, ',') || end+1 == closing) && result(open-1, closing)
	}
	if depth != 0 {
		return false
	}
	if result(start, end) {
		return true
	}
	return r.kw(end+1, to, "IS") && (r.kw(end+2, to, "NULL") || r.kw(end+2, to, "NOT") && r.kw(end+3, to, "NULL"))
}

// objectMerge reports whether the reference [start, end] is the column of a JSON object
// merge that is the whole expression [from, to): COALESCE(col, '{}') || v, the empty
// object cast or not. An object merge sets v's keys, so merging v again changes nothing;
// without the '{}' the column could hold an array or text, which || appends to.
func (r columnRefs) objectMerge(start, end, from, to int) bool {
	if !(r.kw(from, to, "COALESCE") && r.is(from+1, to, '(') && start == from+2 && r.is(end+1, to, ',')) {
		return false
	}
	lit := end + 2
	if lit >= to || r.toks[lit].kind != tString || r.text(lit) != "'{}'" {
		return false
	}
	k := lit + 1
	if r.op(k, to, "::") && (r.kw(k+1, to, "JSONB") || r.kw(k+1, to, "JSON")) {
		k += 2
	}
	closing := r.close(from+1, to)
	return k == closing && r.op(closing+1, to, "||") && closing+2 < to
}

// isIdempotentFn: f(f(x, v), v) == f(x, v) for these, so col = f(col, v) converges: setting
// one key or path of a JSON document to a value (jsonb_set, MySQL's and SQLite's JSON_SET
// and JSON_REPLACE) and removing an element from an array (array_remove) too, while the
// value does not read the column (then the column is not only a whole argument, and counts).
// Inserting into a JSON array (jsonb_insert) or appending (array_append) does not converge.
func isIdempotentFn(w string) bool {
	return eqFold(w, "COALESCE") || eqFold(w, "GREATEST") || eqFold(w, "LEAST") || eqFold(w, "IFNULL") ||
		eqFold(w, "NVL") || eqFold(w, "ISNULL") || eqFold(w, "MAX") || eqFold(w, "MIN") ||
		eqFold(w, "JSONB_SET") || eqFold(w, "JSONB_SET_LAX") || eqFold(w, "JSON_SET") || eqFold(w, "JSON_REPLACE") ||
		eqFold(w, "ARRAY_REMOVE")
}
