package sqlstmt

// Transitions: whether the value an assignment gives a column makes a test of that
// column in the condition false: whether the statement moves the row out of what its
// condition selects, so that a repeat finds it no more. Where both sides are literals it is
// decided ('processing' is still IN ('pending', 'processing'); 'sent' is still NOT IN
// ('delivered', 'failed')); where the value is not known, a test for given values (=, IN,
// IS NULL) is taken as made false, as a state machine's transition is written, and a test
// against given values (<>, NOT IN) is not, as a status callback's guard against final
// states is written. How the tests combine (AND, OR, groups) is assignments.falsified's.

// falsifies reports whether the value [vFrom, vTo) (-1: not known) makes the test of the
// column reference [start, end] in a condition ending at wTo false.
func (a assignments) falsifies(start, end, wTo, vFrom, vTo int) bool {
	val, known := a.literal(vFrom, vTo)
	next := end + 1
	other := func(i int) (string, bool) { // the literal operand at i, alone up to the predicate's end
		return a.literal(i, a.operandEnd(i, wTo))
	}
	switch {
	case a.kw(next, wTo, "IS"):
		j := next + 1
		neg := a.kw(j, wTo, "NOT")
		if neg {
			j++
		}
		switch {
		case a.kw(j, wTo, "NULL"):
			isNull := known && val == "NULL"
			return isNull == neg // IS NULL is made false by a value; IS NOT NULL, by NULL
		case a.kw(j, wTo, "TRUE"), a.kw(j, wTo, "FALSE"):
			if !known {
				return !neg
			}
			return (val == a.upper(j)) == neg
		case a.kw(j, wTo, "DISTINCT") && a.kw(j+1, wTo, "FROM"):
			// IS DISTINCT FROM x is <> that sees NULL; IS NOT DISTINCT FROM x, =.
			o := j + 2
			same := a.sameOperand(o, a.operandEnd(o, wTo), vFrom, vTo)
			if lit, ok := other(o); ok && known {
				same = lit == val
			} else if !same && !neg {
				return false
			}
			return same != neg
		}
		return true
	case a.kw(next, wTo, "NOT") && a.kw(next+1, wTo, "IN"):
		items, ok := a.literalList(next+2, wTo)
		return ok && known && contains(items, val)
	case a.kw(next, wTo, "IN"):
		items, ok := a.literalList(next+1, wTo)
		return !ok || !known || !contains(items, val)
	case a.op(next, wTo, "<>"), a.op(next, wTo, "!="), a.op(next, wTo, "^="):
		if o, ok := other(next + 1); ok && known {
			return o == val
		}
		return a.sameOperand(next+1, a.operandEnd(next+1, wTo), vFrom, vTo) // SET s = $2 ... WHERE s <> $2
	case a.op(next, wTo, "="), a.op(next, wTo, "=="):
		if o, ok := other(next + 1); ok && known {
			return o != val
		}
		return true
	case a.op(start-1, wTo, "=") || a.op(start-1, wTo, "=="):
		if i := start - 2; i >= 0 && a.toks[i].kind != tOp && known {
			if o, ok := a.literal(i, i+1); ok {
				return o != val
			}
		}
		return true
	case a.kw(next, wTo, "BETWEEN"), a.kw(next, wTo, "NOT") && a.kw(next+1, wTo, "BETWEEN"),
		a.op(next, wTo, "<"), a.op(next, wTo, ">"), a.op(next, wTo, "<="), a.op(next, wTo, ">="),
		a.op(start-1, wTo, "<"), a.op(start-1, wTo, ">"), a.op(start-1, wTo, "<="), a.op(start-1, wTo, ">="):
		// A lease (SET locked_until = now() + interval '5 minutes' WHERE locked_until <
		// now()) takes the row for a while, not for good: a retry after it selects it again.
		return !a.lease(vFrom, vTo)
	case a.kw(next, wTo, "LIKE"), a.kw(next, wTo, "ILIKE"), a.kw(next, wTo, "NOT"):
		return true
	}
	// A bare boolean: WHERE NOT done is made false by TRUE, WHERE active by FALSE.
	if !known {
		return true
	}
	if a.kw(start-1, wTo, "NOT") {
		return val == "TRUE"
	}
	return val == "FALSE"
}

