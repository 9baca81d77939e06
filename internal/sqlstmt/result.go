package sqlstmt

import "strconv"

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
	// the readers points into their state (which would move the token buffer to the heap).
	table [2]uint32
	// ConflictParams are, for a one-row INSERT (cols) VALUES (...) ON CONFLICT (target),
	// the numbers of the positional placeholders ($N) inserted into the target's columns
	// (the first four; 0 for none): a caller that binds a value made anew on every run
	// there has no conflict to absorb the repeat.
	ConflictParams [4]uint8
	// OnKey: a Guarded INSERT whose guard is conflict handling on the table's unique keys
	// (ON CONFLICT, ON DUPLICATE KEY UPDATE, IGNORE, OR REPLACE): it absorbs a repeat only
	// if a key the insert fills with the job's values exists.
	OnKey bool
	// Unread: an Unknown whose text says nothing of what it does: no verb is known (the
	// text, or its verb, is built at run time; a word the package does not know) or the
	// text is empty. Unlike an Unknown whose verb is known (INSERT ... + a Hole where the
	// conflict clause may be, a CALL), nothing in it shows that it writes.
	Unread bool
}

// worse returns the worse of a and b, a if they rank the same. A zero a (no Reason) means
// "nothing yet".
func worse(a, b Result) Result {
	if a.Reason == "" || rank[b.Class] > rank[a.Class] {
		return b
	}
	if a.Class == Unknown && b.Class == Unknown && a.Unread && !b.Unread {
		return b // an Unknown whose verb is known says more than one nothing is known of
	}
	return a
}

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

// ReasonTransitionUpsert is the Reason of an INSERT ... ON CONFLICT DO UPDATE whose update
// is absolute and whose WHERE tests a column it assigns (SET state = 'pending' WHERE
// t.state = 'failed'): a second run finds the row moved on and changes nothing, so the
// analyzer reads its zero rows affected as a claim.
const ReasonTransitionUpsert = "upsert with conditional state transition"
