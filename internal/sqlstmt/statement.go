package sqlstmt

// statements reads one statement's verb and hands it to the reader of that kind of
// statement. It holds the statements that contain other statements (EXPLAIN ANALYZE, WITH,
// T-SQL IF NOT EXISTS), because classifying those recurses into stmt; every other kind
// is read by a type of its own below, which never comes back here.
type statements struct{ *cursor }

// maxDepth bounds nesting (WITH bodies, EXPLAIN ANALYZE, IF NOT EXISTS) so that hostile
// input cannot exhaust the stack.
const maxDepth = 32

// stmt classifies the statement in [from, to), which holds no ';'.
func (st statements) stmt(from, to, depth int) Result {
	if depth > maxDepth {
		return Result{Class: Unknown, Reason: "statement nested too deeply"}
	}
	i := from
	for i < to && st.is(i, to, '(') { // (SELECT ...) UNION (SELECT ...)
		i++
	}
	if i >= to {
		return Result{Class: Unknown, Reason: reasonNotUnders, Unread: true}
	}
	switch st.toks[i].kind {
	case tWord:
	case tHole:
		for j := from; j < to; j++ {
			if st.toks[j].kind != tHole && !st.is(j, to, '(') && !st.is(j, to, ')') {
				return Result{Class: Unknown, Reason: "statement verb not known (text built at run time)", Unread: true}
			}
		}
		return Result{Class: Unknown, Reason: "statement text not known", Unread: true}
	default:
		return Result{Class: Unknown, Reason: reasonNotUnders, Unread: true}
	}
	w := st.text(i)
	switch {
	case eqFold(w, "SELECT"):
		return st.selectStmt(i, to)
	case eqFold(w, "VALUES"), eqFold(w, "TABLE"), eqFold(w, "SHOW"), eqFold(w, "DESCRIBE"), eqFold(w, "DESC"):
		return Result{Class: Read, Reason: reasonRead}
	case eqFold(w, "EXPLAIN"):
		return st.explain(i, to, depth)
	case eqFold(w, "WITH"):
		return st.with(i, to, depth)
	case eqFold(w, "INSERT"):
		return inserts{st.cursor}.insert(i, to)
	case eqFold(w, "UPSERT"): // CockroachDB
		return Result{Class: Guarded, Reason: "UPSERT"}
	case eqFold(w, "REPLACE"): // MySQL, SQLite: delete-then-insert on a key conflict
		return Result{Class: Guarded, Reason: "REPLACE INTO"}
	case eqFold(w, "UPDATE"):
		return updates{st.cursor}.update(i, to)
	case eqFold(w, "DELETE"):
		return Result{Class: Converging, Reason: "DELETE"}
	case eqFold(w, "MERGE"):
		return updates{st.cursor}.merge(i, to)
	case eqFold(w, "TRUNCATE"):
		return Result{Class: Converging, Reason: "TRUNCATE"}
	case eqFold(w, "CREATE"):
		return ddl{st.cursor}.create(i, to)
	case eqFold(w, "DROP"):
		return ddl{st.cursor}.drop(i, to)
	case eqFold(w, "ALTER"):
		return ddl{st.cursor}.alter(i, to)
	case eqFold(w, "RENAME"):
		return Result{Class: NonIdempotent, Reason: "RENAME fails on a repeat"}
	case eqFold(w, "COPY"):
		return bulkLoads{st.cursor}.copyStmt(i, to)
	case eqFold(w, "LOAD"):
		return bulkLoads{st.cursor}.load(i, to)
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
		eqFold(w, "DISCARD"), eqFold(w, "PRAGMA"), eqFold(w, "ATTACH"), eqFold(w, "DETACH"),
		eqFold(w, "INSTALL"), eqFold(w, "FORCE") && st.kw(i+1, to, "INSTALL"):
		// No persistent write. PREPARE only names a statement; running it is EXECUTE.
		// ATTACH and DETACH (SQLite, DuckDB) open and close a database for the session;
		// DuckDB's INSTALL fetches an extension once and a repeat finds it installed.
		return Result{Class: Read, Reason: reasonSession}
	case eqFold(w, "CALL"), eqFold(w, "EXEC"), eqFold(w, "EXECUTE"):
		return Result{Class: Unknown, Reason: "procedure call (effect not known)"}
	case eqFold(w, "DO"):
		return Result{Class: Unknown, Reason: "code block (effect not known)"}
	case eqFold(w, "IF"):
		return st.ifStmt(i, to, depth)
	}
	return Result{Class: Unknown, Reason: reasonNotUnders, Unread: true}
}

// selectStmt: a SELECT reads, except PostgreSQL's SELECT ... INTO new_table, which is
// CREATE TABLE AS and fails on a repeat (INTO TEMP: the session's scratch, as CREATE
// TEMPORARY TABLE is). MySQL's INTO @var / OUTFILE are not tables.
func (st statements) selectStmt(i, to int) Result {
	if j := st.find(i+1, to, "INTO"); j >= 0 {
		k := j + 1
		if st.kw(k, to, "TEMP") || st.kw(k, to, "TEMPORARY") {
			return Result{Class: Converging, Reason: reasonTemporary}
		}
		for st.kw(k, to, "UNLOGGED") || st.kw(k, to, "TABLE") {
			k++
		}
		if (st.isName(k, to) || st.isHole(k, to)) && !st.kw(k, to, "OUTFILE") && !st.kw(k, to, "DUMPFILE") {
			return Result{Class: NonIdempotent, Reason: "SELECT INTO creates a table"}
		}
	}
	return Result{Class: Read, Reason: reasonRead}
}

