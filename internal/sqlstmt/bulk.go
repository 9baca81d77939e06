package sqlstmt

// bulkLoads classifies COPY and LOAD DATA, which append whole files of rows: only the
// direction (COPY TO reads) or duplicate-key handling (REPLACE, IGNORE) makes a repeat
// harmless.
type bulkLoads struct{ *cursor }

// copyStmt: COPY ... FROM appends the rows again; COPY ... TO only reads.
func (b bulkLoads) copyStmt(i, to int) Result {
	switch k := b.find(i+1, to, "FROM", "TO"); {
	case b.kw(k, to, "FROM"):
		return Result{Class: NonIdempotent, Reason: "COPY FROM appends rows"}
	case k >= 0:
		return Result{Class: Read, Reason: "COPY TO"}
	}
	if b.hasHole(i+1, to) {
		return Result{Class: Unknown, Reason: "statement text not known"}
	}
	return Result{Class: Unknown, Reason: reasonNotUnders}
}

// load: MySQL LOAD DATA appends rows unless REPLACE or IGNORE handles duplicate keys;
// other LOADs (PostgreSQL LOAD 'library') only change the session.
func (b bulkLoads) load(i, to int) Result {
	if !b.kw(i+1, to, "DATA") && !b.kw(i+1, to, "XML") {
		return Result{Class: Read, Reason: reasonSession}
	}
	into := b.findOr(i+2, to, "INTO")
	if b.find(i+2, into, "REPLACE", "IGNORE") >= 0 {
		return Result{Class: Guarded, Reason: "LOAD DATA with REPLACE or IGNORE"}
	}
	return Result{Class: NonIdempotent, Reason: "LOAD DATA appends rows"}
}
