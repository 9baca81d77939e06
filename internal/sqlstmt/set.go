package sqlstmt

import "strings"

// assignments judges an assignment list and its condition, for UPDATE and for the update
// branches of upserts and MERGE: whether a repeat writes the same values again, applies a
// change twice, or finds its condition false. Which references mean the target's own
// columns is the column references' job; this type decides what they mean for a repeat.
type assignments struct{ *cursor }

// setVerdict is what an assignment list (with its condition) does on a repeat.
type setVerdict uint8

const (
	setAbsolute            setVerdict = iota // every column gets a value independent of itself
	setAbsoluteConditional                   // absolute, and the condition tests an assigned column
	setRelative                              // some column is computed from itself
	setRelativeConditional                   // relative, but the condition stops a repeat
	setCondHole                              // relative, and the condition is partly built at run time
	setUnknown                               // the list itself is partly built at run time
	setEmpty                                 // no assignment could be read
)

// judgeSet reads the assignments in [from, to) and the condition in [wFrom, wTo) (both
// -1 when there is none). col is the LHS column of the first relative assignment.
func (a assignments) judgeSet(from, to, wFrom, wTo int, c *setCtx) (v setVerdict, col int) {
	col = -1
	items := 0
	for it := from; it < to; {
		end := a.itemEnd(it, to)
		eq := a.eqAt(it, end)
		switch {
		case eq < 0:
			if a.hasHole(it, end) {
				return setUnknown, -1
			}
		case a.hasHole(it, eq):
			return setUnknown, -1
		default:
			items++
			sr := columnRefs{a.cursor}.selfRef(it, eq, end, c)
			if col < 0 && sr >= 0 && !Bookkeeping(a.name(sr)) {
				col = sr
			}
		}
		it = end + 1
	}
	if items == 0 {
		return setEmpty, -1
	}
	cond, hole := false, false
	if wFrom >= 0 {
		cond, hole = a.constrains(wFrom, wTo, from, to, c, c)
	}
	switch {
	case col < 0 && cond:
		return setAbsoluteConditional, -1
	case col < 0:
		return setAbsolute, -1
	case cond:
		return setRelativeConditional, col
	case hole:
		return setCondHole, col
	}
	return setRelative, col
}

// Bookkeeping reports whether a column a statement may add to whatever it adds on a
// repeat: an optimistic-locking counter (VersionColumn), a count of attempts
// (AttemptCounter), or a run's log (LogColumn).
func Bookkeeping(name string) bool {
	return VersionColumn(name) || AttemptCounter(name) || LogColumn(name)
}

// LogColumn reports whether a column holds the log a run appends its lines to: its name is
// log or logs, or ends in _log or _logs (build_logs, error_log). A repeat is a second run,
// and the lines it appends say so truly, as a job runner's log does; the statement's other
// assignments decide whether it converges. Read without case, quotes aside.
func LogColumn(name string) bool {
	name = strings.ToLower(strings.Trim(name, "\"`"))
	return name == "log" || name == "logs" || strings.HasSuffix(name, "_log") || strings.HasSuffix(name, "_logs")
}

// AttemptCounter reports whether a column counts the attempts made at a job or a
// delivery: its name is, or ends in "_" and, attempt(s), retries, tries, or attempt,
// retry, try or delivery followed by _count or _number (attempts, send_attempts,
// attempt_count, retry_count, delivery_count), or a callback or notify count
// (callback_num, notify_count). A repeat is one more attempt, and a second
// increment says so truly, as a job runner's row per run does; the statement's other
// assignments decide whether it converges. Read without case and without allocating, as
// the rest of the statement is.
func AttemptCounter(name string) bool {
	name = strings.Trim(name, "\"`")
	for _, s := range attemptNames {
		if len(name) < len(s) || !strings.EqualFold(name[len(name)-len(s):], s) {
			continue
		}
		if len(name) == len(s) || name[len(name)-len(s)-1] == '_' {
			return true
		}
	}
	return false
}

