package sqlstmt

// updates classifies the statements that overwrite matched rows through a SET list:
// UPDATE (absolute, relative, or a conditional state transition) and MERGE (guarded by its
// match condition unless a WHEN MATCHED branch updates relatively). Both name a target
// with an optional alias the same way, which the assignments need to tell the target's
// columns from another table's.
type updates struct{ *cursor }

// update classifies UPDATE: absolute, relative, or a conditional state transition.
func (u updates) update(i, to int) Result {
	j := i + 1
	for {
		switch {
		case u.kw(j, to, "ONLY"), u.kw(j, to, "LOW_PRIORITY"), u.kw(j, to, "IGNORE"):
			j++
			continue
		case u.kw(j, to, "OR"): // SQLite UPDATE OR IGNORE
			j += 2
			continue
		}
		break
	}
	tgt, j := u.target(j, to)
	if u.op(j, to, "*") { // PostgreSQL: UPDATE t * (with descendant tables)
		j++
	}
	if u.kw(j, to, "AS") {
		j++
	}
	if u.isName(j, to) && !u.isClauseWord(j, to) {
		tgt.alias = u.name(j)
	}
	set := u.find(j, to, "SET")
	if set < 0 {
		if u.hasHole(i, to) {
			return Result{Class: Unknown, Reason: "SET list not known (text built at run time)"}
		}
		return Result{Class: Unknown, Reason: reasonNotUnders}
	}
	listEnd := u.findOr(set+1, to, "FROM", "WHERE", "RETURNING", "ORDER", "LIMIT", "OUTPUT")
	wFrom, wTo := -1, -1
	if w := u.find(listEnd, to, "WHERE"); w >= 0 {
		wFrom = w + 1
		wTo = u.findOr(wFrom, to, "RETURNING", "ORDER", "LIMIT")
	}
	c := setCtx{tgt: tgt}
	v, col := assignments{u.cursor}.judgeSet(set+1, listEnd, wFrom, wTo, &c)
	if (v == setAbsolute || v == setRelative) && u.kw(listEnd, to, "FROM") && u.selectedBy(listEnd+1, wFrom, wTo, set+1, &c) {
		v = setAbsoluteConditional
	}
	if (v == setAbsolute || v == setRelative) && u.selectedIn(wFrom, wTo, set+1, listEnd, &c) {
		v = setAbsoluteConditional
	}
	switch v {
	case setUnknown:
		return Result{Class: Unknown, Reason: "SET list not known (text built at run time)"}
	case setEmpty:
		return Result{Class: Unknown, Reason: reasonNotUnders}
	case setRelative:
		return Result{Class: NonIdempotent, Reason: "relative UPDATE of " + u.name(col)}
	case setCondHole:
		return Result{Class: Unknown, Reason: "update condition not known (text built at run time)"}
	case setRelativeConditional, setAbsoluteConditional:
		return Result{Class: Converging, Reason: reasonTransition}
	}
	return Result{Class: Converging, Reason: "absolute UPDATE"}
}

// reasonTransition is the reason of an UPDATE whose first run makes its condition false.
const reasonTransition = "conditional state transition"

// merge: MERGE is guarded by its match condition, unless a WHEN MATCHED branch applies a
// relative update, which a repeat applies again.
func (u updates) merge(i, to int) Result {
	j := i + 1
	if u.kw(j, to, "INTO") {
		j++
	}
	tgt, j := u.target(j, to)
	if u.kw(j, to, "AS") {
		j++
	}
	if u.isName(j, to) && !u.isClauseWord(j, to) {
		tgt.alias = u.name(j)
	}
	res := Result{Class: Guarded, Reason: "MERGE"}
	for k := u.find(j, to, "WHEN"); k >= 0; k = u.find(k+1, to, "WHEN") {
		then := u.find(k+1, u.findOr(k+1, to, "WHEN"), "THEN")
		if then < 0 {
			continue
		}
		cFrom, cTo := -1, -1
		if and := u.find(k+1, then, "AND"); and >= 0 {
			cFrom, cTo = and+1, then
		}
		if u.isHole(then+1, to) {
			res = worse(res, Result{Class: Unknown, Reason: "MERGE action not known (text built at run time)"})
			continue
		}
		if !u.kw(then+1, to, "UPDATE") || !u.kw(then+2, to, "SET") {
			continue
		}
		from := then + 3
		c := setCtx{tgt: tgt}
		v, col := assignments{u.cursor}.judgeSet(from, u.findOr(from, to, "WHEN", "WHERE", "DELETE"), cFrom, cTo, &c)
		switch v {
		case setUnknown:
			res = worse(res, Result{Class: Unknown, Reason: "MERGE update not known (text built at run time)"})
		case setRelative:
			res = worse(res, Result{Class: NonIdempotent, Reason: "MERGE with relative update of " + u.name(col)})
		case setCondHole:
			res = worse(res, Result{Class: Unknown, Reason: "MERGE condition not known (text built at run time)"})
		}
	}
	return res
}

