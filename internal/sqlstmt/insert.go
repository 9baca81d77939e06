package sqlstmt

import (
	"strconv"
	"strings"
)

// inserts classifies INSERT by its conflict handling: the dialects' modifiers (IGNORE, OR
// IGNORE), ON CONFLICT and ON DUPLICATE KEY UPDATE (whose update lists the assignments
// judge), and a NOT EXISTS guard in the inserting query. It also finds the placeholders an
// upsert binds to its conflict target, for the analyzer's check that the key is stable.
type inserts struct{ *cursor }

// insert classifies INSERT by its conflict handling.
func (ins inserts) insert(i, to int) Result {
	guard, j := ins.insertModifiers(i+1, to)
	if ins.kw(j, to, "INTO") {
		j++
	}
	tgt, j := ins.target(j, to)
	if ins.kw(j, to, "AS") && ins.isName(j+1, to) { // PostgreSQL: INSERT INTO t AS a
		tgt.alias = ins.name(j + 1)
		j += 2
	}
	if ins.kw(j, to, "PARTITION") && ins.is(j+1, to, '(') {
		j = ins.close(j+1, to) + 1
	}
	cols := -1
	if ins.is(j, to, '(') && !ins.isSubquery(j, to) { // column list
		cols = j
		j = ins.close(j, to) + 1
	}
	src := min(j, to)
	res, end, last := ins.conflictClauses(src, to, tgt)
	if res.Reason != "" {
		if res.Class == Guarded && cols >= 0 {
			res.ConflictParams = ins.conflictParams(cols, src, to)
		}
		res.OnKey = res.Class == Guarded
		return res
	}
	if guard != "" {
		return Result{Class: Guarded, Reason: guard, OnKey: true}
	}
	if ins.notExists(src, end, tgt) {
		return Result{Class: Guarded, Reason: reasonNotExists}
	}
	if ins.fromClaim(src, end) {
		return Result{Class: Converging, Reason: reasonFromClaim}
	}
	// A Hole in tail position could be the conflict clause itself ("... VALUES " + rows +
	// onConflict); one followed by more known text (or naming a table) cannot.
	if last < 0 && tgt.hole || ins.isHole(last, to) && !ins.kw(last-1, to, "FROM") && !ins.kw(last-1, to, "JOIN") &&
		!ins.kw(last-1, to, "INTO") && !ins.kw(last-1, to, "AS") && !ins.is(last-1, to, '.') {
		return Result{Class: Unknown, Reason: reasonHoleInsert}
	}
	return Result{Class: NonIdempotent, Reason: reasonInsert, table: tgt.span}
}

// insertModifiers reads the words between INSERT and INTO from j: the conflict handling
// they ask for (MySQL IGNORE, SQLite OR IGNORE / OR REPLACE), and the index after them.
func (ins inserts) insertModifiers(j, to int) (guard string, next int) {
	for j < to {
		switch {
		case ins.kw(j, to, "LOW_PRIORITY"), ins.kw(j, to, "DELAYED"), ins.kw(j, to, "HIGH_PRIORITY"):
		case ins.kw(j, to, "IGNORE"):
			guard = "INSERT IGNORE"
		case ins.kw(j, to, "OR"): // SQLite conflict resolution
			switch {
			case ins.kw(j+1, to, "IGNORE"):
				guard = "INSERT OR IGNORE"
			case ins.kw(j+1, to, "REPLACE"):
				guard = "INSERT OR REPLACE"
			}
			j++
		default:
			return guard, j
		}
		j++
	}
	return guard, j
}

// conflictClauses scans the source of an INSERT ([src, to)) for its conflict clauses (ON
// CONFLICT, ON DUPLICATE KEY UPDATE) and returns their worst class (no Reason: none), where
// the source ends (at RETURNING or the first clause), and its last token at depth 0.
func (ins inserts) conflictClauses(src, to int, tgt target) (res Result, end, last int) {
	rowAlias := ""
	last, end = -1, to
	for k := src; k < to; k++ {
		switch {
		case ins.is(k, to, '('):
			last = k
			k = ins.close(k, to)
			continue
		case ins.kw(k, to, "RETURNING"):
			return res, k, last
		case ins.kw(k, to, "ON") && ins.kw(k+1, to, "CONFLICT"):
			end = k
			r, next := ins.onConflict(k+2, to, tgt)
			res = worse(res, r)
			k = next - 1
			continue
		case ins.kw(k, to, "ON") && ins.kw(k+1, to, "DUPLICATE") && ins.kw(k+2, to, "KEY") && ins.kw(k+3, to, "UPDATE"):
			end = k
			r, next := ins.onDuplicate(k+4, to, tgt, rowAlias)
			res = worse(res, r)
			k = next - 1
			continue
		case ins.kw(k, to, "AS") && ins.is(k-1, to, ')') && ins.isName(k+1, to):
			rowAlias = ins.name(k + 1) // MySQL 8: VALUES (...) AS new ON DUPLICATE KEY UPDATE
		}
		if res.Reason == "" {
			last = k
		}
	}
	return res, end, last
}

