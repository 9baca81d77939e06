package sqlstmt

// cursor holds the tokens of one text and answers token-level questions about them: is
// token i this keyword or operator, where does this group close, where is the next
// keyword at depth 0. Every method takes an explicit half-open token range [from, to) and
// never looks outside it, so clauses (a CTE body, a SET list) are read with the same code
// as whole statements. Each reader of a statement kind or clause is a value that only
// embeds a pointer to it, made where the statement or clause is handed over: they all
// read one token buffer, which stays on Classify's stack, and a hand-over copies one
// pointer.
type cursor struct {
	s    string
	toks []token
	// ctes[:nctes] are the WITH-list entries in view of the statement being read (the
	// WITH reader adds each one before it reads the next and the main statement): an
	// UPDATE that joins one of them is read with the rows it selects. An array, so that
	// Classify allocates nothing; entries past it are not kept.
	ctes  [maxCTEs]cte
	nctes int
}

// maxCTEs bounds the WITH-list entries kept in view.
const maxCTEs = 16

// cte is a WITH-list entry: the token of its name and the tokens of its body, [from, to).
// Indexes, not the name itself: a string stored through the cursor would make Classify
// allocate.
type cte struct {
	name, from, to int
	// claims: the body is a conditional UPDATE or a DELETE with RETURNING, which returns
	// each row it changes once: a repeat's body returns none.
	claims bool
}

func (cur *cursor) text(i int) string { t := cur.toks[i]; return cur.s[t.start:t.end] }

// kw reports whether token i (< to) is the keyword k, given in upper case.
func (cur *cursor) kw(i, to int, k string) bool {
	return i >= 0 && i < to && cur.toks[i].kind == tWord && eqFold(cur.text(i), k)
}

// is reports whether token i (< to) is the one-byte operator c.
func (cur *cursor) is(i, to int, c byte) bool {
	if i < 0 || i >= to {
		return false
	}
	t := cur.toks[i]
	return t.kind == tOp && t.end-t.start == 1 && cur.s[t.start] == c
}

// op reports whether token i (< to) is the operator o.
func (cur *cursor) op(i, to int, o string) bool {
	return i >= 0 && i < to && cur.toks[i].kind == tOp && cur.text(i) == o
}

func (cur *cursor) isName(i, to int) bool {
	return i >= 0 && i < to && (cur.toks[i].kind == tWord || cur.toks[i].kind == tQuoted)
}

func (cur *cursor) isHole(i, to int) bool { return i >= 0 && i < to && cur.toks[i].kind == tHole }

// name returns the identifier at i without its quotes.
func (cur *cursor) name(i int) string {
	t := cur.toks[i]
	s := cur.s[t.start:t.end]
	if t.kind == tQuoted {
		q := s[0]
		s = s[1:]
		if len(s) > 0 && s[len(s)-1] == q {
			s = s[:len(s)-1]
		}
	}
	return s
}

// close returns the index of the ')' matching the '(' at i, or to when the group is not
// closed within the range. A loop that does i = cur.close(i, to) then i++ skips the group.
func (cur *cursor) close(i, to int) int {
	if m := int(cur.toks[i].match); m < to {
		return m
	}
	return to
}

// find returns the index of the first keyword among kws at parenthesis depth 0 in
// [from, to), or -1.
func (cur *cursor) find(from, to int, kws ...string) int {
	for i := from; i < to; i++ {
		if cur.is(i, to, '(') {
			i = cur.close(i, to)
			continue
		}
		if cur.toks[i].kind != tWord {
			continue
		}
		for _, k := range kws {
			if eqFold(cur.text(i), k) {
				return i
			}
		}
	}
	return -1
}

// findOr is find with to standing for "not found", for the end of a clause.
func (cur *cursor) findOr(from, to int, kws ...string) int {
	if i := cur.find(from, to, kws...); i >= 0 {
		return i
	}
	return to
}

func (cur *cursor) hasHole(from, to int) bool {
	for i := from; i < to; i++ {
		if cur.toks[i].kind == tHole {
			return true
		}
	}
	return false
}

// isSubquery reports whether the '(' at i opens a query rather than a list or expression.
func (cur *cursor) isSubquery(i, to int) bool {
	return cur.is(i, to, '(') && (cur.kw(i+1, to, "SELECT") || cur.kw(i+1, to, "WITH") || cur.kw(i+1, to, "VALUES"))
}

// itemEnd returns the index of the ',' ending the list item at it, or to.
func (cur *cursor) itemEnd(it, to int) int {
	for k := it; k < to; k++ {
		if cur.is(k, to, '(') {
			k = cur.close(k, to)
			continue
		}
		if cur.is(k, to, ',') {
			return k
		}
	}
	return to
}

// eqAt returns the index of the '=' at depth 0 in [from, to), or -1.
func (cur *cursor) eqAt(from, to int) int {
	for k := from; k < to; k++ {
		if cur.is(k, to, '(') {
			k = cur.close(k, to)
			continue
		}
		if cur.is(k, to, '=') {
			return k
		}
	}
	return -1
}

// lhsRange returns the range holding the column names the left side [from, eq) of an
// assignment sets: the inside of "(a, b)", or the side itself.
func (cur *cursor) lhsRange(from, eq int) (int, int) {
	if cur.is(from, eq, '(') {
		return from + 1, cur.close(from, eq)
	}
	return from, eq
}

// column returns the last name (the column) and the one before it (its qualifier, or -1)
// of the name chain at the start of [from, to): "col", "t.col", "s.t.col", "col[1]".
func (cur *cursor) column(from, to int) (col, qual int) {
	col, qual = -1, -1
	for k := from; cur.isName(k, to); k += 2 {
		qual, col = col, k
		if !cur.is(k+1, to, '.') {
			break
		}
	}
	return col, qual
}

// eqFold reports whether s equals the upper-case ASCII keyword k, ignoring ASCII case.
// Names are compared the same way (see refs): quoted identifiers are case-sensitive in
// SQL, but two names differing only in case are almost never distinct columns.
func eqFold(s, k string) bool {
	if len(s) != len(k) {
		return false
	}
	for i := 0; i < len(s); i++ {
		a, b := s[i], k[i]
		if 'a' <= a && a <= 'z' {
			a -= 'a' - 'A'
		}
		if 'a' <= b && b <= 'z' {
			b -= 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}
