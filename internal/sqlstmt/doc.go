// Package sqlstmt classifies the text of an SQL statement by what happens if it runs
// twice.
//
// Job queues and message brokers deliver at least once, so a handler's statements may run
// a second time after a crash, a lease expiry or a redelivery. The analyzer reconstructs
// the statement text a handler executes (with a [Hole] wherever the text is only known at
// run time) and asks [Classify] which of five classes it falls in:
//
//   - [Read]: nothing is written (SELECT, SHOW, EXPLAIN without ANALYZE, VALUES, a WITH
//     whose bodies all read, transaction and session control). A repeat is harmless.
//   - [Converging]: a repeat leaves the state the first run left. An absolute UPDATE
//     (SET status = 'done', SET x = $1) writes the same values again; a conditional
//     state transition (UPDATE ... SET status = 'done' ... WHERE status = 'pending', or
//     optimistic locking on a version column) matches no row the second time; DELETE,
//     TRUNCATE, and DDL with IF [NOT] EXISTS or OR REPLACE have nothing left to do.
//   - [Guarded]: a write whose repeat is absorbed by conflict handling on a key: INSERT
//     ... ON CONFLICT, INSERT IGNORE, ON DUPLICATE KEY UPDATE, INSERT OR IGNORE / OR
//     REPLACE, REPLACE INTO, UPSERT, MERGE, and INSERT ... SELECT ... WHERE NOT EXISTS.
//     These are the "unique constraint plus upsert" enforcement of the idempotency
//     checklist: they are safe as long as the key is stable across retries, which the
//     analyzer checks separately.
//   - [NonIdempotent]: a repeat changes the state again or fails: INSERT without conflict
//     handling (a duplicate row), a relative UPDATE (SET balance = balance - $1 applies
//     the amount twice), an upsert whose conflict branch is relative (DO UPDATE SET n =
//     t.n + 1), COPY ... FROM, NOTIFY, and DDL without IF [NOT] EXISTS (the retry fails,
//     so the job never completes).
//   - [Unknown]: the text is not understood (CALL proc(), an unknown verb), or the part
//     that decides the class is built at run time (UPDATE t SET + Hole; a Hole after
//     VALUES, which could be the ON CONFLICT clause). The analyzer decides how to report
//     these; the package never guesses a safe class. An Unknown of which nothing is
//     known, not even its verb (Result.Unread), is told apart from one whose verb is.
//
// Session statements (SET, RESET, USE, PRAGMA, ATTACH, DETACH, INSTALL, LOAD but LOAD
// DATA, transaction control) read. [DeleteKeys] and [InsertBinds] read the two statements
// of the delete-then-insert pattern, for the analyzer to match.
//
// An UPDATE (and the update branch of an upsert or MERGE) is relative when a column it
// sets appears in its own right side: n = n + 1, b = b || $2, t.balance = t.balance - $1.
// Taking a column through an idempotent function that is the whole right side
// (COALESCE(x, $1), GREATEST(n, $1), jsonb_set(doc, '{k}', $1)) is not relative. A relative update whose condition
// tests a column it also sets is a conditional state transition and converges: the
// first run makes the test false (status = 'pending' with SET status = 'done', version =
// $3 with SET version = version + 1, done IS NULL). Ordering tests (attempts < 5) count
// only for columns set absolutely, since incrementing a counter keeps such a test true.
// Bookkeeping columns are not relative whatever they add: an optimistic-locking version
// and a count of attempts (attempts, retry_count: a repeat is one more attempt).
//
// A text with several statements is as bad as its worst statement, in the order
// NonIdempotent, Unknown, Guarded, Converging, Read: a statement known to be unsafe
// decides even if a neighbour is not understood. Data-modifying CTEs count: WITH x AS
// (INSERT ... RETURNING id) SELECT ... is an INSERT.
//
// The reading is lexical, not a full parse, and covers the PostgreSQL, MySQL, SQLite and
// SQL Server forms that handlers use. Comments (nested block comments included), string
// literals (with doubled quotes, E'...' backslash escapes and $tag$ dollar quoting) and
// quoted identifiers never contribute keywords, so a keyword inside them never changes a
// class. Plain '...' literals use standard SQL escaping; MySQL's backslash escapes there
// are not understood.
package sqlstmt