// literal returns the literal [from, to) is, normalised (TRUE, FALSE and NULL upper-cased,
// strings and numbers as written), a trailing cast dropped ('done'::text); ok is false for
// anything else.
func (a assignments) literal(from, to int) (string, bool) {
	if from < 0 || from >= to {
		return "", false
	}
	if to-from == 3 && a.op(from+1, to, "::") && a.isName(from+2, to) {
		to = from + 1
	}
	if to-from != 1 {
		return "", false
	}
	switch a.toks[from].kind {
	case tString, tNumber:
		return a.text(from), true
	case tWord:
		if w := a.upper(from); w == "TRUE" || w == "FALSE" || w == "NULL" {
			return w, true
		}
	}
	return "", false
}

func (a assignments) upper(i int) string {
	for _, w := range [...]string{"TRUE", "FALSE", "NULL"} {
		if eqFold(a.text(i), w) {
			return w
		}
	}
	return ""
}

// literalList returns the items of the list "(x, y, ...)" opening at i when every one is a
// literal; ok is false otherwise.
func (a assignments) literalList(i, to int) ([maxTuple]string, bool) {
	var items [maxTuple]string
	if !a.is(i, to, '(') {
		return items, false
	}
	end := a.close(i, to)
	n := 0
	for it := i + 1; it < end; it = a.itemEnd(it, end) + 1 {
		lit, ok := a.literal(it, a.itemEnd(it, end))
		if !ok || n == maxTuple {
			return items, false
		}
		items[n] = lit
		n++
	}
	return items, n > 0
}

func contains(items [maxTuple]string, v string) bool {
	for _, it := range items {
		if it == "" {
			return false
		}
		if it == v {
			return true
		}
	}
	return false
}

// operandEnd returns where the operand starting at i ends: at AND, OR, a closing ')' of the
// group it is in, or to.
func (a assignments) operandEnd(i, to int) int {
	for j := i; j < to; j++ {
		switch {
		case a.is(j, to, '('):
			j = a.close(j, to)
		case a.is(j, to, ')'), a.kw(j, to, "AND"), a.kw(j, to, "OR"):
			return j
		}
	}
	return to
}

// sameOperand reports whether [from, to) is written as the value [vFrom, vTo) is.
func (a assignments) sameOperand(from, to, vFrom, vTo int) bool {
	if vFrom < 0 || to-from != vTo-vFrom || to <= from {
		return false
	}
	for k := 0; k < to-from; k++ {
		if a.text(from+k) != a.text(vFrom+k) {
			return false
		}
	}
	return true
}

// lease reports whether the value [vFrom, vTo) is a time ahead of now: a clock function
// with something added (now() + interval '5 minutes', CURRENT_TIMESTAMP + $1).
func (a assignments) lease(vFrom, vTo int) bool {
	clock, plus := false, false
	for i := vFrom; i >= 0 && i < vTo; i++ {
		switch {
		case a.op(i, vTo, "+"):
			plus = true
		case a.kw(i, vTo, "NOW"), a.kw(i, vTo, "CURRENT_TIMESTAMP"), a.kw(i, vTo, "CURRENT_DATE"),
			a.kw(i, vTo, "LOCALTIMESTAMP"), a.kw(i, vTo, "CLOCK_TIMESTAMP"), a.kw(i, vTo, "STATEMENT_TIMESTAMP"),
			a.kw(i, vTo, "TRANSACTION_TIMESTAMP"), a.kw(i, vTo, "UTC_TIMESTAMP"), a.kw(i, vTo, "SYSDATETIME"),
			a.kw(i, vTo, "GETDATE"), a.kw(i, vTo, "DATETIME"):
			clock = true
		}
	}
	return clock && plus
}