// explain: EXPLAIN only plans; EXPLAIN ANALYZE also runs the statement.
func (st statements) explain(i, to, depth int) Result {
	j := i + 1
	analyze := false
	if st.is(j, to, '(') { // EXPLAIN (ANALYZE, BUFFERS) ...
		end := st.close(j, to)
		for k := j + 1; k < end; k++ {
			if st.kw(k, end, "ANALYZE") || st.kw(k, end, "ANALYSE") {
				n := k + 1
				analyze = !(st.kw(n, end, "FALSE") || st.kw(n, end, "OFF") ||
					n < end && st.toks[n].kind == tNumber && st.text(n) == "0")
			}
		}
		j = end + 1
	}
	for j < to {
		switch {
		case st.kw(j, to, "ANALYZE"), st.kw(j, to, "ANALYSE"):
			analyze = true
		case st.kw(j, to, "VERBOSE"), st.kw(j, to, "EXTENDED"), st.kw(j, to, "PARTITIONS"),
			st.kw(j, to, "QUERY"), st.kw(j, to, "PLAN"):
		case st.kw(j, to, "FORMAT"): // MySQL FORMAT=JSON
			if st.op(j+1, to, "=") {
				j++
			}
			j++
		default:
			if analyze {
				return st.stmt(j, to, depth+1)
			}
			return Result{Class: Read, Reason: "EXPLAIN without ANALYZE"}
		}
		j++
	}
	return Result{Class: Read, Reason: "EXPLAIN without ANALYZE"}
}

// with classifies every CTE body and the main statement; the worst decides, so a
// data-modifying CTE makes the whole statement a write.
func (st statements) with(i, to, depth int) Result {
	n := st.nctes
	r := st.withList(i, to, depth)
	st.nctes = n // the entries are in view of this statement only
	return r
}

func (st statements) withList(i, to, depth int) Result {
	var worst Result
	j := i + 1
	if st.kw(j, to, "RECURSIVE") {
		j++
	}
	for {
		if !st.isName(j, to) && !st.isHole(j, to) {
			return worse(worst, Result{Class: Unknown, Reason: "WITH clause not understood"})
		}
		name := j
		j++
		if st.is(j, to, '(') { // column list
			j = st.close(j, to) + 1
		}
		if !st.kw(j, to, "AS") {
			return worse(worst, Result{Class: Unknown, Reason: "WITH clause not understood"})
		}
		j++
		if st.kw(j, to, "NOT") {
			j++
		}
		if st.kw(j, to, "MATERIALIZED") {
			j++
		}
		if !st.is(j, to, '(') {
			return worse(worst, Result{Class: Unknown, Reason: "WITH clause not understood"})
		}
		end := st.close(j, to)
		claims := false
		if end > j+1 {
			r := st.stmt(j+1, end, depth+1)
			worst = worse(worst, r)
			claims = st.find(j+1, end, "RETURNING") >= 0 &&
				(st.kw(j+1, end, "UPDATE") && r.Reason == reasonTransition || st.kw(j+1, end, "DELETE"))
		}
		if st.isName(name, to) && st.nctes < maxCTEs {
			st.ctes[st.nctes] = cte{name: name, from: j + 1, to: end, claims: claims}
			st.nctes++
		}
		j = end + 1
		// Skip SEARCH / CYCLE clauses up to the next CTE or the main statement.
		for j < to && !st.is(j, to, ',') && !st.is(j, to, '(') && !st.isVerb(j, to) {
			j++
		}
		if !st.is(j, to, ',') {
			break
		}
		j++
	}
	if j >= to {
		return worse(worst, Result{Class: Unknown, Reason: "WITH without a main statement"})
	}
	return worse(worst, st.stmt(j, to, depth+1))
}

func (st statements) isVerb(j, to int) bool {
	return st.kw(j, to, "SELECT") || st.kw(j, to, "INSERT") || st.kw(j, to, "UPDATE") || st.kw(j, to, "DELETE") ||
		st.kw(j, to, "MERGE") || st.kw(j, to, "VALUES") || st.kw(j, to, "TABLE")
}

// ifStmt understands the T-SQL guard IF NOT EXISTS (SELECT ...) INSERT ...
func (st statements) ifStmt(i, to, depth int) Result {
	if !st.kw(i+1, to, "NOT") || !st.kw(i+2, to, "EXISTS") || !st.is(i+3, to, '(') {
		return Result{Class: Unknown, Reason: reasonNotUnders}
	}
	j := st.close(i+3, to) + 1
	if st.kw(j, to, "BEGIN") { // the block's END follows the next ';' and reads as its own statement
		j++
	}
	if j >= to {
		return Result{Class: Unknown, Reason: reasonNotUnders}
	}
	r := st.stmt(j, to, depth+1)
	if r.Reason == reasonInsert || r.Reason == reasonHoleInsert {
		return Result{Class: Guarded, Reason: reasonNotExists}
	}
	return r
}