// attemptNames are the names (or last words) of attempt counters.
var attemptNames = []string{
	"attempt", "attempts", "retries", "tries",
	"attempt_count", "attempts_count", "retry_count", "try_count", "delivery_count",
	"attempt_number", "retry_number", "attempt_num", "retry_num", "retry_times",
	// A count of the notifications a payment gateway sends a merchant until it answers:
	// one per attempt (callback_num).
	"callback_num", "callback_count", "callback_times", "notify_num", "notify_count", "notify_times",
}

// VersionColumn reports whether a column is an optimistic-locking counter (version,
// lock_version, row_version, revision): a repeat that bumps it again changes nothing the row
// says; the statement's other assignments decide whether it converges.
func VersionColumn(name string) bool {
	switch strings.ToLower(name) {
	case "version", "lock_version", "row_version", "revision":
		return true
	}
	return false
}

// constrains reports whether the condition [wFrom, wTo) tests a column that the
// assignment list [setFrom, setTo) sets, in a way the first run makes false: the
// statement is then a state transition that a repeat does not apply again
// ("SET status = 'done' ... WHERE status = 'pending'", optimistic locking on version).
// hole reports a predicate built at run time, which could be such a test. cond says which
// references of the condition mean the target's columns, set which ones of the assignment
// list do: they differ when the condition is a joined CTE's, which names the table its own way.
func (a assignments) constrains(wFrom, wTo, setFrom, setTo int, cond, set *setCtx) (constrained, hole bool) {
	for i := wFrom; i < wTo; i++ {
		if a.isHole(i, wTo) && a.predicateStart(i-1, wFrom) {
			hole = true
		}
	}
	budget := maxCondRefs
	return a.falsified(wFrom, wTo, setFrom, setTo, cond, set, 0, &budget), hole
}

// falsified reports whether the assignments [setFrom, setTo) make the condition [from, to)
// false: for alternatives joined by OR, every one; for terms joined by AND, one of them; a
// parenthesised group is read the same way inside, up to maxDepth groups deep. A term is
// made false when it tests a column the list sets, in a way its value makes false
// (falsifies). budget bounds the column references matched.
func (a assignments) falsified(from, to, setFrom, setTo int, cond, set *setCtx, depth int, budget *int) bool {
	if depth > maxDepth || *budget <= 0 {
		return false
	}
	if a.partEnd(from, to, "OR") < to {
		for p := from; p <= to; {
			e := a.partEnd(p, to, "OR")
			if !a.falsified(p, e, setFrom, setTo, cond, set, depth+1, budget) {
				return false
			}
			p = e + 1
		}
		return true
	}
	for p := from; p < to; {
		e := a.partEnd(p, to, "AND")
		if a.termFalsified(p, e, setFrom, setTo, cond, set, depth, budget) {
			return true
		}
		p = e + 1
	}
	return false
}

// termFalsified reports whether the assignments make the term [from, to) of an AND false:
// a parenthesised group, read as a condition; else a test of a column the list sets, in a
// way its value makes false (falsifies).
func (a assignments) termFalsified(from, to, setFrom, setTo int, cond, set *setCtx, depth int, budget *int) bool {
	if a.is(from, to, '(') && a.close(from, to) == to-1 && !a.isSubquery(from, to) {
		return a.falsified(from+1, to-1, setFrom, setTo, cond, set, depth+1, budget)
	}
	if a.kw(from, to, "NOT") && a.is(from+1, to, '(') {
		return false // NOT (...): what makes the inside false makes the term true
	}
	made := false
	columnRefs{a.cursor}.refs(from, to, cond, "", func(start, end, _ int) bool {
		found, rel, vFrom, vTo := a.assigned(setFrom, setTo, a.name(end), set)
		made = found && a.testsColumn(start, end, from, to, rel) && a.falsifies(start, end, to, vFrom, vTo)
		*budget--
		return made || *budget <= 0
	})
	return made
}

// partEnd returns where the part of a condition starting at i ends: at the next keyword kw
// at parenthesis depth 0 (an AND that closes a BETWEEN is not one), or at to.
func (a assignments) partEnd(i, to int, kw string) int {
	between := false
	for ; i < to; i++ {
		switch {
		case a.is(i, to, '('):
			i = a.close(i, to)
		case a.kw(i, to, "BETWEEN"):
			between = true
		case a.kw(i, to, kw):
			if kw == "AND" && between {
				between = false
				continue
			}
			return i
		}
	}
	return to
}

