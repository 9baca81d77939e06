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
		return Result{Class: Converging, Reason: "conditional state transition"}
	}
	return Result{Class: Converging, Reason: "absolute UPDATE"}
}

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
