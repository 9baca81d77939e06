package sqlstmt

import (
	"strconv"
	"strings"
)

// Class says what running a statement twice does.
type Class uint8

const (
	// Unknown: the text is not understood (CALL proc(), an unknown verb, a verb that is
	// only inside a Hole) or a part that decides the class is built at run time.
	Unknown Class = iota
	// Read: no write (SELECT, SHOW, EXPLAIN without ANALYZE, VALUES, a WITH whose bodies
	// are all reads, transaction and session control).
	Read
	// Converging: a repeat leaves the same state (absolute UPDATE, conditional state
	// transition, DELETE, TRUNCATE, DDL with IF [NOT] EXISTS or OR REPLACE).
	Converging
	// Guarded: a write whose repeat is absorbed by conflict handling (upserts, INSERT
	// IGNORE, INSERT OR IGNORE/REPLACE, REPLACE INTO, MERGE, INSERT guarded by NOT EXISTS).
	Guarded
	// NonIdempotent: a repeat changes the state again or fails (INSERT without conflict
	// handling, relative UPDATE, COPY FROM, CREATE without IF NOT EXISTS).
	NonIdempotent
)

var classNames = [...]string{
	Unknown:       "unknown",
	Read:          "read",
	Converging:    "converging",
	Guarded:       "guarded",
	NonIdempotent: "non-idempotent",
}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// rank orders classes from best to worst for combining several statements. Unknown ranks
// below NonIdempotent: a statement known to be unsafe decides the text even if a neighbour
// is not understood.
var rank = [...]uint8{Read: 0, Converging: 1, Guarded: 2, Unknown: 3, NonIdempotent: 4}

// Result is the classification of a statement text.
type Result struct {
	Class Class
	// Reason is short and lower-case (SQL keywords aside), ready to follow "because" in a
	// diagnostic: "INSERT without conflict handling", "relative UPDATE of balance".
	Reason string
	// Table is the table an INSERT without conflict handling adds to, as the text writes it
	// (possibly qualified and quoted: "audit"."log"), or "": the caller may know it takes a
	// row per run by design.
	Table string
	// table is where Table is in the text: Classify slices it there, so that no result of
	// the parser points into its state (which would move the token buffer to the heap).
	table [2]uint32
	// ConflictParams are, for a one-row INSERT (cols) VALUES (...) ON CONFLICT (target),
	// the numbers of the positional placeholders ($N) inserted into the target's columns
	// (the first four; 0 for none): a caller that binds a value made anew on every run
	// there has no conflict to absorb the repeat.
	ConflictParams [4]uint8
}

// Hole is the placeholder the analyzer puts where part of the statement text is not known
// at compile time (a non-constant operand of a concatenation, a %s or %v of fmt.Sprintf).
// It is a NUL byte: PostgreSQL rejects NUL anywhere in statement text and the other
// dialects only take it escaped inside literals, so it cannot be confused with real SQL.
// A Hole is read as one opaque name or value; inside a literal or comment it is ignored.
const Hole = "\x00"

// Reasons used more than once, or compared.
const (
	reasonInsert     = "INSERT without conflict handling"
	reasonNotExists  = "insert guarded by NOT EXISTS"
	reasonHoleInsert = "conflict handling not known (text built at run time)"
	reasonRead       = "read-only statement"
	reasonSession    = "transaction or session control"
	reasonNotUnders  = "statement text not understood"
	reasonDDLHole    = "DDL not known (text built at run time)"
)

// maxDepth bounds nesting (WITH bodies, EXPLAIN ANALYZE, IF NOT EXISTS) so that hostile
// input cannot exhaust the stack.
const maxDepth = 32

// stackTokens is the number of tokens that Classify keeps on the stack; a long upsert has
// about 300.
const stackTokens = 256

// Classify classifies statement text by what happens if it runs twice. Several statements
// separated by ';' are classified one by one and the worst decides (NonIdempotent, then
// Unknown, Guarded, Converging, Read); ties keep the first statement's reason.
// Classify never panics and allocates only for a very long text or a reason that names a
// column.
func Classify(text string) Result {
	if uint64(len(text)) >= 1<<32 {
		return Result{Class: Unknown, Reason: "statement text too long"}
	}
	var buf [stackTokens]token
	p := parser{s: text, toks: tokenize(text, buf[:0])}
	var worst Result
	from := 0
	for i := 0; i <= len(p.toks); i++ {
		if i == len(p.toks) || p.is(i, len(p.toks), ';') {
			if i > from {
				worst = worse(worst, p.stmt(from, i, 0))
			}
			from = i + 1
		}
	}
	if worst.Reason == "" {
		return Result{Class: Unknown, Reason: "empty statement text"}
	}
	if worst.table[1] > 0 {
		worst.Table = text[worst.table[0]:worst.table[1]]
		worst.table = [2]uint32{}
	}
	return worst
}

// worse returns the worse of a and b, a if they rank the same. A zero a (no Reason) means
// "nothing yet".
func worse(a, b Result) Result {
	if a.Reason == "" || rank[b.Class] > rank[a.Class] {
		return b
	}
	return a
}

// parser reads the tokens of one text. Every method takes an explicit half-open token
// range [from, to) and never looks outside it, so clauses (a CTE body, a SET list) are
// read with the same code as whole statements.
type parser struct {
	s    string
	toks []token
}

func (p *parser) text(i int) string { t := p.toks[i]; return p.s[t.start:t.end] }

// kw reports whether token i (< to) is the keyword k, given in upper case.
func (p *parser) kw(i, to int, k string) bool {
	return i >= 0 && i < to && p.toks[i].kind == tWord && eqFold(p.text(i), k)
}

// is reports whether token i (< to) is the one-byte operator c.
func (p *parser) is(i, to int, c byte) bool {
	if i < 0 || i >= to {
		return false
	}
	t := p.toks[i]
	return t.kind == tOp && t.end-t.start == 1 && p.s[t.start] == c
}

// op reports whether token i (< to) is the operator o.
func (p *parser) op(i, to int, o string) bool {
	return i >= 0 && i < to && p.toks[i].kind == tOp && p.text(i) == o
}

func (p *parser) isName(i, to int) bool {
	return i >= 0 && i < to && (p.toks[i].kind == tWord || p.toks[i].kind == tQuoted)
}