// maxCondRefs bounds how many column references of a condition are matched against the
// assignment list, keeping the cost linear on hostile input.
const maxCondRefs = 256

// predicateStart reports whether the token after index prev starts a predicate in a
// condition starting at wFrom: after WHERE, AND, OR, NOT or a grouping '('.
func (a assignments) predicateStart(prev, wFrom int) bool {
	n := len(a.toks)
	for prev >= wFrom && a.is(prev, n, '(') {
		prev--
	}
	return prev < wFrom || a.kw(prev, n, "AND") || a.kw(prev, n, "OR") || a.kw(prev, n, "NOT") || a.kw(prev, n, "WHERE")
}

// assigned reports whether the list [from, to) sets column col, whether relatively, and
// the value it gives: [vFrom, vTo), or -1, -1 for a tuple assignment ((a, b) = (...)).
func (a assignments) assigned(from, to int, col string, c *setCtx) (found, relative bool, vFrom, vTo int) {
	for it := from; it < to; {
		end := a.itemEnd(it, to)
		if eq := a.eqAt(it, end); eq >= 0 {
			lf, lt := a.lhsRange(it, eq)
			for k, n := lf, 0; k < lt && n < maxTuple; k, n = a.itemEnd(k, lt)+1, n+1 {
				if col0, _ := a.column(k, lt); col0 >= 0 && eqFold(a.name(col0), col) {
					vFrom, vTo = eq+1, end
					if a.is(it, eq, '(') {
						vFrom, vTo = -1, -1
					}
					return true, columnRefs{a.cursor}.selfRef(it, eq, end, c) >= 0, vFrom, vTo
				}
			}
		}
		it = end + 1
	}
	return false, false, -1, -1
}

// testsColumn reports whether the reference [start, end] in the condition [wFrom, wTo) is
// tested in a way that an assignment to it can make false. Equality, inequality, IN, IS
// and LIKE tests and bare booleans all can. Ordering tests (<, >, BETWEEN) can only when
// the column is set absolutely: "attempts < 5" with attempts = attempts + 1 lets a repeat
// through, "version < $2" with version = $2 does not.
func (a assignments) testsColumn(start, end, wFrom, wTo int, relative bool) bool {
	prev, next := start-1, end+1
	if prev < wFrom {
		prev = -1
	}
	isEq := func(i int) bool {
		return a.op(i, wTo, "=") || a.op(i, wTo, "<>") || a.op(i, wTo, "!=") || a.op(i, wTo, "^=") || a.op(i, wTo, "==")
	}
	isOrd := func(i int) bool {
		return a.op(i, wTo, "<") || a.op(i, wTo, ">") || a.op(i, wTo, "<=") || a.op(i, wTo, ">=")
	}
	switch {
	case a.kw(next, wTo, "IS"), a.kw(next, wTo, "IN"), a.kw(next, wTo, "LIKE"), a.kw(next, wTo, "ILIKE"):
		return true
	case a.kw(next, wTo, "NOT") && (a.kw(next+1, wTo, "IN") || a.kw(next+1, wTo, "LIKE") || a.kw(next+1, wTo, "ILIKE")):
		return true
	case isEq(next) || prev >= 0 && isEq(prev):
		return true
	case a.kw(next, wTo, "BETWEEN"), a.kw(next, wTo, "NOT") && a.kw(next+1, wTo, "BETWEEN"),
		isOrd(next), prev >= 0 && isOrd(prev):
		return !relative
	}
	startOK := prev < 0 || a.kw(prev, wTo, "AND") || a.kw(prev, wTo, "OR") || a.kw(prev, wTo, "NOT") || a.is(prev, wTo, '(')
	endOK := next >= wTo || a.kw(next, wTo, "AND") || a.kw(next, wTo, "OR") || a.is(next, wTo, ')')
	return startOK && endOK
}