// onConflict reads ON CONFLICT [target] DO NOTHING | DO UPDATE SET ... [WHERE ...] from
// j (after CONFLICT) and returns the index after it.
func (ins inserts) onConflict(j, to int, tgt target) (Result, int) {
	guarded := Result{Class: Guarded, Reason: "upsert (ON CONFLICT)"}
	if ins.kw(j, to, "ON") && ins.kw(j+1, to, "CONSTRAINT") { // ON CONFLICT ON CONSTRAINT name
		j += 3
	}
	do := -1
	for k := j; k < to; k++ {
		if ins.is(k, to, '(') {
			k = ins.close(k, to)
			continue
		}
		if ins.kw(k, to, "DO") || ins.kw(k, to, "RETURNING") || ins.kw(k, to, "ON") {
			if ins.kw(k, to, "DO") {
				do = k
			}
			break
		}
	}
	if do < 0 {
		end := ins.findOr(j, to, "RETURNING", "ON")
		if ins.hasHole(j, end) {
			return Result{Class: Unknown, Reason: "upsert action not known (text built at run time)"}, end
		}
		return guarded, end
	}
	if ins.kw(do+1, to, "NOTHING") {
		return guarded, do + 2
	}
	if !ins.kw(do+1, to, "UPDATE") || !ins.kw(do+2, to, "SET") {
		if ins.isHole(do+1, to) {
			return Result{Class: Unknown, Reason: "upsert action not known (text built at run time)"}, ins.findOr(do+1, to, "RETURNING", "ON")
		}
		return guarded, do + 1
	}
	from := do + 3
	listEnd := ins.findOr(from, to, "WHERE", "RETURNING", "ON")
	wFrom, wTo := -1, -1
	stop := listEnd
	if ins.kw(listEnd, to, "WHERE") {
		wFrom = listEnd + 1
		wTo = ins.findOr(wFrom, to, "RETURNING", "ON")
		stop = wTo
	}
	c := setCtx{tgt: tgt, excl: "excluded", anyQual: true}
	v, col := assignments{ins.cursor}.judgeSet(from, listEnd, wFrom, wTo, &c)
	switch v {
	case setUnknown:
		return Result{Class: Unknown, Reason: "upsert update not known (text built at run time)"}, stop
	case setRelative:
		return Result{Class: NonIdempotent, Reason: "upsert with relative update of " + ins.name(col)}, stop
	case setCondHole:
		return Result{Class: Unknown, Reason: "upsert condition not known (text built at run time)"}, stop
	case setRelativeConditional:
		return Result{Class: Guarded, Reason: "upsert with conditional update"}, stop
	case setAbsoluteConditional:
		return Result{Class: Guarded, Reason: ReasonTransitionUpsert}, stop
	}
	return guarded, stop
}

// onDuplicate reads MySQL's ON DUPLICATE KEY UPDATE list from j; it runs to the end.
func (ins inserts) onDuplicate(j, to int, tgt target, rowAlias string) (Result, int) {
	c := setCtx{tgt: tgt, excl: rowAlias, anyQual: true, valuesFn: true}
	v, col := assignments{ins.cursor}.judgeSet(j, to, -1, -1, &c)
	switch v {
	case setUnknown:
		return Result{Class: Unknown, Reason: "upsert update not known (text built at run time)"}, to
	case setRelative:
		return Result{Class: NonIdempotent, Reason: "upsert with relative update of " + ins.name(col)}, to
	}
	return Result{Class: Guarded, Reason: "upsert (ON DUPLICATE KEY UPDATE)"}, to
}

// reasonFromClaim is the reason of an INSERT whose rows a claiming CTE returned.
const reasonFromClaim = "INSERT of the rows a claim returns (a repeat's claim returns none)"

// fromClaim reports whether the INSERT's source [from, to) selects from a WITH-list entry
// that claims its rows (cte.claims: WITH done AS (UPDATE attempts SET status = 'expired'
// WHERE id = $1 AND status = 'running' RETURNING *) INSERT INTO events ... SELECT ... FROM
// done): a repeat's claim returns no row, so the SELECT inserts none. The entry is a FROM
// item of the top-level SELECT, joined to the others with inner or cross joins only (an
// outer join or a set operation could keep rows with the claim empty).
func (ins inserts) fromClaim(from, to int) bool {
	if ins.isSubquery(from, to) { // INSERT INTO t (SELECT ...)
		to = ins.close(from, to)
		from++
	}
	if !ins.kw(from, to, "SELECT") {
		return false
	}
	claimed, inFrom := false, false
	for i := from + 1; i < to; i++ {
		switch {
		case ins.is(i, to, '('):
			i = ins.close(i, to)
		case ins.kw(i, to, "LEFT"), ins.kw(i, to, "RIGHT"), ins.kw(i, to, "FULL"), ins.kw(i, to, "OUTER"),
			ins.kw(i, to, "UNION"), ins.kw(i, to, "EXCEPT"), ins.kw(i, to, "INTERSECT"):
			return false
		case ins.kw(i, to, "FROM"):
			inFrom = true
			claimed = claimed || ins.claimingCTE(i+1, to)
		case ins.kw(i, to, "WHERE"), ins.kw(i, to, "GROUP"), ins.kw(i, to, "HAVING"), ins.kw(i, to, "ORDER"),
			ins.kw(i, to, "LIMIT"):
			inFrom = false
		case inFrom && (ins.kw(i, to, "JOIN") || ins.is(i, to, ',')):
			claimed = claimed || ins.claimingCTE(i+1, to)
		}
	}
	return claimed
}

