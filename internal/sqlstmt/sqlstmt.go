package sqlstmt

// Hole is the placeholder the analyzer puts where part of the statement text is not known
// at compile time (a non-constant operand of a concatenation, a %s or %v of fmt.Sprintf).
// It is a NUL byte: PostgreSQL rejects NUL anywhere in statement text and the other
// dialects only take it escaped inside literals, so it cannot be confused with real SQL.
// A Hole is read as one opaque name or value; inside a literal or comment it is ignored.
const Hole = "\x00"

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
	c := cursor{s: text, toks: tokenize(text, buf[:0])}
	st := statements{&c}
	var worst Result
	from := 0
	for i := 0; i <= len(c.toks); i++ {
		if i == len(c.toks) || c.is(i, len(c.toks), ';') {
			if i > from {
				worst = worse(worst, st.stmt(from, i, 0))
			}
			from = i + 1
		}
	}
	if worst.Reason == "" {
		return Result{Class: Unknown, Reason: "empty statement text", Unread: true}
	}
	if worst.table[1] > 0 {
		worst.Table = text[worst.table[0]:worst.table[1]]
		worst.table = [2]uint32{}
	}
	return worst
}
