package sqlstmt

// Token is one lexical token of a text, for readers of other statement kinds (the schema's
// DDL) that need the same lexing: comments are skipped, string literals and quoted names
// are single tokens, so no keyword is ever read inside them.
type Token struct {
	Kind TokenKind
	// Text is the token as written; for a quoted name, without its quotes.
	Text string
	// Offset is where the token starts in the text, in bytes.
	Offset int
	// Close is, for a '(' token, the index of the matching ')' (or of the ';' or end of text
	// that closes an unbalanced group); 0 otherwise.
	Close int
}

// TokenKind is a token's lexical class.
type TokenKind uint8

// The token kinds.
const (
	Word   TokenKind = iota + 1 // an unquoted identifier or keyword
	Quoted                      // a quoted identifier: a name, never a keyword
	String                      // a string literal, dollar-quoted bodies included
	Number                      // a numeric literal
	Param                       // a placeholder: $1, ?, :name, @name
	Other                       // an operator, punctuation or a Hole
)

// Tokens returns the tokens of text.
func Tokens(text string) []Token {
	if uint64(len(text)) >= 1<<32 {
		return nil
	}
	c := cursor{s: text, toks: tokenize(text, nil)}
	out := make([]Token, len(c.toks))
	for i, t := range c.toks {
		k := Other
		switch t.kind {
		case tWord:
			k = Word
		case tQuoted:
			k = Quoted
		case tString:
			k = String
		case tNumber:
			k = Number
		case tParam:
			k = Param
		}
		out[i] = Token{Kind: k, Text: c.name(i), Offset: int(t.start)}
		if c.is(i, len(c.toks), '(') {
			out[i].Close = int(t.match)
		}
	}
	return out
}

// ConflictTarget is the conflict target of INSERT INTO table ... ON CONFLICT.
type ConflictTarget struct {
	// Table is the table as InsertBinds writes it.
	Table string
	// Columns are the target's columns (bare names, without quotes; an expression is given
	// as written); none for ON CONFLICT ON CONSTRAINT.
	Columns []string
	// Where: a WHERE follows the column list (a partial index's predicate).
	Where bool
	// Constraint is the name ON CONFLICT ON CONSTRAINT gives.
	Constraint string
	// Offset is where ON CONFLICT starts in the text, in bytes.
	Offset int
}

// Conflict reads the conflict target of INSERT INTO table ... ON CONFLICT (c1, ...) [WHERE
// ...] or ON CONFLICT ON CONSTRAINT name. ok is false for any other text: no target, a
// Hole in the table's name, several statements.
func Conflict(text string) (ConflictTarget, bool) {
	c, n, ok := single(text)
	if !ok || !c.kw(0, n, "INSERT") {
		return ConflictTarget{}, false
	}
	j := 1
	for j < n && !c.kw(j, n, "INTO") {
		j++
	}
	tgt, _ := c.target(j+1, n)
	if j >= n || tgt.name == "" || tgt.hole {
		return ConflictTarget{}, false
	}
	for k := j + 1; k+2 < n; k++ {
		if c.is(k, n, '(') {
			k = c.close(k, n)
			continue
		}
		if !c.kw(k, n, "ON") || !c.kw(k+1, n, "CONFLICT") {
			continue
		}
		out := ConflictTarget{Table: unquote(c.s[tgt.span[0]:tgt.span[1]]), Offset: int(c.toks[k].start)}
		if c.kw(k+2, n, "ON") && c.kw(k+3, n, "CONSTRAINT") && c.isName(k+4, n) {
			out.Constraint = c.name(k + 4)
			return out, true
		}
		if !c.is(k+2, n, '(') {
			return ConflictTarget{}, false
		}
		open := k + 2
		end := c.close(open, n)
		var items [maxItems][2]int
		m := inserts{c}.items(open+1, end, &items)
		if m <= 0 {
			return ConflictTarget{}, false
		}
		for _, it := range items[:m] {
			if it[1]-it[0] == 1 && c.isName(it[0], n) {
				out.Columns = append(out.Columns, c.name(it[0]))
			} else {
				out.Columns = append(out.Columns, c.s[c.toks[it[0]].start:c.toks[it[1]-1].end])
			}
		}
		out.Where = c.kw(end+1, n, "WHERE")
		return out, true
	}
	return ConflictTarget{}, false
}

// InsertColumns reads the column list of INSERT [INTO] table (c1, ...) ...: the table as
// InsertBinds writes it and the columns (without quotes). ok is false without a list (the
// columns are then the table's, in order), for a Hole, or for several statements. The
// INSERT may follow a WITH list whose statements change nothing a repeat would change
// again (mainStatement).
func InsertColumns(text string) (table string, cols []string, ok bool) {
	c, n, ok := single(text)
	if !ok {
		return "", nil, false
	}
	i, ok := c.mainStatement(n)
	if !ok || !c.kw(i, n, "INSERT") {
		return "", nil, false
	}
	j := i + 1
	for j < n && !c.kw(j, n, "INTO") {
		j++
	}
	tgt, k := c.target(j+1, n)
	if j >= n || tgt.name == "" || tgt.hole {
		return "", nil, false
	}
	if c.kw(k, n, "AS") {
		k += 2
	}
	if !c.is(k, n, '(') || c.isSubquery(k, n) {
		return "", nil, false
	}
	var items [maxItems][2]int
	m := inserts{c}.items(k+1, c.close(k, n), &items)
	if m <= 0 {
		return "", nil, false
	}
	for _, it := range items[:m] {
		if it[1]-it[0] != 1 || !c.isName(it[0], n) {
			return "", nil, false
		}
		cols = append(cols, c.name(it[0]))
	}
	return unquote(c.s[tgt.span[0]:tgt.span[1]]), cols, true
}

// mainStatement returns the first token of the statement after a leading WITH list (0 when
// there is none). ok is false when the list is not understood or one of its statements is a
// write a repeat makes again (a relative UPDATE, an INSERT without conflict handling), so
// that what the main statement's table says cannot speak for the whole text; a CTE that
// reads or converges (WITH updated AS (UPDATE products SET stock = $2 ... RETURNING ...))
// leaves the main statement to decide.
func (c *cursor) mainStatement(n int) (int, bool) {
	if !c.kw(0, n, "WITH") {
		return 0, true
	}
	st := statements{c}
	j := 1
	if c.kw(j, n, "RECURSIVE") {
		j++
	}
	for {
		if !c.isName(j, n) {
			return 0, false
		}
		j++
		if c.is(j, n, '(') {
			j = c.close(j, n) + 1
		}
		if !c.kw(j, n, "AS") {
			return 0, false
		}
		j++
		if c.kw(j, n, "NOT") {
			j++
		}
		if c.kw(j, n, "MATERIALIZED") {
			j++
		}
		if !c.is(j, n, '(') {
			return 0, false
		}
		end := c.close(j, n)
		if r := st.stmt(j+1, end, 1); r.Class == NonIdempotent || r.Class == Unknown {
			return 0, false
		}
		j = end + 1
		if !c.is(j, n, ',') {
			return j, j < n
		}
		j++
	}
}