// isClauseWord: words that can follow an UPDATE or MERGE target where an alias could be.
func (u updates) isClauseWord(j, to int) bool {
	for _, k := range [...]string{"SET", "JOIN", "INNER", "LEFT", "RIGHT", "CROSS", "STRAIGHT_JOIN", "NATURAL",
		"FULL", "USE", "FORCE", "IGNORE", "PARTITION", "USING", "WITH", "FROM"} {
		if u.kw(j, to, k) {
			return true
		}
	}
	return false
}

// selectedBy reports whether the UPDATE joins a CTE of its WITH list that selects the rows
// it updates by a test the assignments make false: WITH due AS (SELECT id FROM t WHERE
// t.sent = false) UPDATE t SET sent = true FROM due WHERE t.id = due.id. The sweep's
// condition is the CTE's, and a repeat selects none of the rows the first run moved on.
// The FROM list starts at from (its end is the WHERE at wFrom, or RETURNING); the UPDATE's
// WHERE [wFrom, wTo) must join the CTE on a column of the same name (t.id = due.id), so
// that the rows it selects are the rows updated. A CTE's own references to the target are
// by the table's name or the alias the CTE gives it.
func (u updates) selectedBy(from, wFrom, wTo, setFrom int, set *setCtx) bool {
	if wFrom < 0 || u.nctes == 0 {
		return false
	}
	setTo := from - 1 // the FROM keyword ends the assignment list
	fromEnd := wFrom - 1
	for it, n := from, 0; it < fromEnd && n < maxTuple; it, n = u.itemEnd(it, fromEnd)+1, n+1 {
		if !u.isName(it, fromEnd) {
			continue
		}
		body, ok := u.cte(u.name(it))
		if !ok {
			continue
		}
		qual := u.name(it)
		k := it + 1
		if u.kw(k, fromEnd, "AS") {
			k++
		}
		if u.isName(k, fromEnd) && u.toks[k].kind == tWord && !u.isClauseWord(k, fromEnd) {
			qual = u.name(k)
		}
		if !u.joinedOnSameColumn(wFrom, wTo, qual, set) {
			continue
		}
		alias, cw, cwTo, ok := u.selection(body, set.tgt.name)
		if !ok {
			continue
		}
		cond := setCtx{tgt: target{name: set.tgt.name, alias: alias}}
		if ok, _ := (assignments{u.cursor}).constrains(cw, cwTo, setFrom, setTo, &cond, set); ok {
			return true
		}
	}
	return false
}