func (p *parser) isHole(i, to int) bool { return i >= 0 && i < to && p.toks[i].kind == tHole }

// name returns the identifier at i without its quotes.
func (p *parser) name(i int) string {
	t := p.toks[i]
	s := p.s[t.start:t.end]
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
// closed within the range. A loop that does i = p.close(i, to) then i++ skips the group.
func (p *parser) close(i, to int) int {
	if m := int(p.toks[i].match); m < to {
		return m
	}
	return to
}

// find returns the index of the first keyword among kws at parenthesis depth 0 in
// [from, to), or -1.
func (p *parser) find(from, to int, kws ...string) int {
	for i := from; i < to; i++ {
		if p.is(i, to, '(') {
			i = p.close(i, to)
			continue
		}
		if p.toks[i].kind != tWord {
			continue
		}
		for _, k := range kws {
			if eqFold(p.text(i), k) {
				return i
			}
		}
	}
	return -1
}

// findOr is find with to standing for "not found", for the end of a clause.
func (p *parser) findOr(from, to int, kws ...string) int {
	if i := p.find(from, to, kws...); i >= 0 {
		return i
	}
	return to
}

func (p *parser) hasHole(from, to int) bool {
	for i := from; i < to; i++ {
		if p.toks[i].kind == tHole {
			return true
		}
	}
	return false
}

// ifExists reports whether IF [NOT] EXISTS appears at depth 0.
func (p *parser) ifExists(from, to int) bool {
	for i := p.find(from, to, "IF"); i >= 0; i = p.find(i+1, to, "IF") {
		if p.kw(i+1, to, "EXISTS") || p.kw(i+1, to, "NOT") && p.kw(i+2, to, "EXISTS") {
			return true
		}
	}
	return false
}

// isSubquery reports whether the '(' at i opens a query rather than a list or expression.
func (p *parser) isSubquery(i, to int) bool {
	return p.is(i, to, '(') && (p.kw(i+1, to, "SELECT") || p.kw(i+1, to, "WITH") || p.kw(i+1, to, "VALUES"))
}

// stmt classifies the statement in [from, to), which holds no ';'.
func (p *parser) stmt(from, to, depth int) Result {
	if depth > maxDepth {
		return Result{Class: Unknown, Reason: "statement nested too deeply"}
	}
	i := from
	for i < to && p.is(i, to, '(') { // (SELECT ...) UNION (SELECT ...)
		i++
	}
	if i >= to {
		return Result{Class: Unknown, Reason: reasonNotUnders}
	}
	switch p.toks[i].kind {
	case tWord:
	case tHole:
		for j := from; j < to; j++ {
			if p.toks[j].kind != tHole && !p.is(j, to, '(') && !p.is(j, to, ')') {
				return Result{Class: Unknown, Reason: "statement verb not known (text built at run time)"}
			}
		}
		return Result{Class: Unknown, Reason: "statement text not known"}
	default:
		return Result{Class: Unknown, Reason: reasonNotUnders}
	}
	w := p.text(i)
	switch {
	case eqFold(w, "SELECT"):
		return p.selectStmt(i, to)
	case eqFold(w, "VALUES"), eqFold(w, "TABLE"), eqFold(w, "SHOW"), eqFold(w, "DESCRIBE"), eqFold(w, "DESC"):
		return Result{Class: Read, Reason: reasonRead}
	case eqFold(w, "EXPLAIN"):
		return p.explain(i, to, depth)
	case eqFold(w, "WITH"):
		return p.with(i, to, depth)
	case eqFold(w, "INSERT"):
		return p.insert(i, to)
	case eqFold(w, "UPSERT"): // CockroachDB
		return Result{Class: Guarded, Reason: "UPSERT"}
	case eqFold(w, "REPLACE"): // MySQL, SQLite: delete-then-insert on a key conflict
		return Result{Class: Guarded, Reason: "REPLACE INTO"}
	case eqFold(w, "UPDATE"):
		return p.update(i, to)
	case eqFold(w, "DELETE"):
		return Result{Class: Converging, Reason: "DELETE"}
	case eqFold(w, "MERGE"):
		return p.merge(i, to)
	case eqFold(w, "TRUNCATE"):
		return Result{Class: Converging, Reason: "TRUNCATE"}
	case eqFold(w, "CREATE"):
		return p.create(i, to)
	case eqFold(w, "DROP"):
		return p.drop(i, to)
	case eqFold(w, "ALTER"):
		return p.alter(i, to)
	case eqFold(w, "RENAME"):
		return Result{Class: NonIdempotent, Reason: "RENAME fails on a repeat"}
	case eqFold(w, "COPY"):
		return p.copyStmt(i, to)
	case eqFold(w, "LOAD"):
		return p.load(i, to)
	case eqFold(w, "NOTIFY"):
		// A second NOTIFY is a second message to every listener: a publish with no
		// deduplication id.
		return Result{Class: NonIdempotent, Reason: "NOTIFY sends the message again"}
	case eqFold(w, "GRANT"), eqFold(w, "REVOKE"), eqFold(w, "COMMENT"), eqFold(w, "SECURITY"),
		eqFold(w, "ANALYZE"), eqFold(w, "ANALYSE"), eqFold(w, "VACUUM"), eqFold(w, "REINDEX"),
		eqFold(w, "CLUSTER"), eqFold(w, "REFRESH"), eqFold(w, "CHECKPOINT"), eqFold(w, "OPTIMIZE"):
		return Result{Class: Converging, Reason: "maintenance or privilege statement"}
	case eqFold(w, "BEGIN"), eqFold(w, "START"), eqFold(w, "COMMIT"), eqFold(w, "ROLLBACK"),
		eqFold(w, "SAVEPOINT"), eqFold(w, "RELEASE"), eqFold(w, "END"), eqFold(w, "ABORT"),
		eqFold(w, "SET"), eqFold(w, "RESET"), eqFold(w, "USE"), eqFold(w, "LOCK"), eqFold(w, "UNLOCK"),
		eqFold(w, "PREPARE"), eqFold(w, "DEALLOCATE"), eqFold(w, "DECLARE"), eqFold(w, "CLOSE"),
		eqFold(w, "FETCH"), eqFold(w, "MOVE"), eqFold(w, "LISTEN"), eqFold(w, "UNLISTEN"),
		eqFold(w, "DISCARD"), eqFold(w, "PRAGMA"):
		// No persistent write. PREPARE only names a statement; running it is EXECUTE.
		return Result{Class: Read, Reason: reasonSession}
	case eqFold(w, "CALL"), eqFold(w, "EXEC"), eqFold(w, "EXECUTE"):
		return Result{Class: Unknown, Reason: "procedure call (effect not known)"}
	case eqFold(w, "DO"):
		return Result{Class: Unknown, Reason: "code block (effect not known)"}
	case eqFold(w, "IF"):
		return p.ifStmt(i, to, depth)
	}
	return Result{Class: Unknown, Reason: reasonNotUnders}
}

// selectStmt: a SELECT reads, except PostgreSQL's SELECT ... INTO new_table, which is
// CREATE TABLE AS and fails on a repeat. MySQL's INTO @var / OUTFILE are not tables.
func (p *parser) selectStmt(i, to int) Result {
	if j := p.find(i+1, to, "INTO"); j >= 0 {
		k := j + 1
		for p.kw(k, to, "TEMP") || p.kw(k, to, "TEMPORARY") || p.kw(k, to, "UNLOGGED") || p.kw(k, to, "TABLE") {
			k++
		}
		if (p.isName(k, to) || p.isHole(k, to)) && !p.kw(k, to, "OUTFILE") && !p.kw(k, to, "DUMPFILE") {
			return Result{Class: NonIdempotent, Reason: "SELECT INTO creates a table"}
		}
	}
	return Result{Class: Read, Reason: reasonRead}
}

// explain: EXPLAIN only plans; EXPLAIN ANALYZE also runs the statement.
func (p *parser) explain(i, to, depth int) Result {
	j := i + 1
	analyze := false
	if p.is(j, to, '(') { // EXPLAIN (ANALYZE, BUFFERS) ...
		end := p.close(j, to)
		for k := j + 1; k < end; k++ {
			if p.kw(k, end, "ANALYZE") || p.kw(k, end, "ANALYSE") {
				n := k + 1
				analyze = !(p.kw(n, end, "FALSE") || p.kw(n, end, "OFF") ||
					n < end && p.toks[n].kind == tNumber && p.text(n) == "0")
			}
		}
		j = end + 1
	}
	for j < to {
		switch {
		case p.kw(j, to, "ANALYZE"), p.kw(j, to, "ANALYSE"):
			analyze = true
		case p.kw(j, to, "VERBOSE"), p.kw(j, to, "EXTENDED"), p.kw(j, to, "PARTITIONS"),
			p.kw(j, to, "QUERY"), p.kw(j, to, "PLAN"):
		case p.kw(j, to, "FORMAT"): // MySQL FORMAT=JSON
			if p.op(j+1, to, "=") {
				j++
			}
			j++
		default:
			if analyze {
				return p.stmt(j, to, depth+1)
			}
			return Result{Class: Read, Reason: "EXPLAIN without ANALYZE"}
		}
		j++
	}
	return Result{Class: Read, Reason: "EXPLAIN without ANALYZE"}
}

// with classifies every CTE body and the main statement; the worst decides, so a
// data-modifying CTE makes the whole statement a write.
func (p *parser) with(i, to, depth int) Result {
	var worst Result
	j := i + 1
	if p.kw(j, to, "RECURSIVE") {
		j++
	}
	for {
		if !p.isName(j, to) && !p.isHole(j, to) {
			return worse(worst, Result{Class: Unknown, Reason: "WITH clause not understood"})
		}
		j++
		if p.is(j, to, '(') { // column list
			j = p.close(j, to) + 1
		}
		if !p.kw(j, to, "AS") {
			return worse(worst, Result{Class: Unknown, Reason: "WITH clause not understood"})
		}
		j++
		if p.kw(j, to, "NOT") {
			j++
		}
		if p.kw(j, to, "MATERIALIZED") {
			j++
		}
		if !p.is(j, to, '(') {
			return worse(worst, Result{Class: Unknown, Reason: "WITH clause not understood"})
		}
		end := p.close(j, to)
		if end > j+1 {
			worst = worse(worst, p.stmt(j+1, end, depth+1))
		}
		j = end + 1
		// Skip SEARCH / CYCLE clauses up to the next CTE or the main statement.
		for j < to && !p.is(j, to, ',') && !p.is(j, to, '(') && !p.isVerb(j, to) {
			j++
		}
		if !p.is(j, to, ',') {
			break
		}
		j++
	}
	if j >= to {
		return worse(worst, Result{Class: Unknown, Reason: "WITH without a main statement"})
	}
	return worse(worst, p.stmt(j, to, depth+1))
}

func (p *parser) isVerb(j, to int) bool {
	return p.kw(j, to, "SELECT") || p.kw(j, to, "INSERT") || p.kw(j, to, "UPDATE") || p.kw(j, to, "DELETE") ||
		p.kw(j, to, "MERGE") || p.kw(j, to, "VALUES") || p.kw(j, to, "TABLE")
}

// ifStmt understands the T-SQL guard IF NOT EXISTS (SELECT ...) INSERT ...
func (p *parser) ifStmt(i, to, depth int) Result {
	if !p.kw(i+1, to, "NOT") || !p.kw(i+2, to, "EXISTS") || !p.is(i+3, to, '(') {
		return Result{Class: Unknown, Reason: reasonNotUnders}
	}
	j := p.close(i+3, to) + 1
	if p.kw(j, to, "BEGIN") { // the block's END follows the next ';' and reads as its own statement
		j++
	}
	if j >= to {
		return Result{Class: Unknown, Reason: reasonNotUnders}
	}
	r := p.stmt(j, to, depth+1)
	if r.Reason == reasonInsert || r.Reason == reasonHoleInsert {
		return Result{Class: Guarded, Reason: reasonNotExists}
	}
	return r
}

// target is the table a write goes to, as far as the text names it.
type target struct {
	name, alias string
	span        [2]uint32 // where the whole name is written, qualifiers and quotes included
	hole        bool      // the name (or part of it) is built at run time
}

// target reads a possibly qualified table name at j and returns the index after it.
func (p *parser) target(j, to int) (target, int) {
	var t target
	first, last := j, -1
	for j < to {
		switch p.toks[j].kind {
		case tHole:
			t.hole = true
			t.name = ""
		case tWord, tQuoted:
			t.name = p.name(j)
			last = j
		default:
			return t.at(p, first, last), j
		}
		j++
		if !p.is(j, to, '.') {
			break
		}
		j++
	}
	return t.at(p, first, last), j
}

// at records where the name as written (tokens first to last) is, when it is all known.
func (t target) at(p *parser, first, last int) target {
	if t.name != "" && !t.hole && last >= first {
		t.span = [2]uint32{p.toks[first].start, p.toks[last].end}
	}
	return t
}

// insert classifies INSERT by its conflict handling.
func (p *parser) insert(i, to int) Result {
	guard, j := p.insertModifiers(i+1, to)
	if p.kw(j, to, "INTO") {
		j++
	}
	tgt, j := p.target(j, to)
	if p.kw(j, to, "AS") && p.isName(j+1, to) { // PostgreSQL: INSERT INTO t AS a
		tgt.alias = p.name(j + 1)
		j += 2
	}
	if p.kw(j, to, "PARTITION") && p.is(j+1, to, '(') {
		j = p.close(j+1, to) + 1
	}
	cols := -1
	if p.is(j, to, '(') && !p.isSubquery(j, to) { // column list
		cols = j
		j = p.close(j, to) + 1
	}
	src := min(j, to)
	res, end, last := p.conflictClauses(src, to, tgt)
	if res.Reason != "" {
		if res.Class == Guarded && cols >= 0 {
			res.ConflictParams = p.conflictParams(cols, src, to)
		}
		return res
	}
	if guard != "" {
		return Result{Class: Guarded, Reason: guard}
	}
	if p.notExists(src, end, tgt) {
		return Result{Class: Guarded, Reason: reasonNotExists}
	}
	// A Hole in tail position could be the conflict clause itself ("... VALUES " + rows +
	// onConflict); one followed by more known text (or naming a table) cannot.
	if last < 0 && tgt.hole || p.isHole(last, to) && !p.kw(last-1, to, "FROM") && !p.kw(last-1, to, "JOIN") &&
		!p.kw(last-1, to, "INTO") && !p.kw(last-1, to, "AS") && !p.is(last-1, to, '.') {
		return Result{Class: Unknown, Reason: reasonHoleInsert}
	}
	return Result{Class: NonIdempotent, Reason: reasonInsert, table: tgt.span}
}

// conflictParams maps the columns of an ON CONFLICT (target) to the placeholders a one-row
// VALUES list at src binds them to, by position in the column list at cols. Lists longer
// than maxItems are not read (no allocation: Classify allocates nothing).
func (p *parser) conflictParams(cols, src, to int) (out [4]uint8) {
	if !p.kw(src, to, "VALUES") || !p.is(src+1, to, '(') {
		return out
	}
	rowEnd := p.close(src+1, to)
	if !p.kw(rowEnd+1, to, "ON") || !p.kw(rowEnd+2, to, "CONFLICT") || !p.is(rowEnd+3, to, '(') {
		return out // several rows, an alias, or no target list
	}
	var names, values, target [maxItems][2]int
	nn := p.items(cols+1, p.close(cols, to), &names)
	nv := p.items(src+2, rowEnd, &values)
	nt := p.items(rowEnd+4, p.close(rowEnd+3, to), &target)
	if nn < 0 || nv != nn || nt < 0 {
		return out
	}
	n := 0
	for _, t := range target[:nt] {
		if t[1]-t[0] != 1 || !p.isName(t[0], to) || n == len(out) {
			continue
		}
		for i, c := range names[:nn] {
			v := values[i]
			if c[1]-c[0] != 1 || !eqFold(p.name(c[0]), p.name(t[0])) || v[1]-v[0] != 1 || p.toks[v[0]].kind != tParam {
				continue
			}
			if num, err := strconv.Atoi(strings.TrimPrefix(p.text(v[0]), "$")); err == nil && num > 0 && num < 256 {
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
func (p *parser) items(from, to int, buf *[maxItems][2]int) int {
	n, start := 0, from
	for k := from; k <= to; k++ {
		if k < to && p.is(k, to, '(') {
			k = p.close(k, to)
			continue
		}
		if k == to || p.is(k, to, ',') {
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

// insertModifiers reads the words between INSERT and INTO from j: the conflict handling
// they ask for (MySQL IGNORE, SQLite OR IGNORE / OR REPLACE), and the index after them.
func (p *parser) insertModifiers(j, to int) (guard string, next int) {
	for j < to {
		switch {
		case p.kw(j, to, "LOW_PRIORITY"), p.kw(j, to, "DELAYED"), p.kw(j, to, "HIGH_PRIORITY"):
		case p.kw(j, to, "IGNORE"):
			guard = "INSERT IGNORE"
		case p.kw(j, to, "OR"): // SQLite conflict resolution
			switch {
			case p.kw(j+1, to, "IGNORE"):
				guard = "INSERT OR IGNORE"
			case p.kw(j+1, to, "REPLACE"):
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
func (p *parser) conflictClauses(src, to int, tgt target) (res Result, end, last int) {
	rowAlias := ""
	last, end = -1, to
	for k := src; k < to; k++ {
		switch {
		case p.is(k, to, '('):
			last = k
			k = p.close(k, to)
			continue
		case p.kw(k, to, "RETURNING"):
			return res, k, last
		case p.kw(k, to, "ON") && p.kw(k+1, to, "CONFLICT"):
			end = k
			r, next := p.onConflict(k+2, to, tgt)
			res = worse(res, r)
			k = next - 1
			continue
		case p.kw(k, to, "ON") && p.kw(k+1, to, "DUPLICATE") && p.kw(k+2, to, "KEY") && p.kw(k+3, to, "UPDATE"):
			end = k
			r, next := p.onDuplicate(k+4, to, tgt, rowAlias)
			res = worse(res, r)
			k = next - 1
			continue
		case p.kw(k, to, "AS") && p.is(k-1, to, ')') && p.isName(k+1, to):
			rowAlias = p.name(k + 1) // MySQL 8: VALUES (...) AS new ON DUPLICATE KEY UPDATE
		}
		if res.Reason == "" {
			last = k
		}
	}
	return res, end, last
}

// notExists finds INSERT ... SELECT ... WHERE NOT EXISTS (SELECT ... target ...) (or
// NOT IN (SELECT ...)): the insert happens only while the row is absent, so a repeat adds
// nothing. Only a test in the inserting query's own condition counts (grouping
// parentheses are looked into, subqueries are not), and the subquery must mention the
// target table when that is known, so that an unrelated NOT EXISTS filter is no guard.
func (p *parser) notExists(from, to int, tgt target) bool {
	if p.isSubquery(from, to) { // INSERT INTO t (SELECT ...)
		from++
	}
	for i := from; i < to; i++ {
		if p.isSubquery(i, to) {
			i = p.close(i, to)
			continue
		}
		if !p.kw(i, to, "NOT") {
			continue
		}
		open := i + 2
		if !(p.kw(i+1, to, "EXISTS") && p.is(open, to, '(') || p.kw(i+1, to, "IN") && p.isSubquery(open, to)) {
			continue
		}
		end := p.close(open, to)
		if tgt.name == "" {
			return true
		}
		for k := open + 1; k < end; k++ {
			if p.isName(k, end) && eqFold(p.name(k), tgt.name) && !p.is(k+1, end, '.') {
				return true
			}
		}
		i = end
	}
	return false
}

// onConflict reads ON CONFLICT [target] DO NOTHING | DO UPDATE SET ... [WHERE ...] from
// j (after CONFLICT) and returns the index after it.
func (p *parser) onConflict(j, to int, tgt target) (Result, int) {
	guarded := Result{Class: Guarded, Reason: "upsert (ON CONFLICT)"}
	if p.kw(j, to, "ON") && p.kw(j+1, to, "CONSTRAINT") { // ON CONFLICT ON CONSTRAINT name
		j += 3
	}
	do := -1
	for k := j; k < to; k++ {
		if p.is(k, to, '(') {
			k = p.close(k, to)
			continue
		}
		if p.kw(k, to, "DO") || p.kw(k, to, "RETURNING") || p.kw(k, to, "ON") {
			if p.kw(k, to, "DO") {
				do = k
			}
			break
		}
	}
	if do < 0 {
		end := p.findOr(j, to, "RETURNING", "ON")
		if p.hasHole(j, end) {
			return Result{Class: Unknown, Reason: "upsert action not known (text built at run time)"}, end
		}
		return guarded, end
	}
	if p.kw(do+1, to, "NOTHING") {
		return guarded, do + 2
	}
	if !p.kw(do+1, to, "UPDATE") || !p.kw(do+2, to, "SET") {
		if p.isHole(do+1, to) {
			return Result{Class: Unknown, Reason: "upsert action not known (text built at run time)"}, p.findOr(do+1, to, "RETURNING", "ON")
		}
		return guarded, do + 1
	}
	from := do + 3
	listEnd := p.findOr(from, to, "WHERE", "RETURNING", "ON")
	wFrom, wTo := -1, -1
	stop := listEnd
	if p.kw(listEnd, to, "WHERE") {
		wFrom = listEnd + 1
		wTo = p.findOr(wFrom, to, "RETURNING", "ON")
		stop = wTo
	}
	c := setCtx{tgt: tgt, excl: "excluded", anyQual: true}
	v, col := p.judgeSet(from, listEnd, wFrom, wTo, &c)
	switch v {
	case setUnknown:
		return Result{Class: Unknown, Reason: "upsert update not known (text built at run time)"}, stop
	case setRelative:
		return Result{Class: NonIdempotent, Reason: "upsert with relative update of " + p.name(col)}, stop
	case setCondHole:
		return Result{Class: Unknown, Reason: "upsert condition not known (text built at run time)"}, stop
	case setRelativeConditional:
		return Result{Class: Guarded, Reason: "upsert with conditional update"}, stop
	}
	return guarded, stop
}

// onDuplicate reads MySQL's ON DUPLICATE KEY UPDATE list from j; it runs to the end.
func (p *parser) onDuplicate(j, to int, tgt target, rowAlias string) (Result, int) {
	c := setCtx{tgt: tgt, excl: rowAlias, anyQual: true, valuesFn: true}
	v, col := p.judgeSet(j, to, -1, -1, &c)
	switch v {
	case setUnknown:
		return Result{Class: Unknown, Reason: "upsert update not known (text built at run time)"}, to
	case setRelative:
		return Result{Class: NonIdempotent, Reason: "upsert with relative update of " + p.name(col)}, to
	}
	return Result{Class: Guarded, Reason: "upsert (ON DUPLICATE KEY UPDATE)"}, to
}

// update classifies UPDATE: absolute, relative, or a conditional state transition.
func (p *parser) update(i, to int) Result {
	j := i + 1
	for {
		switch {
		case p.kw(j, to, "ONLY"), p.kw(j, to, "LOW_PRIORITY"), p.kw(j, to, "IGNORE"):
			j++
			continue
		case p.kw(j, to, "OR"): // SQLite UPDATE OR IGNORE
			j += 2
			continue
		}
		break
	}
	tgt, j := p.target(j, to)
	if p.op(j, to, "*") { // PostgreSQL: UPDATE t * (with descendant tables)
		j++
	}
	if p.kw(j, to, "AS") {
		j++
	}
	if p.isName(j, to) && !p.isClauseWord(j, to) {
		tgt.alias = p.name(j)
	}
	set := p.find(j, to, "SET")
	if set < 0 {
		if p.hasHole(i, to) {
			return Result{Class: Unknown, Reason: "SET list not known (text built at run time)"}
		}
		return Result{Class: Unknown, Reason: reasonNotUnders}
	}
	listEnd := p.findOr(set+1, to, "FROM", "WHERE", "RETURNING", "ORDER", "LIMIT", "OUTPUT")
	wFrom, wTo := -1, -1
	if w := p.find(listEnd, to, "WHERE"); w >= 0 {
		wFrom = w + 1
		wTo = p.findOr(wFrom, to, "RETURNING", "ORDER", "LIMIT")
	}
	c := setCtx{tgt: tgt}
	v, col := p.judgeSet(set+1, listEnd, wFrom, wTo, &c)
	switch v {
	case setUnknown:
		return Result{Class: Unknown, Reason: "SET list not known (text built at run time)"}
	case setEmpty:
		return Result{Class: Unknown, Reason: reasonNotUnders}
	case setRelative:
		return Result{Class: NonIdempotent, Reason: "relative UPDATE of " + p.name(col)}
	case setCondHole:
		return Result{Class: Unknown, Reason: "update condition not known (text built at run time)"}
	case setRelativeConditional, setAbsoluteConditional:
		return Result{Class: Converging, Reason: "conditional state transition"}
	}
	return Result{Class: Converging, Reason: "absolute UPDATE"}
}

// isClauseWord: words that can follow an UPDATE or MERGE target where an alias could be.
func (p *parser) isClauseWord(j, to int) bool {
	for _, k := range [...]string{"SET", "JOIN", "INNER", "LEFT", "RIGHT", "CROSS", "STRAIGHT_JOIN", "NATURAL",
		"FULL", "USE", "FORCE", "IGNORE", "PARTITION", "USING", "WITH", "FROM"} {
		if p.kw(j, to, k) {
			return true
		}
	}
	return false
}

// merge: MERGE is guarded by its match condition, unless a WHEN MATCHED branch applies a
// relative update, which a repeat applies again.
func (p *parser) merge(i, to int) Result {
	j := i + 1
	if p.kw(j, to, "INTO") {
		j++
	}
	tgt, j := p.target(j, to)
	if p.kw(j, to, "AS") {
		j++
	}
	if p.isName(j, to) && !p.isClauseWord(j, to) {
		tgt.alias = p.name(j)
	}
	res := Result{Class: Guarded, Reason: "MERGE"}
	for k := p.find(j, to, "WHEN"); k >= 0; k = p.find(k+1, to, "WHEN") {
		then := p.find(k+1, p.findOr(k+1, to, "WHEN"), "THEN")
		if then < 0 {
			continue
		}
		cFrom, cTo := -1, -1
		if and := p.find(k+1, then, "AND"); and >= 0 {
			cFrom, cTo = and+1, then
		}
		if p.isHole(then+1, to) {
			res = worse(res, Result{Class: Unknown, Reason: "MERGE action not known (text built at run time)"})
			continue
		}
		if !p.kw(then+1, to, "UPDATE") || !p.kw(then+2, to, "SET") {
			continue
		}
		from := then + 3
		c := setCtx{tgt: tgt}
		v, col := p.judgeSet(from, p.findOr(from, to, "WHEN", "WHERE", "DELETE"), cFrom, cTo, &c)
		switch v {
		case setUnknown:
			res = worse(res, Result{Class: Unknown, Reason: "MERGE update not known (text built at run time)"})
		case setRelative:
			res = worse(res, Result{Class: NonIdempotent, Reason: "MERGE with relative update of " + p.name(col)})
		case setCondHole:
			res = worse(res, Result{Class: Unknown, Reason: "MERGE condition not known (text built at run time)"})
		}
	}
	return res
}

// create: CREATE fails on a repeat unless IF NOT EXISTS or OR REPLACE makes it converge.
func (p *parser) create(i, to int) Result {
	if p.kw(i+1, to, "OR") && (p.kw(i+2, to, "REPLACE") || p.kw(i+2, to, "ALTER")) {
		return Result{Class: Converging, Reason: "CREATE OR REPLACE"}
	}
	if p.ifExists(i+1, to) {
		return Result{Class: Converging, Reason: "CREATE IF NOT EXISTS"}
	}
	if p.isHole(i+1, to) || i+1 >= to {
		return Result{Class: Unknown, Reason: reasonDDLHole}
	}
	return Result{Class: NonIdempotent, Reason: "CREATE without IF NOT EXISTS"}
}

// drop mirrors create: without IF EXISTS the repeat fails.
func (p *parser) drop(i, to int) Result {
	if p.ifExists(i+1, to) {
		return Result{Class: Converging, Reason: "DROP IF EXISTS"}
	}
	if p.isHole(i+1, to) || i+1 >= to {
		return Result{Class: Unknown, Reason: reasonDDLHole}
	}
	return Result{Class: NonIdempotent, Reason: "DROP without IF EXISTS"}
}

// alter: most ALTER actions converge (SET, TYPE, OWNER TO, DROP DEFAULT); adding,
// dropping or renaming an object fails on a repeat unless guarded by IF [NOT] EXISTS.
func (p *parser) alter(i, to int) Result {
	for k := i + 1; k < to; k++ {
		if p.is(k, to, '(') {
			k = p.close(k, to)
			continue
		}
		switch {
		case p.kw(k, to, "ADD"):
			n := k + 1
			if p.kw(n, to, "COLUMN") || p.kw(n, to, "VALUE") {
				n++
			}
			if !(p.kw(n, to, "IF") && p.kw(n+1, to, "NOT") && p.kw(n+2, to, "EXISTS")) {
				return Result{Class: NonIdempotent, Reason: "ALTER ... ADD without IF NOT EXISTS"}
			}
		case p.kw(k, to, "DROP"):
			n := k + 1
			if p.kw(n, to, "DEFAULT") || p.kw(n, to, "NOT") || p.kw(n, to, "EXPRESSION") || p.kw(n, to, "IDENTITY") {
				continue
			}
			if p.kw(n, to, "COLUMN") || p.kw(n, to, "CONSTRAINT") || p.kw(n, to, "INDEX") || p.kw(n, to, "KEY") ||
				p.kw(n, to, "PARTITION") {
				n++
			}
			if !(p.kw(n, to, "IF") && p.kw(n+1, to, "EXISTS")) {
				return Result{Class: NonIdempotent, Reason: "ALTER ... DROP without IF EXISTS"}
			}
		case p.kw(k, to, "RENAME"):
			return Result{Class: NonIdempotent, Reason: "ALTER ... RENAME fails on a repeat"}
		}
	}
	if p.hasHole(i+1, to) {
		return Result{Class: Unknown, Reason: reasonDDLHole}
	}
	return Result{Class: Converging, Reason: "ALTER"}
}

// copyStmt: COPY ... FROM appends the rows again; COPY ... TO only reads.
func (p *parser) copyStmt(i, to int) Result {
	switch k := p.find(i+1, to, "FROM", "TO"); {
	case p.kw(k, to, "FROM"):
		return Result{Class: NonIdempotent, Reason: "COPY FROM appends rows"}
	case k >= 0:
		return Result{Class: Read, Reason: "COPY TO"}
	}
	if p.hasHole(i+1, to) {
		return Result{Class: Unknown, Reason: "statement text not known"}
	}
	return Result{Class: Unknown, Reason: reasonNotUnders}
}

// load: MySQL LOAD DATA appends rows unless REPLACE or IGNORE handles duplicate keys;
// other LOADs (PostgreSQL LOAD 'library') only change the session.
func (p *parser) load(i, to int) Result {
	if !p.kw(i+1, to, "DATA") && !p.kw(i+1, to, "XML") {
		return Result{Class: Read, Reason: reasonSession}
	}
	into := p.findOr(i+2, to, "INTO")
	if p.find(i+2, into, "REPLACE", "IGNORE") >= 0 {
		return Result{Class: Guarded, Reason: "LOAD DATA with REPLACE or IGNORE"}
	}
	return Result{Class: NonIdempotent, Reason: "LOAD DATA appends rows"}
}

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

// judgeSet reads the assignments in [from, to) and the condition in [wFrom, wTo) (both
// -1 when there is none). col is the LHS column of the first relative assignment.
func (p *parser) judgeSet(from, to, wFrom, wTo int, c *setCtx) (v setVerdict, col int) {
	col = -1
	items := 0
	for it := from; it < to; {
		end := p.itemEnd(it, to)
		eq := p.eqAt(it, end)
		switch {
		case eq < 0:
			if p.hasHole(it, end) {
				return setUnknown, -1
			}
		case p.hasHole(it, eq):
			return setUnknown, -1
		default:
			items++
			if sr := p.selfRef(it, eq, end, c); col < 0 && sr >= 0 && !VersionColumn(p.name(sr)) {
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
		cond, hole = p.constrains(wFrom, wTo, from, to, c)
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

// itemEnd returns the index of the ',' ending the list item at it, or to.
func (p *parser) itemEnd(it, to int) int {
	for k := it; k < to; k++ {
		if p.is(k, to, '(') {
			k = p.close(k, to)
			continue
		}
		if p.is(k, to, ',') {
			return k
		}
	}
	return to
}

// eqAt returns the index of the '=' at depth 0 in [from, to), or -1.
func (p *parser) eqAt(from, to int) int {
	for k := from; k < to; k++ {
		if p.is(k, to, '(') {
			k = p.close(k, to)
			continue
		}
		if p.is(k, to, '=') {
			return k
		}
	}
	return -1
}

// maxTuple bounds how many columns of a tuple assignment "(a, b, ...) = ..." are checked,
// keeping the cost linear on hostile input.
const maxTuple = 64

// lhsRange returns the range holding the column names the left side [from, eq) of an
// assignment sets: the inside of "(a, b)", or the side itself.
func (p *parser) lhsRange(from, eq int) (int, int) {
	if p.is(from, eq, '(') {
		return from + 1, p.close(from, eq)
	}
	return from, eq
}

// column returns the last name (the column) and the one before it (its qualifier, or -1)
// of the name chain at the start of [from, to): "col", "t.col", "s.t.col", "col[1]".
func (p *parser) column(from, to int) (col, qual int) {
	col, qual = -1, -1
	for k := from; p.isName(k, to); k += 2 {
		qual, col = col, k
		if !p.is(k+1, to, '.') {
			break
		}
	}
	return col, qual
}

// selfRef returns the LHS column of the assignment [from, end) (with '=' at eq) if the
// right side reads it, or -1.
func (p *parser) selfRef(from, eq, end int, c *setCtx) int {
	lf, lt := p.lhsRange(from, eq)
	for k, n := lf, 0; k < lt && n < maxTuple; k, n = p.itemEnd(k, lt)+1, n+1 {
		col, qual := p.column(k, lt)
		if col < 0 {
			continue
		}
		qn := ""
		if qual >= 0 {
			qn = p.name(qual)
		}
		if p.refers(eq+1, end, p.name(col), qn, c) {
			return col
		}
	}
	return -1
}

// refers reports whether the expression [from, to) reads column col of the target.
// lhsQual is the qualifier the assignment used for col, which also names the target. A
// reference that is the whole expression (col = col), or a whole argument of an
// idempotent function that is the whole expression (COALESCE(col, $1), GREATEST(col, $1)),
// does not count: applying such an expression twice gives the same value.
func (p *parser) refers(from, to int, col, lhsQual string, c *setCtx) bool {
	found := false
	p.refs(from, to, c, lhsQual, func(start, end, depth int) bool {
		found = eqFold(p.name(end), col) && !p.wrapped(start, end, depth, from, to) && !p.objectMerge(start, end, from, to)
		return found
	})
	return found
}

// refs calls fn with the first and last token and the parenthesis depth of every column
// reference in [from, to) that may mean the target's column, until fn returns true. Function names, type names
// after "::", columns of other tables, and unqualified names inside subqueries (which
// belong to the subquery's own tables) are not references.
func (p *parser) refs(from, to int, c *setCtx, lhsQual string, fn func(start, end, depth int) bool) {
	subEnd := -1
	depth := 0
	for i := from; i < to; i++ {
		if subEnd >= 0 && i >= subEnd {
			subEnd = -1
		}
		switch {
		case subEnd < 0 && p.isSubquery(i, to):
			subEnd = p.close(i, to)
			depth++
			continue
		case p.is(i, to, '('):
			depth++
			continue
		case p.is(i, to, ')'):
			depth--
			continue
		case c.valuesFn && p.kw(i, to, "VALUES") && p.is(i+1, to, '('):
			i = p.close(i+1, to)
			continue
		case !p.isName(i, to) && !p.isHole(i, to):
			continue
		}
		start, end := i, i
		for p.is(end+1, to, '.') && (p.isName(end+2, to) || p.isHole(end+2, to)) {
			end += 2
		}
		i = end
		if p.is(end+1, to, '(') || p.op(start-1, to, "::") || p.isHole(end, to) {
			continue
		}
		if end > start {
			if !p.qualIsTarget(end-2, lhsQual, c) {
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

func (p *parser) qualIsTarget(q int, lhsQual string, c *setCtx) bool {
	if p.isHole(q, len(p.toks)) {
		return c.anyQual || c.tgt.hole
	}
	qn := p.name(q)
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
func (p *parser) wrapped(start, end, depth, from, to int) bool {
	if start == from && end == to-1 {
		return true // col = col
	}
	if depth != 1 || !(p.toks[from].kind == tWord && isIdempotentFn(p.text(from)) &&
		p.is(from+1, to, '(') && p.close(from+1, to) == to-1) {
		return false
	}
	return (start-1 == from+1 || p.is(start-1, to, ',')) && (end+1 == to-1 || p.is(end+1, to, ','))
}

// objectMerge reports whether the reference [start, end] is the column of a JSON object
// merge that is the whole expression [from, to): COALESCE(col, '{}') || v, the empty
// object cast or not. An object merge sets v's keys, so merging v again changes nothing;
// without the '{}' the column could hold an array or text, which || appends to.
func (p *parser) objectMerge(start, end, from, to int) bool {
	if !(p.kw(from, to, "COALESCE") && p.is(from+1, to, '(') && start == from+2 && p.is(end+1, to, ',')) {
		return false
	}
	lit := end + 2
	if lit >= to || p.toks[lit].kind != tString || p.text(lit) != "'{}'" {
		return false
	}
	k := lit + 1
	if p.op(k, to, "::") && (p.kw(k+1, to, "JSONB") || p.kw(k+1, to, "JSON")) {
		k += 2
	}
	closing := p.close(from+1, to)
	return k == closing && p.op(closing+1, to, "||") && closing+2 < to
}

// isIdempotentFn: f(f(x, v), v) == f(x, v) for these, so col = f(col, v) converges.
func isIdempotentFn(w string) bool {
	return eqFold(w, "COALESCE") || eqFold(w, "GREATEST") || eqFold(w, "LEAST") || eqFold(w, "IFNULL") ||
		eqFold(w, "NVL") || eqFold(w, "ISNULL") || eqFold(w, "MAX") || eqFold(w, "MIN")
}

// constrains reports whether the condition [wFrom, wTo) tests a column that the
// assignment list [setFrom, setTo) sets, in a way the first run makes false: the
// statement is then a state transition that a repeat does not apply again
// ("SET status = 'done' ... WHERE status = 'pending'", optimistic locking on version).
// hole reports a predicate built at run time, which could be such a test.
func (p *parser) constrains(wFrom, wTo, setFrom, setTo int, c *setCtx) (constrained, hole bool) {
	for i := wFrom; i < wTo; i++ {
		if p.isHole(i, wTo) && p.predicateStart(i-1, wFrom) {
			hole = true
		}
	}
	budget := maxCondRefs
	p.refs(wFrom, wTo, c, "", func(start, end, _ int) bool {
		found, rel := p.assigned(setFrom, setTo, p.name(end), c)
		constrained = found && p.testsColumn(start, end, wFrom, wTo, rel)
		budget--
		return constrained || budget == 0
	})
	return constrained, hole
}

// maxCondRefs bounds how many column references of a condition are matched against the
// assignment list, keeping the cost linear on hostile input.
const maxCondRefs = 256

// predicateStart reports whether the token after index prev starts a predicate in a
// condition starting at wFrom: after WHERE, AND, OR, NOT or a grouping '('.
func (p *parser) predicateStart(prev, wFrom int) bool {
	n := len(p.toks)
	for prev >= wFrom && p.is(prev, n, '(') {
		prev--
	}
	return prev < wFrom || p.kw(prev, n, "AND") || p.kw(prev, n, "OR") || p.kw(prev, n, "NOT") || p.kw(prev, n, "WHERE")
}

// assigned reports whether the list [from, to) sets column col, and whether relatively.
func (p *parser) assigned(from, to int, col string, c *setCtx) (found, relative bool) {
	for it := from; it < to; {
		end := p.itemEnd(it, to)
		if eq := p.eqAt(it, end); eq >= 0 {
			lf, lt := p.lhsRange(it, eq)
			for k, n := lf, 0; k < lt && n < maxTuple; k, n = p.itemEnd(k, lt)+1, n+1 {
				if col0, _ := p.column(k, lt); col0 >= 0 && eqFold(p.name(col0), col) {
					return true, p.selfRef(it, eq, end, c) >= 0
				}
			}
		}
		it = end + 1
	}
	return false, false
}

// testsColumn reports whether the reference [start, end] in the condition [wFrom, wTo) is
// tested in a way that an assignment to it can make false. Equality, inequality, IN, IS
// and LIKE tests and bare booleans all can. Ordering tests (<, >, BETWEEN) can only when
// the column is set absolutely: "attempts < 5" with attempts = attempts + 1 lets a repeat
// through, "version < $2" with version = $2 does not.
func (p *parser) testsColumn(start, end, wFrom, wTo int, relative bool) bool {
	prev, next := start-1, end+1
	if prev < wFrom {
		prev = -1
	}
	isEq := func(i int) bool {
		return p.op(i, wTo, "=") || p.op(i, wTo, "<>") || p.op(i, wTo, "!=") || p.op(i, wTo, "^=") || p.op(i, wTo, "==")
	}
	isOrd := func(i int) bool {
		return p.op(i, wTo, "<") || p.op(i, wTo, ">") || p.op(i, wTo, "<=") || p.op(i, wTo, ">=")
	}
	switch {
	case p.kw(next, wTo, "IS"), p.kw(next, wTo, "IN"), p.kw(next, wTo, "LIKE"), p.kw(next, wTo, "ILIKE"):
		return true
	case p.kw(next, wTo, "NOT") && (p.kw(next+1, wTo, "IN") || p.kw(next+1, wTo, "LIKE") || p.kw(next+1, wTo, "ILIKE")):
		return true
	case isEq(next) || prev >= 0 && isEq(prev):
		return true
	case p.kw(next, wTo, "BETWEEN"), p.kw(next, wTo, "NOT") && p.kw(next+1, wTo, "BETWEEN"),
		isOrd(next), prev >= 0 && isOrd(prev):
		return !relative
	}
	startOK := prev < 0 || p.kw(prev, wTo, "AND") || p.kw(prev, wTo, "OR") || p.kw(prev, wTo, "NOT") || p.is(prev, wTo, '(')
	endOK := next >= wTo || p.kw(next, wTo, "AND") || p.kw(next, wTo, "OR") || p.is(next, wTo, ')')
	return startOK && endOK
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
