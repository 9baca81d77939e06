package sqlstmt

// ddl classifies CREATE, DROP and ALTER, which fail on a repeat unless IF [NOT] EXISTS
// or OR REPLACE lets the second run find nothing to do.
type ddl struct{ *cursor }

// create: CREATE fails on a repeat unless IF NOT EXISTS or OR REPLACE makes it converge.
func (d ddl) create(i, to int) Result {
	if d.kw(i+1, to, "OR") && (d.kw(i+2, to, "REPLACE") || d.kw(i+2, to, "ALTER")) {
		return Result{Class: Converging, Reason: "CREATE OR REPLACE"}
	}
	if d.ifExists(i+1, to) {
		return Result{Class: Converging, Reason: "CREATE IF NOT EXISTS"}
	}
	if d.temporary(i+1, to) {
		return Result{Class: Converging, Reason: reasonTemporary}
	}
	if d.isHole(i+1, to) || i+1 >= to {
		return Result{Class: Unknown, Reason: reasonDDLHole}
	}
	return Result{Class: NonIdempotent, Reason: "CREATE without IF NOT EXISTS"}
}

// reasonTemporary says why a temporary table is no effect: it is the session's scratch
// (dropped at commit with ON COMMIT DROP, else when the session ends), which the job's data
// never outlives; a repeat makes it anew.
const reasonTemporary = "CREATE TEMPORARY TABLE (the session's scratch)"

// temporary reports whether the tokens at i start [GLOBAL | LOCAL] TEMP | TEMPORARY TABLE.
func (d ddl) temporary(i, to int) bool {
	if d.kw(i, to, "GLOBAL") || d.kw(i, to, "LOCAL") {
		i++
	}
	return (d.kw(i, to, "TEMP") || d.kw(i, to, "TEMPORARY")) && d.kw(i+1, to, "TABLE")
}

// drop mirrors create: without IF EXISTS the repeat fails.
func (d ddl) drop(i, to int) Result {
	if d.ifExists(i+1, to) {
		return Result{Class: Converging, Reason: "DROP IF EXISTS"}
	}
	if d.isHole(i+1, to) || i+1 >= to {
		return Result{Class: Unknown, Reason: reasonDDLHole}
	}
	return Result{Class: NonIdempotent, Reason: "DROP without IF EXISTS"}
}

// alter: most ALTER actions converge (SET, TYPE, OWNER TO, DROP DEFAULT); adding,
// dropping or renaming an object fails on a repeat unless guarded by IF [NOT] EXISTS.
func (d ddl) alter(i, to int) Result {
	for k := i + 1; k < to; k++ {
		if d.is(k, to, '(') {
			k = d.close(k, to)
			continue
		}
		switch {
		case d.kw(k, to, "ADD"):
			n := k + 1
			if d.kw(n, to, "COLUMN") || d.kw(n, to, "VALUE") {
				n++
			}
			if !(d.kw(n, to, "IF") && d.kw(n+1, to, "NOT") && d.kw(n+2, to, "EXISTS")) {
				return Result{Class: NonIdempotent, Reason: "ALTER ... ADD without IF NOT EXISTS"}
			}
		case d.kw(k, to, "DROP"):
			n := k + 1
			if d.kw(n, to, "DEFAULT") || d.kw(n, to, "NOT") || d.kw(n, to, "EXPRESSION") || d.kw(n, to, "IDENTITY") {
				continue
			}
			if d.kw(n, to, "COLUMN") || d.kw(n, to, "CONSTRAINT") || d.kw(n, to, "INDEX") || d.kw(n, to, "KEY") ||
				d.kw(n, to, "PARTITION") {
				n++
			}
			if !(d.kw(n, to, "IF") && d.kw(n+1, to, "EXISTS")) {
				return Result{Class: NonIdempotent, Reason: "ALTER ... DROP without IF EXISTS"}
			}
		case d.kw(k, to, "RENAME"):
			return Result{Class: NonIdempotent, Reason: "ALTER ... RENAME fails on a repeat"}
		}
	}
	if d.hasHole(i+1, to) {
		return Result{Class: Unknown, Reason: reasonDDLHole}
	}
	return Result{Class: Converging, Reason: "ALTER"}
}

// ifExists reports whether IF [NOT] EXISTS appears at depth 0.
func (d ddl) ifExists(from, to int) bool {
	for i := d.find(from, to, "IF"); i >= 0; i = d.find(i+1, to, "IF") {
		if d.kw(i+1, to, "EXISTS") || d.kw(i+1, to, "NOT") && d.kw(i+2, to, "EXISTS") {
			return true
		}
	}
	return false
}