// selectedIn reports whether the UPDATE's condition [wFrom, wTo) selects its rows by a
// subquery of the same table whose test the assignments [setFrom, setTo) make false:
// UPDATE reminders SET status = 'fired' WHERE id IN (SELECT id FROM reminders WHERE status
// = 'scheduled' ... FOR UPDATE SKIP LOCKED). The column before IN and the one the subquery
// selects must have the same name, so that the rows it selects are the rows updated; a
// repeat's subquery selects none of the rows the first run moved on.
func (u updates) selectedIn(wFrom, wTo, setFrom, setTo int, set *setCtx) bool {
	if wFrom < 0 {
		return false
	}
	for i := wFrom + 1; i+3 < wTo; i++ {
		if !u.kw(i, wTo, "IN") || !u.is(i+1, wTo, '(') || !u.isName(i-1, wTo) {
			if u.is(i, wTo, '(') {
				i = u.close(i, wTo)
			}
			continue
		}
		open := i + 1
		end := u.close(open, wTo)
		col := open + 2 // SELECT id, or SELECT r.id
		if u.is(col+1, end, '.') {
			col += 2
		}
		if !u.kw(open+1, end, "SELECT") || !u.isName(col, end) || !eqFold(u.name(col), u.name(i-1)) || !u.kw(col+1, end, "FROM") {
			i = end
			continue
		}
		alias, cw, cwTo, ok := u.selection(cte{from: open + 1, to: end}, set.tgt.name)
		if !ok {
			i = end
			continue
		}
		cond := setCtx{tgt: target{name: set.tgt.name, alias: alias}}
		if ok, _ := (assignments{u.cursor}).constrains(cw, cwTo, setFrom, setTo, &cond, set); ok {
			return true
		}
		i = end
	}
	return false
}

// cte returns the body of the WITH-list entry named name in view, the latest first.
func (u updates) cte(name string) (cte, bool) {
	for i := u.nctes - 1; i >= 0; i-- {
		if eqFold(u.name(u.ctes[i].name), name) {
			return u.ctes[i], true
		}
	}
	return cte{}, false
}

// joinedOnSameColumn reports whether the condition [wFrom, wTo) holds a top-level
// equality of a target column and the same-named column of qual (t.id = due.id).
func (u updates) joinedOnSameColumn(wFrom, wTo int, qual string, set *setCtx) bool {
	side := func(i int) (q, col string, ok bool) {
		if !u.isName(i, wTo) || !u.is(i+1, wTo, '.') || !u.isName(i+2, wTo) {
			return "", "", false
		}
		return u.name(i), u.name(i + 2), true
	}
	isTarget := func(q string) bool {
		return eqFold(q, set.tgt.name) || set.tgt.alias != "" && eqFold(q, set.tgt.alias)
	}
	for i := wFrom; i+4 < wTo; i++ {
		if u.is(i, wTo, '(') {
			i = u.close(i, wTo)
			continue
		}
		lq, lc, ok1 := side(i)
		rq, rc, ok2 := side(i + 4)
		if !ok1 || !ok2 || !u.op(i+3, wTo, "=") || !eqFold(lc, rc) {
			continue
		}
		if isTarget(lq) && eqFold(rq, qual) || isTarget(rq) && eqFold(lq, qual) {
			return true
		}
	}
	return false
}

// selection reads a CTE body that selects rows of table: the alias it gives the table ("" for
// none) and its top-level WHERE [w, wTo). ok is false for a body that is not a SELECT, or
// does not read table in its FROM list, or has no WHERE.
func (u updates) selection(body cte, table string) (alias string, w, wTo int, ok bool) {
	if !u.kw(body.from, body.to, "SELECT") {
		return "", 0, 0, false
	}
	fromKw := u.find(body.from, body.to, "FROM")
	where := u.find(body.from, body.to, "WHERE")
	if fromKw < 0 || where < fromKw {
		return "", 0, 0, false
	}
	found := false
	for k := fromKw + 1; k < where && !found; k++ {
		if u.is(k, where, '(') {
			k = u.close(k, where)
			continue
		}
		if !u.isName(k, where) || !eqFold(u.name(k), table) || u.is(k+1, where, '.') {
			continue
		}
		start := k
		if u.is(k-1, where, '.') { // public.stories
			start = k - 2
		}
		if prev := start - 1; !(prev == fromKw || u.kw(prev, where, "JOIN") || u.is(prev, where, ',')) {
			continue
		}
		found = true
		a := k + 1
		if u.kw(a, where, "AS") {
			a++
		}
		if u.isName(a, where) && u.toks[a].kind == tWord && !u.isClauseWord(a, where) && !u.kw(a, where, "ON") {
			alias = u.name(a)
		}
	}
	if !found {
		return "", 0, 0, false
	}
	wTo = u.findOr(where+1, body.to, "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH", "FOR", "UNION", "EXCEPT", "INTERSECT")
	return alias, where + 1, wTo, true
}