// claimingCTE reports whether token i names a WITH-list entry in view that claims its rows.
func (ins inserts) claimingCTE(i, to int) bool {
	if !ins.isName(i, to) || ins.is(i+1, to, '.') {
		return false
	}
	c, ok := updates{ins.cursor}.cte(ins.name(i))
	return ok && c.claims
}

// notExists finds INSERT ... SELECT ... WHERE NOT EXISTS (SELECT ... target ...) (or
// NOT IN (SELECT ...)): the insert happens only while the row is absent, so a repeat adds
// nothing. Only a test in the inserting query's own condition counts (grouping
// parentheses are looked into, subqueries are not), and the subquery must mention the
// target table when that is known, so that an unrelated NOT EXISTS filter is no guard.
func (ins inserts) notExists(from, to int, tgt target) bool {
	if ins.isSubquery(from, to) { // INSERT INTO t (SELECT ...)
		from++
	}
	for i := from; i < to; i++ {
		if ins.isSubquery(i, to) {
			i = ins.close(i, to)
			continue
		}
		if !ins.kw(i, to, "NOT") {
			continue
		}
		open := i + 2
		if !(ins.kw(i+1, to, "EXISTS") && ins.is(open, to, '(') || ins.kw(i+1, to, "IN") && ins.isSubquery(open, to)) {
			continue
		}
		end := ins.close(open, to)
		if tgt.name == "" {
			return true
		}
		for k := open + 1; k < end; k++ {
			if ins.isName(k, end) && eqFold(ins.name(k), tgt.name) && !ins.is(k+1, end, '.') {
				return true
			}
		}
		i = end
	}
	return false
}

// conflictParams maps the columns of an ON CONFLICT (target) to the placeholders a one-row
// VALUES list at src binds them to, by position in the column list at cols. Lists longer
// than maxItems are not read (no allocation: Classify allocates nothing).
func (ins inserts) conflictParams(cols, src, to int) (out [4]uint8) {
	if !ins.kw(src, to, "VALUES") || !ins.is(src+1, to, '(') {
		return out
	}
	rowEnd := ins.close(src+1, to)
	if !ins.kw(rowEnd+1, to, "ON") || !ins.kw(rowEnd+2, to, "CONFLICT") || !ins.is(rowEnd+3, to, '(') {
		return out // several rows, an alias, or no target list
	}
	var names, values, target [maxItems][2]int
	nn := ins.items(cols+1, ins.close(cols, to), &names)
	nv := ins.items(src+2, rowEnd, &values)
	nt := ins.items(rowEnd+4, ins.close(rowEnd+3, to), &target)
	if nn < 0 || nv != nn || nt < 0 {
		return out
	}
	n := 0
	for _, t := range target[:nt] {
		if t[1]-t[0] != 1 || !ins.isName(t[0], to) || n == len(out) {
			continue
		}
		for i, c := range names[:nn] {
			v := values[i]
			if c[1]-c[0] != 1 || !eqFold(ins.name(c[0]), ins.name(t[0])) || v[1]-v[0] != 1 || ins.toks[v[0]].kind != tParam {
				continue
			}
			if num, err := strconv.Atoi(strings.TrimPrefix(ins.text(v[0]), "$")); err == nil && num > 0 && num < 256 {
				out[n] = uint8(num)
				n++
			}
		}
	}
	return out
}

// maxItems bounds the lists conflictParams reads.
const maxItems = 32

// items splits the tokens [from, to) at the commas outside parentheses into buf, as
// [start, end) index pairs, and returns how many; -1 when there are more than buf holds.
func (ins inserts) items(from, to int, buf *[maxItems][2]int) int {
	n, start := 0, from
	for k := from; k <= to; k++ {
		if k < to && ins.is(k, to, '(') {
			k = ins.close(k, to)
			continue
		}
		if k == to || ins.is(k, to, ',') {
			if n == len(buf) {
				return -1
			}
			if k > start {
				buf[n] = [2]int{start, k}
				n++
			}
			start = k + 1
		}
	}
	return n
}
