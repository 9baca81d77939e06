package sqlstmt

import (
	"strconv"
	"strings"
	"testing"
)

// H stands for a Hole in the test texts, so the table stays readable.
const H = Hole

type tcase struct {
	text   string
	class  Class
	reason string // "" means: any reason
}

// cases covers every rule: each is listed with the class the package documents for it.
var cases = []tcase{
	// Reads.
	{"SELECT * FROM t WHERE id = $1", Read, "read-only statement"},
	{"select a from t where b = ? for update", Read, ""},
	{"(SELECT 1) UNION (SELECT 2)", Read, ""},
	{"VALUES (1), (2)", Read, ""},
	{"TABLE jobs", Read, ""},
	{"SHOW search_path", Read, ""},
	{"EXPLAIN INSERT INTO t VALUES (1)", Read, "EXPLAIN without ANALYZE"},
	{"EXPLAIN (ANALYZE false) UPDATE t SET n = n + 1", Read, "EXPLAIN without ANALYZE"},
	{"EXPLAIN QUERY PLAN SELECT 1", Read, ""},
	{"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r", Read, ""},
	{"SELECT a INTO @v FROM t", Read, ""},
	{"COPY t TO STDOUT", Read, "COPY TO"},
	{"COPY (SELECT * FROM t) TO STDOUT", Read, "COPY TO"},
	{"BEGIN", Read, "transaction or session control"},
	{"SET search_path = app", Read, "transaction or session control"},

	// Keywords hidden in comments, strings, quoted identifiers never count.
	{"/* INSERT */ SELECT '-- INSERT' AS \"insert\"", Read, ""},
	{"SELECT $$ INSERT INTO t VALUES (1) $$", Read, ""},
	{"SELECT $fn$ INSERT $$ x; INSERT $$ $fn$; SELECT 1", Read, ""},
	{`SELECT E'it\'s; INSERT INTO t VALUES (1)'`, Read, ""},
	{"SELECT 'it''s; INSERT INTO t VALUES (1)'", Read, ""},
	{"SELECT 1 /* a /* nested */ INSERT INTO t VALUES (1); */", Read, ""},
	{"-- INSERT INTO t VALUES (1)\nSELECT 1", Read, ""},
	{"SELECT `insert` FROM `update`", Read, ""},
	{"UPDATE t SET x = 'a -- b', y = $1 /* , y = y + 1 */", Converging, "absolute UPDATE"},
	{"SELECT 'unterminated; INSERT INTO t VALUES (1)", Read, ""},
	{"SELECT /* unterminated; INSERT INTO t VALUES (1)", Read, ""},
	{"SELECT $x$ unterminated; INSERT INTO t VALUES (1)", Read, ""},
	{"UPDATE t SET n = \"n; UPDATE u SET m = m + 1", Converging, "absolute UPDATE"},
	{"UPDATE t SET n = `n``; UPDATE u SET m = m + 1", Converging, "absolute UPDATE"},

	// Plain INSERT.
	{"INSERT INTO t (a) VALUES ($1)", NonIdempotent, "INSERT without conflict handling"},
	{"insert into t (a) values (:a)", NonIdempotent, "INSERT without conflict handling"},
	{"InSeRt InTo t (a) VaLuEs (@a)", NonIdempotent, "INSERT without conflict handling"},
	{"INSERT INTO t (a) VALUES ($1) RETURNING id", NonIdempotent, "INSERT without conflict handling"},
	{"INSERT INTO t DEFAULT VALUES", NonIdempotent, ""},
	{"INSERT INTO t SET a = 1", NonIdempotent, ""},
	{"INSERT INTO archive SELECT * FROM jobs WHERE done", NonIdempotent, ""},
	{"INSERT OR ABORT INTO t VALUES (1)", NonIdempotent, ""},
	{"INSERT INTO t SELECT * FROM s WHERE NOT EXISTS (SELECT 1 FROM other o WHERE o.id = s.id)", NonIdempotent, ""},
	{"INSERT INTO t SELECT 1 FROM s WHERE x IN (SELECT y FROM s2 WHERE NOT EXISTS (SELECT 1 FROM t))", NonIdempotent, ""},

	// Conflict handling, each dialect.
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO NOTHING", Guarded, "upsert (ON CONFLICT)"},
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id", Guarded, "upsert (ON CONFLICT)"},
	{"insert into t (a) values ($1) on conflict on constraint t_pkey do nothing", Guarded, "upsert (ON CONFLICT)"},
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT ON CONSTRAINT t_pkey DO UPDATE SET n = t.n + 1", NonIdempotent, "upsert with relative update of n"},
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO NOTHING ON CONFLICT DO UPDATE SET n = n + 1", NonIdempotent, ""},
	{"INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT (a) WHERE b IS NOT NULL DO UPDATE SET b = EXCLUDED.b", Guarded, "upsert (ON CONFLICT)"},
	{"INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET (b, c) = (excluded.b, excluded.c)", Guarded, "upsert (ON CONFLICT)"},
	{"INSERT INTO t (a, n) VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET n = GREATEST(t.n, excluded.n)", Guarded, "upsert (ON CONFLICT)"},
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET seen_at = now()", Guarded, ""},
	{"INSERT IGNORE INTO t VALUES (1)", Guarded, "INSERT IGNORE"},
	{"INSERT LOW_PRIORITY IGNORE INTO t VALUES (1)", Guarded, "INSERT IGNORE"},
	{"INSERT INTO t (a, n) VALUES (?, ?) ON DUPLICATE KEY UPDATE n = VALUES(n)", Guarded, "upsert (ON DUPLICATE KEY UPDATE)"},
	{"INSERT INTO t (a, n) VALUES (?, ?) AS new ON DUPLICATE KEY UPDATE n = new.n", Guarded, "upsert (ON DUPLICATE KEY UPDATE)"},
	{"INSERT OR IGNORE INTO t VALUES (1)", Guarded, "INSERT OR IGNORE"},
	{"INSERT OR REPLACE INTO t VALUES (1)", Guarded, "INSERT OR REPLACE"},
	{"REPLACE INTO t VALUES (1)", Guarded, "REPLACE INTO"},
	{"UPSERT INTO t VALUES (1)", Guarded, "UPSERT"},
	{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = s.n WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.n)", Guarded, "MERGE"},
	{"MERGE t AS tgt USING s ON tgt.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id);", Guarded, "MERGE"},
	{"INSERT INTO t (a) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM t WHERE a = $1)", Guarded, "insert guarded by NOT EXISTS"},
	{"INSERT INTO app.t (a) SELECT s.a FROM s WHERE s.a NOT IN (SELECT a FROM app.t)", Guarded, "insert guarded by NOT EXISTS"},
	{"IF NOT EXISTS (SELECT 1 FROM t WHERE a = @a) INSERT INTO t (a) VALUES (@a)", Guarded, "insert guarded by NOT EXISTS"},
	{"IF NOT EXISTS (SELECT 1 FROM t WHERE a = @a) BEGIN INSERT INTO t (a) VALUES (@a); END", Guarded, "insert guarded by NOT EXISTS"},
	{"LOAD DATA INFILE 'f' REPLACE INTO TABLE t", Guarded, ""},

	// Relative updates in the conflict branch.
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET n = t.n + 1", NonIdempotent, "upsert with relative update of n"},
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET n = excluded.n + t.n", NonIdempotent, "upsert with relative update of n"},
	{"INSERT INTO t AS c (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET hits = c.hits + 1", NonIdempotent, "upsert with relative update of hits"},
	{"INSERT INTO t (a, n) VALUES (?, ?) ON DUPLICATE KEY UPDATE n = n + VALUES(n)", NonIdempotent, "upsert with relative update of n"},
	{"INSERT INTO t (a, n) VALUES (?, ?) AS new ON DUPLICATE KEY UPDATE n = t.n + new.n", NonIdempotent, "upsert with relative update of n"},
	{"INSERT IGNORE INTO t VALUES (1) ON DUPLICATE KEY UPDATE n = n + 1", NonIdempotent, "upsert with relative update of n"},
	{"INSERT INTO t (a, n) VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET n = t.n + 1 WHERE t.n < 10", NonIdempotent, ""},
	{"INSERT INTO t AS c (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET n = c.n + 1, v = excluded.v WHERE c.v < excluded.v", Guarded, "upsert with conditional update"},
	{"INSERT INTO events (delivery_id, payload) VALUES ($1, $2) ON CONFLICT (delivery_id) DO UPDATE SET payload = EXCLUDED.payload, state = 'pending' WHERE events.state = 'failed'", Guarded, ReasonTransitionUpsert},
	{"INSERT INTO events (delivery_id, payload) VALUES ($1, $2) ON CONFLICT (delivery_id) DO UPDATE SET payload = EXCLUDED.payload WHERE events.state = 'failed'", Guarded, "upsert (ON CONFLICT)"},
	{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = t.n + s.n", NonIdempotent, "MERGE with relative update of n"},
	{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND t.v < s.v THEN UPDATE SET n = t.n + s.n, v = s.v", Guarded, "MERGE"},

	// UPDATE.
	{"UPDATE t SET x = $1 WHERE id = $2", Converging, "absolute UPDATE"},
	{"UPDATE jobs SET status = 'done' WHERE id = $1", Converging, "absolute UPDATE"},
	{"UPDATE accounts SET balance = balance - $1 WHERE id = $2", NonIdempotent, "relative UPDATE of balance"},
	{"update counters set n = n + 1", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET a = $1, b = b || $2 WHERE id = $3", NonIdempotent, "relative UPDATE of b"},
	{"UPDATE accounts SET balance = accounts.balance - $1", NonIdempotent, "relative UPDATE of balance"},
	{"UPDATE accounts a SET balance = a.balance - $1", NonIdempotent, "relative UPDATE of balance"},
	{"UPDATE accounts AS a SET a.balance = a.balance - ?", NonIdempotent, "relative UPDATE of balance"},
	{"UPDATE t SET (a, b) = (a + 1, $2) WHERE id = $1", NonIdempotent, "relative UPDATE of a"},
	{`UPDATE t SET "n" = "n" + 1`, NonIdempotent, "relative UPDATE of n"},
	// An optimistic-locking counter bumped again changes nothing the row says.
	{"UPDATE orders SET status = 'paid', version = version + 1 WHERE id = $1", Converging, "absolute UPDATE"},
	{"UPDATE orders SET version = version + 1, paid = paid + $2 WHERE id = $1", NonIdempotent, "relative UPDATE of paid"},
	{"UPDATE email_jobs SET status = 'processing', attempt_count = attempt_count + 1 WHERE id = $1 AND status IN ('pending', 'processing') RETURNING *", Converging, "absolute UPDATE"},
	{"UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1", Converging, "absolute UPDATE"},
	{`UPDATE hooks SET "retry_count" = "retry_count" + 1 WHERE id = $1`, Converging, "absolute UPDATE"},
	{"UPDATE feeds SET entries = entries + 1 WHERE id = $1", NonIdempotent, "relative UPDATE of entries"},
	{"UPDATE webhooks SET send_attempts = send_attempts + 1, delivery_count = delivery_count + 1 WHERE id = $1", Converging, "absolute UPDATE"},
	{"UPDATE jobs SET attempt_count = attempt_count + 1, balance = balance - $2 WHERE id = $1", NonIdempotent, "relative UPDATE of balance"},
	{"UPDATE stats SET attempt_total = attempt_total + 1 WHERE id = $1", NonIdempotent, "relative UPDATE of attempt_total"},
	{"UPDATE orders SET callback_num = callback_num + 1, callback_confirm = $2 WHERE trade_id = $1", Converging, "absolute UPDATE"},
	{"UPDATE orders SET callback_total = callback_total + 1 WHERE trade_id = $1", NonIdempotent, "relative UPDATE of callback_total"},
	{"UPDATE shop SET contempt = contempt + 1 WHERE id = $1", NonIdempotent, "relative UPDATE of contempt"},
	{"UPDATE `t` SET `n` = `n` + 1", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET tags = array_append(tags, $1) WHERE id = $2", NonIdempotent, ""},
	// A run's log takes the lines of every run, a repeat's too.
	{"UPDATE builds SET build_logs = build_logs || $1 WHERE id = $2", Converging, "absolute UPDATE"},
	{`UPDATE jobs SET "logs" = CONCAT("logs", $1), status = 'running' WHERE id = $2`, Converging, "absolute UPDATE"},
	{"UPDATE builds SET build_logs = build_logs || $1, minutes = minutes + $2 WHERE id = $3", NonIdempotent, "relative UPDATE of minutes"},
	{"UPDATE builds SET catalog = catalog || $1 WHERE id = $2", NonIdempotent, "relative UPDATE of catalog"},
	{"UPDATE builds SET logsize = logsize + $1 WHERE id = $2", NonIdempotent, "relative UPDATE of logsize"},
	// Setting one key of a JSON document, or removing an element, gives the same document
	// twice; a value computed from the document itself does not.
	{"UPDATE docs SET meta = jsonb_set(meta, '{summary}', $1) WHERE id = $2", Converging, "absolute UPDATE"},
	{"UPDATE docs SET meta = jsonb_set(meta, '{summary}', to_jsonb($1::text), true) WHERE id = $2", Converging, "absolute UPDATE"},
	{"UPDATE docs SET meta = JSON_SET(meta, '$.summary', ?) WHERE id = ?", Converging, "absolute UPDATE"},
	{"UPDATE t SET tags = array_remove(tags, $1) WHERE id = $2", Converging, "absolute UPDATE"},
	{"UPDATE docs SET meta = jsonb_set(meta, '{n}', to_jsonb((meta->>'n')::int + 1)) WHERE id = $1", NonIdempotent, "relative UPDATE of meta"},
	{"UPDATE docs SET meta = jsonb_insert(meta, '{tags,0}', $1) WHERE id = $2", NonIdempotent, "relative UPDATE of meta"},
	{"UPDATE t SET n = GREATEST(n, $1) + 1", NonIdempotent, ""},
	{"UPDATE t SET total = (SELECT sum(t.total) FROM items i)", NonIdempotent, ""},
	{"UPDATE t SET n = n + 1 WHERE id = $1 AND n < 5", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET attempts = attempts + 1 WHERE id = $1 AND attempts < 5", Converging, "absolute UPDATE"},
	// The subquery selects the rows by the test the SET makes false, as WHERE n = 0 would.
	{"UPDATE t SET n = n + 1 WHERE id IN (SELECT id FROM t WHERE n = 0)", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1 WHERE id IN (SELECT id FROM t WHERE n < 5)", NonIdempotent, ""},
	{"UPDATE t SET n = o.n + 1 FROM o WHERE o.id = t.id", Converging, "absolute UPDATE"},
	{"UPDATE t SET n = $1::n", Converging, ""},
	{"UPDATE t SET x = COALESCE(x, $1)", Converging, ""},
	{"UPDATE t SET x = x", Converging, ""},
	// A CASE that keeps the column, or sets it once it is NULL, converges; one that moves it
	// on from a tested value, or computes from it, does not.
	{"UPDATE images SET state = $1, started_at = CASE WHEN $1 IN ('resync', 'initialized') AND state IN ('resync', 'initialized') AND started_at IS NOT NULL THEN started_at WHEN $1 IN ('resync', 'initialized') THEN NOW() WHEN $1 = 'updated' THEN started_at ELSE NULL END WHERE name = $2", Converging, "absolute UPDATE"},
	{"UPDATE t SET seen_at = CASE WHEN seen_at IS NULL THEN now() ELSE seen_at END WHERE id = $1", Converging, ""},
	{"UPDATE r SET state = $2, live_at = CASE WHEN $2 = 'live' THEN COALESCE(live_at, now()) ELSE live_at END WHERE id = $1 AND state <> 'hold'", Converging, "absolute UPDATE"},
	{"UPDATE r SET n = CASE WHEN $2 = 'live' THEN COALESCE(n, 0) + 1 ELSE n END WHERE id = $1", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE r SET n = CASE WHEN $2 = 'live' THEN GREATEST(n + 1, 5) ELSE n END WHERE id = $1", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE s SET ids = CASE WHEN $2 = ANY(COALESCE(s.ids, '{}'::uuid[])) THEN s.ids ELSE array_append(COALESCE(s.ids, '{}'::uuid[]), $2) END WHERE s.id = $1", Converging, ""},
	{"UPDATE s SET ids = array_append(ids, $2) WHERE id = $1", NonIdempotent, "relative UPDATE of ids"},
	{"UPDATE s SET ids = CASE WHEN $2 = ANY(ids) THEN ids ELSE array_append(ids, $2) END || $3 WHERE id = $1", NonIdempotent, "relative UPDATE of ids"},
	{"UPDATE s SET ids = CASE WHEN cardinality(ids) > 3 THEN ids ELSE array_append(ids, $2) END WHERE id = $1", NonIdempotent, "relative UPDATE of ids"},
	{"UPDATE t SET stage = CASE WHEN stage = 'a' THEN 'b' WHEN stage = 'b' THEN 'c' ELSE stage END WHERE id = $1", NonIdempotent, "relative UPDATE of stage"},
	{"UPDATE t SET n = CASE WHEN n IS NULL THEN 1 ELSE n + 1 END WHERE id = $1", NonIdempotent, "relative UPDATE of n"},
	// A CASE whose results are the column or one idempotent expression converges, whatever
	// its conditions test: fill-if-empty, a guarded JSON object merge, a floor.
	{"UPDATE m SET name = CASE WHEN COALESCE(NULLIF(btrim(name), ''), '') = '' THEN COALESCE($2, name) ELSE name END WHERE id = $1", Converging, "absolute UPDATE"},
	{"UPDATE m SET data = CASE WHEN $2::jsonb IS NULL THEN data ELSE COALESCE(data, '{}'::jsonb) || $2::jsonb END WHERE id = $1", Converging, "absolute UPDATE"},
	{"UPDATE m SET n = CASE WHEN m.n < 10 THEN 10 ELSE m.n END WHERE id = $1", Converging, "absolute UPDATE"},
	{"UPDATE m SET name = CASE WHEN name = '' THEN $2 WHEN name IS NULL THEN $2 ELSE name END WHERE id = $1", Converging, "absolute UPDATE"},
	// ... not when the results differ, one reads the column as it goes, or is itself a CASE.
	{"UPDATE m SET name = CASE WHEN name = '' THEN $2 WHEN name IS NULL THEN $3 ELSE name END WHERE id = $1", NonIdempotent, "relative UPDATE of name"},
	{"UPDATE m SET data = CASE WHEN data IS NULL THEN $2::jsonb ELSE data || $2::jsonb END WHERE id = $1", NonIdempotent, "relative UPDATE of data"},
	{"UPDATE m SET n = CASE WHEN n < 10 THEN CASE WHEN n < 5 THEN 5 ELSE 10 END ELSE n END WHERE id = $1", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET n = CASE WHEN $1 THEN n ELSE 0 END + 1 WHERE id = $2", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET total = (SELECT sum(total) FROM items i WHERE i.oid = t.id)", Converging, ""},
	{"UPDATE jobs SET attempts = attempts + 1, status = 'done' WHERE id = $1 AND status = 'pending'", Converging, "conditional state transition"},
	{"UPDATE t SET balance = balance - $1, version = version + 1 WHERE id = $2 AND version = $3", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, processed_at = now() WHERE id = $1 AND processed_at IS NULL", Converging, "conditional state transition"},
	// A subquery of the same table selects the rows by the test the SET makes false.
	{"UPDATE reminders SET status = 'fired', fired_at = now() WHERE id IN (SELECT id FROM reminders WHERE status = 'scheduled' AND fire_at <= now() ORDER BY fire_at LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING *", Converging, "conditional state transition"},
	{"UPDATE reminders r SET status = 'fired' WHERE r.id IN (SELECT x.id FROM reminders x WHERE x.status = 'scheduled') RETURNING r.id", Converging, "conditional state transition"},
	// Another table's rows, or another column, select rows the SET does not move on.
	{"UPDATE reminders SET status = 'fired' WHERE id IN (SELECT reminder_id FROM deliveries WHERE status = 'scheduled') RETURNING id", Converging, "absolute UPDATE"},
	{"UPDATE reminders SET status = 'fired' WHERE owner_id IN (SELECT id FROM reminders WHERE status = 'scheduled') RETURNING id", Converging, "absolute UPDATE"},
	{"UPDATE t SET n = n + 1, done = true WHERE id = $1 AND NOT done", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, v = $2 WHERE id = $1 AND v < $2", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, s = 'b' WHERE id = $1 AND s IN ('a', 'c')", Converging, "conditional state transition"},
	// A transition is one whose value makes the test false: a value still selected (IN a
	// list that holds it, <> another value, NOT IN final states it is not one of, an
	// alternative of an OR it keeps true, the value tested itself) or a lease that ends
	// (now() + interval against now()) leaves the rows where a repeat finds them again.
	{"UPDATE tasks SET status = 'processing', hits = hits + 1 WHERE status IN ('pending', 'processing') AND run_at < now()", NonIdempotent, "relative UPDATE of hits"},
	{"UPDATE tasks SET status = 'processing' WHERE status IN ('pending', 'processing') RETURNING email", Converging, "absolute UPDATE"},
	{"UPDATE tasks SET status = 'sent' WHERE status <> 'failed' RETURNING email", Converging, "absolute UPDATE"},
	{"UPDATE tasks SET status = 'processing' WHERE status = 'pending' OR status = 'processing' RETURNING email", Converging, "absolute UPDATE"},
	{"UPDATE tasks SET status = 'pending' WHERE status = 'pending' AND run_at < now() RETURNING email", Converging, "absolute UPDATE"},
	{"UPDATE recipients SET status = $1 WHERE message_id = $2 AND status NOT IN ('delivered', 'failed') RETURNING campaign_id", Converging, "absolute UPDATE"},
	{"UPDATE tasks SET locked_until = now() + interval '5 minutes' WHERE (locked_until IS NULL OR locked_until < now()) AND status = 'pending' RETURNING email", Converging, "absolute UPDATE"},
	{"UPDATE t SET deleted_at = NULL WHERE id = $1 AND deleted_at IS NULL", Converging, "absolute UPDATE"},
	{"UPDATE t SET n = n + 1, v = $2 WHERE id = $1 AND v IS NOT DISTINCT FROM $2", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET n = n + 1, v = $2 WHERE id = $1 AND v IS DISTINCT FROM $3", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET n = n + 1, status = 'done' WHERE id = $1 AND NOT (status = 'pending')", NonIdempotent, "relative UPDATE of n"},
	// ... and one whose value leaves what the test selects is.
	{"UPDATE t SET n = n + 1, status = 'done' WHERE id = $1 AND status NOT IN ('done', 'failed')", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, status = $2 WHERE id = $1 AND status <> $2", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, status = 'sent' WHERE id = $1 AND status <> 'sent'", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, status = 'done' WHERE id = $1 AND (status = 'pending' OR status = 'retry')", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, status = 'done' WHERE status = 'pending' AND id = $1 OR status = 'retry' AND id = $1", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, status = 'done'::text WHERE id = $1 AND status IN ('pending', 'retry')", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, active = false WHERE id = $1 AND active", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, active = true WHERE id = $1 AND active", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET n = n + 1, done = true WHERE id = $1 AND done IS NOT TRUE", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, v = 7 WHERE id = $1 AND v BETWEEN 1 AND 5", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, v = $2 WHERE id = $1 AND v IS DISTINCT FROM $2", Converging, "conditional state transition"},
	{"UPDATE t SET n = n + 1, v = 'b' WHERE id = $1 AND v IS NOT DISTINCT FROM 'a'", Converging, "conditional state transition"},
	// A sweep whose rows a joined CTE selects by a test its SET makes false: the CTE's
	// condition is the UPDATE's, joined on the same column of the same table.
	{"WITH idle AS (SELECT t.team_id FROM teams t JOIN team_settings ts ON ts.team_id = t.team_id WHERE ts.auto_create = true AND t.created_at < now() - interval '90 days'), updated AS (UPDATE team_settings ts SET auto_create = false, updated_at = now() FROM idle i WHERE ts.team_id = i.team_id RETURNING ts.team_id) SELECT team_id FROM updated", Converging, "conditional state transition"},
	{"WITH stale AS (SELECT stories.id FROM public.stories JOIN statuses st ON stories.status_id = st.status_id WHERE st.category IN ('unstarted', 'started') AND stories.updated_at < CURRENT_DATE - INTERVAL '1 month' LIMIT $1) UPDATE stories SET status_id = $2, updated_at = CURRENT_TIMESTAMP FROM stale WHERE stories.id = stale.id RETURNING stories.id", Converging, "conditional state transition"},
	{"WITH d AS (SELECT id FROM t WHERE done = false) UPDATE t SET n = n + 1, done = true FROM d WHERE t.id = d.id", Converging, "conditional state transition"},
	// ... and not when the CTE tests no column the SET moves, joins on another column, or
	// selects another table.
	{"WITH due AS (SELECT id FROM reminders WHERE remind_at < now()) UPDATE reminders SET last_sent_at = now() FROM due WHERE reminders.id = due.id RETURNING reminders.id", Converging, "absolute UPDATE"},
	{"WITH d AS (SELECT id FROM items WHERE sent = false) UPDATE items SET sent = true FROM d WHERE items.owner_id = d.id", Converging, "absolute UPDATE"},
	{"WITH d AS (SELECT id FROM queue WHERE sent = false) UPDATE items SET sent = true FROM d WHERE items.id = d.id", Converging, "absolute UPDATE"},
	{"WITH d AS (SELECT id FROM t WHERE done = false) UPDATE t SET n = n + 1 FROM d WHERE t.id = d.id", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE t SET n = n + 1, s = 'b' FROM o WHERE o.s = 'a'", NonIdempotent, ""},
	// A JSON object merge converges; || on a column that may hold an array or text appends.
	{"UPDATE m SET attrs = COALESCE(attrs, '{}' :: jsonb) || $1, e = $2 WHERE id = $3", Converging, "absolute UPDATE"},
	{"UPDATE m SET attrs = COALESCE(m.attrs, '{}') || $1 WHERE id = $2", Converging, "absolute UPDATE"},
	{"UPDATE m SET attrs = COALESCE(attrs, '{}'::jsonb) || attrs || $1", NonIdempotent, "relative UPDATE of attrs"},
	{"UPDATE m SET attrs = COALESCE(attrs, '[]'::jsonb) || $1", NonIdempotent, "relative UPDATE of attrs"},
	{"UPDATE m SET attrs = attrs || $1::jsonb WHERE id = $2", NonIdempotent, "relative UPDATE of attrs"},
	{"UPDATE m SET attrs = COALESCE(attrs, '{}')", Converging, ""},
	// An increment inside CASE is relative, in an UPDATE and in an upsert's update branch.
	{"UPDATE c SET n = CASE WHEN day = $2 THEN n + 1 ELSE 1 END WHERE k = $1", NonIdempotent, "relative UPDATE of n"},
	{"INSERT INTO c AS t (k, n) VALUES ($1, 1) ON CONFLICT (k) DO UPDATE SET n = CASE WHEN t.day = excluded.day THEN t.n + 1 ELSE 1 END", NonIdempotent, "upsert with relative update of n"},
	{"INSERT INTO c (k, n) VALUES ($1, 1) ON CONFLICT (k) DO UPDATE SET n = CASE WHEN c.n < 10 THEN c.n + 1 ELSE c.n END", NonIdempotent, "upsert with relative update of n"},

	// DELETE, DDL, bulk loads, the rest.
	{"DELETE FROM t WHERE id = $1", Converging, "DELETE"},
	{"TRUNCATE t", Converging, "TRUNCATE"},
	{"CREATE TABLE t (a int)", NonIdempotent, "CREATE without IF NOT EXISTS"},
	{"CREATE TABLE IF NOT EXISTS t (a int)", Converging, "CREATE IF NOT EXISTS"},
	{"CREATE TEMP TABLE tmp_ingest (a int) ON COMMIT DROP", Converging, "CREATE TEMPORARY TABLE (the session's scratch)"},
	{"create local temporary table tmp (a int)", Converging, "CREATE TEMPORARY TABLE (the session's scratch)"},
	{"CREATE UNLOGGED TABLE t (a int)", NonIdempotent, "CREATE without IF NOT EXISTS"},
	{"SELECT * INTO TEMP tmp FROM t", Converging, "CREATE TEMPORARY TABLE (the session's scratch)"},
	{"SELECT * INTO TABLE archive FROM t", NonIdempotent, "SELECT INTO creates a table"},
	{"create unique index concurrently if not exists i on t (a)", Converging, "CREATE IF NOT EXISTS"},
	{"CREATE OR REPLACE VIEW v AS SELECT 1", Converging, "CREATE OR REPLACE"},
	{"DROP TABLE t", NonIdempotent, "DROP without IF EXISTS"},
	{"DROP TABLE IF EXISTS t", Converging, "DROP IF EXISTS"},
	{"ALTER TABLE t ADD COLUMN c int", NonIdempotent, ""},
	{"ALTER TABLE t ADD COLUMN IF NOT EXISTS c int", Converging, "ALTER"},
	{"REFRESH MATERIALIZED VIEW CONCURRENTLY daily_totals", Converging, "maintenance or privilege statement"},
	{"DROP INDEX CONCURRENTLY IF EXISTS i", Converging, "DROP IF EXISTS"},
	{"CREATE EXTENSION IF NOT EXISTS pgcrypto", Converging, "CREATE IF NOT EXISTS"},
	{"WITH ins AS (INSERT INTO t (id) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM t WHERE id = $1) RETURNING id) SELECT id FROM ins", Guarded, "insert guarded by NOT EXISTS"},
	{"ALTER TABLE t ALTER COLUMN c DROP NOT NULL", Converging, "ALTER"},
	{"ALTER TABLE t DROP COLUMN c", NonIdempotent, ""},
	{"ALTER TABLE t RENAME TO u", NonIdempotent, ""},
	{"SELECT * INTO newt FROM t", NonIdempotent, "SELECT INTO creates a table"},
	{"COPY t FROM STDIN", NonIdempotent, "COPY FROM appends rows"},
	{"COPY t (a, b) FROM 'data.csv' WITH (FORMAT csv)", NonIdempotent, "COPY FROM appends rows"},
	{"LOAD DATA INFILE 'f' INTO TABLE t", NonIdempotent, "LOAD DATA appends rows"},
	{"NOTIFY ch, 'x'", NonIdempotent, ""},
	{"VACUUM ANALYZE t", Converging, ""},
	{"CALL proc()", Unknown, "procedure call (effect not known)"},
	{"EXEC dbo.proc @a = 1", Unknown, "procedure call (effect not known)"},
	{"DO $$ BEGIN INSERT INTO t VALUES (1); END $$", Unknown, ""},
	{"FROBNICATE t", Unknown, "statement text not understood"},
	{"42", Unknown, "statement text not understood"},
	{"", Unknown, "empty statement text"},
	{"  \n\t ", Unknown, "empty statement text"},
	{";;", Unknown, "empty statement text"},
	{"-- just a comment", Unknown, "empty statement text"},

	// EXPLAIN ANALYZE runs the statement.
	{"EXPLAIN ANALYZE INSERT INTO t VALUES (1)", NonIdempotent, "INSERT without conflict handling"},
	{"EXPLAIN (ANALYZE, BUFFERS) UPDATE t SET n = n + 1", NonIdempotent, "relative UPDATE of n"},
	{"EXPLAIN ANALYZE VERBOSE SELECT 1", Read, ""},

	// Several statements: the worst decides.
	{"SELECT 1; INSERT INTO t VALUES (1)", NonIdempotent, "INSERT without conflict handling"},
	{"BEGIN; UPDATE t SET x = 1; COMMIT", Converging, "absolute UPDATE"},
	{"CALL x(); INSERT INTO t VALUES (1)", NonIdempotent, ""},
	{"INSERT INTO t VALUES (1); CALL x()", NonIdempotent, ""},
	{"INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING; CALL x()", Unknown, "procedure call (effect not known)"},
	{"DELETE FROM t; INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", Guarded, ""},
	{"SELECT 1; DELETE FROM t WHERE id = 1;", Converging, "DELETE"},
	{"UPDATE a SET n = n + 1; UPDATE b SET m = m + 1", NonIdempotent, "relative UPDATE of n"},

	// Writable CTEs.
	{"WITH x AS (INSERT INTO t (a) VALUES (1) RETURNING id) SELECT * FROM x", NonIdempotent, "INSERT without conflict handling"},
	{"WITH a AS (SELECT 1), b AS (UPDATE t SET n = n + 1 RETURNING *) SELECT * FROM a, b", NonIdempotent, "relative UPDATE of n"},
	{"WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a ON CONFLICT DO NOTHING", Guarded, "upsert (ON CONFLICT)"},
	{"WITH a AS MATERIALIZED (SELECT * FROM q) INSERT INTO archive SELECT * FROM a", NonIdempotent, ""},
	// An INSERT of the rows a claim returned: a repeat's claim returns none.
	{"WITH a AS MATERIALIZED (DELETE FROM q RETURNING *) INSERT INTO archive SELECT * FROM a", Converging, ""},
	{"WITH e AS (UPDATE attempts SET status = 'expired' WHERE id = $1 AND status = 'running' RETURNING *), t AS (UPDATE tickets SET status = 'todo' FROM e WHERE tickets.id = e.ticket_id RETURNING tickets.id), ev AS (INSERT INTO events (ticket_id, type) SELECT e.ticket_id, 'expired' FROM e JOIN t ON t.id = e.ticket_id RETURNING id) SELECT * FROM e", Converging, ""},
	{"WITH e AS (UPDATE attempts SET status = 'expired' WHERE id = $1 RETURNING *) INSERT INTO events (ticket_id) SELECT ticket_id FROM e", NonIdempotent, "INSERT without conflict handling"},
	{"WITH e AS (UPDATE attempts SET status = 'expired' WHERE id = $1 AND status = 'running' RETURNING *) INSERT INTO events (ticket_id) SELECT t.id FROM tickets t LEFT JOIN e ON e.ticket_id = t.id", NonIdempotent, "INSERT without conflict handling"},
	{"WITH e AS (UPDATE attempts SET status = 'expired' WHERE id = $1 AND status = 'running' RETURNING *) INSERT INTO events (ticket_id) SELECT ticket_id FROM e UNION SELECT 1", NonIdempotent, "INSERT without conflict handling"},
	{"WITH e AS (UPDATE attempts SET status = 'expired' WHERE id = $1 AND status = 'running' RETURNING *) INSERT INTO events (ticket_id) SELECT id FROM tickets", NonIdempotent, "INSERT without conflict handling"},
	{"WITH e AS (UPDATE attempts SET status = 'expired' WHERE id = $1 AND status = 'running' RETURNING *) INSERT INTO events (ticket_id) SELECT e.ticket_id FROM tickets t, e", Converging, ""},
	{"WITH e AS (UPDATE attempts SET status = 'expired' WHERE id = $1 AND status = 'running' RETURNING *) INSERT INTO events (ticket_id) SELECT ticket_id FROM e ON CONFLICT DO NOTHING", Guarded, ""},
	{"WITH moved AS (DELETE FROM q WHERE id = $1 RETURNING *) SELECT * FROM moved", Converging, "DELETE"},
	{"WITH a AS (CALL x()) SELECT 1", Unknown, ""},
	{"WITH", Unknown, ""},

	// Holes.
	{H, Unknown, "statement text not known"},
	{H + H, Unknown, "statement text not known"},
	{H + " WHERE id = $1", Unknown, "statement verb not known (text built at run time)"},
	{"INSERT INTO " + H + " (a) VALUES ($1)", NonIdempotent, "INSERT without conflict handling"},
	{"INSERT INTO tbl_" + H + " (a) VALUES ($1)", NonIdempotent, "INSERT without conflict handling"},
	{"INSERT INTO t (a) VALUES " + H, Unknown, "conflict handling not known (text built at run time)"},
	{"INSERT INTO t (a) VALUES ($1) " + H, Unknown, "conflict handling not known (text built at run time)"},
	{"INSERT INTO t " + H, Unknown, "conflict handling not known (text built at run time)"},
	{"INSERT INTO " + H, Unknown, "conflict handling not known (text built at run time)"},
	{"INSERT " + H, Unknown, "conflict handling not known (text built at run time)"},
	{"INSERT INTO t (a, " + H + ") VALUES ($1, $2)", NonIdempotent, ""},
	{"INSERT INTO t (a) VALUES ($1, " + H + ")", NonIdempotent, ""},
	{"INSERT INTO t (a) SELECT a FROM " + H, NonIdempotent, ""},
	{"INSERT INTO t (a) VALUES ($1) RETURNING " + H, NonIdempotent, ""},
	{"INSERT INTO t (a) VALUES " + H + " ON CONFLICT DO NOTHING", Guarded, ""},
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT " + H, Unknown, ""},
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET " + H, Unknown, "upsert update not known (text built at run time)"},
	{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET n = " + H, Guarded, ""},
	{"IF NOT EXISTS (SELECT 1 FROM t) INSERT INTO t VALUES " + H, Guarded, ""},
	{"UPDATE t SET " + H, Unknown, "SET list not known (text built at run time)"},
	{"UPDATE t SET " + H + " WHERE id = $1", Unknown, "SET list not known (text built at run time)"},
	{"UPDATE t SET " + H + " = $1", Unknown, ""},
	{"UPDATE " + H + " SET n = n + 1", NonIdempotent, "relative UPDATE of n"},
	{"UPDATE " + H + " SET x = $1", Converging, "absolute UPDATE"},
	{"UPDATE t SET n = " + H + " WHERE id = $1", Converging, "absolute UPDATE"},
	{"UPDATE t SET n = n + 1 WHERE id = $1 AND " + H, Unknown, "update condition not known (text built at run time)"},
	{"UPDATE t SET n = n + 1 WHERE id = " + H, NonIdempotent, ""},
	{"UPDATE t SET n = $1 WHERE " + H, Converging, ""},
	{"UPDATE " + H, Unknown, ""},
	{"SELECT * FROM " + H, Read, ""},
	{"SELECT '" + H + "'; INSERT INTO t VALUES ('" + H + "')", NonIdempotent, ""},
	{"DELETE FROM " + H + " WHERE id = $1", Converging, ""},
	{"CREATE " + H, Unknown, "DDL not known (text built at run time)"},
	{"CREATE TABLE " + H + " (a int)", NonIdempotent, ""},
	{"SELECT 1; " + H, Unknown, "statement text not known"},
	{"INSERT INTO t VALUES (1); " + H, NonIdempotent, ""},
	{"/* " + H + " */ SELECT 1", Read, ""},
}

func TestClassify(t *testing.T) {
	for _, c := range cases {
		got := Classify(c.text)
		if got.Class != c.class || c.reason != "" && got.Reason != c.reason {
			want := c.reason
			if want == "" {
				want = "(any)"
			}
			t.Errorf("Classify(%q) = %v %q, want %v %q", c.text, got.Class, got.Reason, c.class, want)
		}
		if got.Reason == "" {
			t.Errorf("Classify(%q): empty reason", c.text)
		}
	}
}

func TestClassString(t *testing.T) {
	want := map[Class]string{
		Unknown: "unknown", Read: "read", Converging: "converging", Guarded: "guarded",
		NonIdempotent: "non-idempotent", Class(9): "Class(9)",
	}
	for c, s := range want {
		if c.String() != s {
			t.Errorf("Class(%d).String() = %q, want %q", c, c.String(), s)
		}
	}
}

// TestWorstWins checks the documented order on every pair of classes, both ways round.
func TestWorstWins(t *testing.T) {
	repr := []struct {
		text  string
		class Class
	}{
		{"SELECT 1", Read},
		{"DELETE FROM t", Converging},
		{"INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", Guarded},
		{"CALL p()", Unknown},
		{"INSERT INTO t VALUES (1)", NonIdempotent},
	}
	order := []Class{Read, Converging, Guarded, Unknown, NonIdempotent}
	pos := func(c Class) int {
		for i, o := range order {
			if o == c {
				return i
			}
		}
		t.Fatalf("class %v not in order", c)
		return 0
	}
	for _, a := range repr {
		for _, b := range repr {
			want := a.class
			if pos(b.class) > pos(a.class) {
				want = b.class
			}
			if got := Classify(a.text + "; " + b.text); got.Class != want {
				t.Errorf("Classify(%q; %q) = %v, want %v", a.text, b.text, got.Class, want)
			}
		}
	}
}

// TestLongText exercises the path for texts with more tokens than the stack buffer.
func TestLongText(t *testing.T) {
	var b strings.Builder
	b.WriteString("INSERT INTO t (a) VALUES ($1)")
	for range 2 * stackTokens {
		b.WriteString(", ($1)")
	}
	long := b.String()
	if got := Classify(long); got.Class != NonIdempotent {
		t.Errorf("long INSERT = %v, want non-idempotent", got.Class)
	}
	if got := Classify(long + " ON CONFLICT (a) DO UPDATE SET n = t.n + 1"); got.Class != NonIdempotent ||
		got.Reason != "upsert with relative update of n" {
		t.Errorf("long upsert = %v %q", got.Class, got.Reason)
	}
	if got := Classify(long + " ON CONFLICT DO NOTHING"); got.Class != Guarded {
		t.Errorf("long guarded INSERT = %v, want guarded", got.Class)
	}
}

// TestHostileNesting: deep nesting must neither crash nor hang, and must still be
// classified conservatively.
func TestHostileNesting(t *testing.T) {
	deep := strings.Repeat("WITH a AS (", 10000) + "INSERT INTO t VALUES (1)" + strings.Repeat(")", 10000) + " SELECT 1"
	if got := Classify(deep); got.Class == Read {
		t.Errorf("deeply nested writable CTE = %v, want not read", got.Class)
	}
	parens := strings.Repeat("(", 100000) + "SELECT 1"
	if got := Classify(parens); got.Class != Read {
		t.Errorf("unbalanced parentheses = %v, want read", got.Class)
	}
	explain := strings.Repeat("EXPLAIN ANALYZE ", 1000) + "UPDATE t SET n = n + 1"
	if got := Classify(explain); got.Class == Read || got.Class == Converging {
		t.Errorf("nested EXPLAIN ANALYZE = %v", got.Class)
	}
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, c := range []struct {
		text string
		max  float64
	}{
		{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET b = excluded.b", 0},
		{"UPDATE jobs SET attempts = attempts + 1, status = 'done' WHERE id = $1 AND status = 'pending'", 0},
		{"WITH x AS (INSERT INTO t (a) VALUES (1) RETURNING id) SELECT * FROM x", 0},
		{"UPDATE accounts SET balance = balance - $1 WHERE id = $2", 1}, // the reason names the column
	} {
		if n := testing.AllocsPerRun(100, func() { Classify(c.text) }); n > c.max {
			t.Errorf("Classify(%q): %v allocs, want <= %v", c.text, n, c.max)
		}
	}
}

// mix is a realistic set of statements a job handler executes.
var mix = []string{
	"SELECT id, payload, attempts FROM jobs WHERE id = $1 FOR UPDATE",
	"INSERT INTO payments (order_id, amount, idempotency_key) VALUES ($1, $2, $3) ON CONFLICT (idempotency_key) DO NOTHING",
	"UPDATE accounts SET balance = balance - $1, updated_at = now() WHERE id = $2",
	"UPDATE jobs SET status = 'done', attempts = attempts + 1, finished_at = now() WHERE id = $1 AND status = 'running'",
	"INSERT INTO outbox (topic, key, payload) VALUES ($1, $2, $3)",
	"INSERT INTO inventory (sku, qty) VALUES (?, ?) ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)",
	"DELETE FROM sessions WHERE user_id = $1",
	"WITH moved AS (DELETE FROM queue WHERE id = $1 RETURNING *) INSERT INTO archive SELECT * FROM moved",
	"INSERT INTO audit_" + Hole + " (event, at) VALUES ($1, now())",
	"UPDATE orders SET status = $1 WHERE id = $2 /* set by worker */",
	"-- reconcile\nMERGE INTO stock s USING incoming i ON s.sku = i.sku WHEN MATCHED THEN UPDATE SET qty = i.qty WHEN NOT MATCHED THEN INSERT (sku, qty) VALUES (i.sku, i.qty)",
	"INSERT INTO events (id, body) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM events WHERE id = $1)",
}

func BenchmarkClassify(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for _, s := range mix {
		n += len(s)
	}
	b.SetBytes(int64(n / len(mix)))
	for i := 0; b.Loop(); i++ {
		Classify(mix[i%len(mix)])
	}
}

// The placeholders an upsert binds to its conflict target's columns.
func TestConflictParams(t *testing.T) {
	for _, tc := range []struct {
		text string
		want [4]uint8
	}{
		{"INSERT INTO orders (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", [4]uint8{1}},
		{"INSERT INTO orders (body, order_id) VALUES ($1, $2) ON CONFLICT (order_id) DO UPDATE SET body = excluded.body", [4]uint8{2}},
		{"INSERT INTO t (a, b, c) VALUES ($3, now(), $1) ON CONFLICT (c, a) DO NOTHING", [4]uint8{1, 3}},
		{"INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) ON CONFLICT (a) DO NOTHING", [4]uint8{}},
		{"INSERT INTO t (a) VALUES ('x') ON CONFLICT (a) DO NOTHING", [4]uint8{}},
		{"INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING", [4]uint8{}},
		{"INSERT INTO t VALUES ($1) ON CONFLICT (a) DO NOTHING", [4]uint8{}},
	} {
		if got := Classify(tc.text).ConflictParams; got != tc.want {
			t.Errorf("ConflictParams(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// Session statements do not write; a text whose verb is not known says nothing of what it
// does (Unread), unlike one whose verb is known but whose deciding part is not.
func TestSessionAndUnread(t *testing.T) {
	for _, c := range []struct {
		text   string
		class  Class
		unread bool
	}{
		{"INSTALL httpfs", Read, false},
		{"FORCE INSTALL httpfs", Read, false},
		{"LOAD httpfs", Read, false},
		{"LOAD 'auto_explain'", Read, false},
		{"ATTACH 'analytics.db' AS analytics", Read, false},
		{"DETACH analytics", Read, false},
		{"PRAGMA journal_mode = WAL", Read, false},
		{"RESET ALL", Read, false},
		{"USE analytics", Read, false},
		{"SHOW TABLES", Read, false},
		{"SET TIME ZONE 'UTC'; COMMIT", Read, false},
		{H, Unknown, true},
		{H + " WHERE id = $1", Unknown, true},
		{"FROBNICATE t", Unknown, true},
		{"", Unknown, true},
		{"SELECT 1; " + H, Unknown, true},
		{"CALL proc()", Unknown, false},
		{"FROBNICATE t; CALL proc()", Unknown, false},
		{"INSERT INTO t (a) VALUES " + H, Unknown, false},
		{"LOAD DATA INFILE 'f' INTO TABLE t; " + H, NonIdempotent, false},
	} {
		got := Classify(c.text)
		if got.Class != c.class || got.Unread != c.unread {
			t.Errorf("Classify(%q) = %v (unread %v, %q), want %v (unread %v)", c.text, got.Class, got.Unread, got.Reason, c.class, c.unread)
		}
	}
}

func TestReplaceStatements(t *testing.T) {
	table, keys, ok := DeleteKeys(`DELETE FROM "order_lines" WHERE order_id = $1 AND tenant = $2`)
	if !ok || table != "order_lines" || len(keys) != 2 || keys[0] != (ColumnParam{"order_id", 1}) || keys[1] != (ColumnParam{"tenant", 2}) {
		t.Errorf("DeleteKeys = %q %v %v", table, keys, ok)
	}
	if _, keys, ok := DeleteKeys("DELETE FROM lines WHERE a = ? AND b = ?"); !ok || keys[1] != (ColumnParam{"b", 2}) {
		t.Errorf("DeleteKeys with ? = %v %v", keys, ok)
	}
	for _, bad := range []string{
		"DELETE FROM lines",
		"DELETE FROM lines WHERE order_id = $1 OR 1 = 1",
		"DELETE FROM lines WHERE order_id > $1",
		"DELETE FROM lines WHERE order_id = 7",
		"DELETE FROM " + H + " WHERE order_id = $1",
		"DELETE FROM lines WHERE order_id = $1; DELETE FROM other",
		"UPDATE lines SET a = $1",
	} {
		if _, _, ok := DeleteKeys(bad); ok {
			t.Errorf("DeleteKeys(%q) ok", bad)
		}
	}
	table, binds, ok := InsertBinds("INSERT INTO order_lines (order_id, sku, qty) VALUES ($1, $2, now())")
	if !ok || table != "order_lines" || len(binds) != 2 || binds[0] != (ColumnParam{"order_id", 1}) || binds[1] != (ColumnParam{"sku", 2}) {
		t.Errorf("InsertBinds = %q %v %v", table, binds, ok)
	}
	if _, binds, ok := InsertBinds("INSERT INTO t (a, b, c) VALUES (?, lower(?), ?)"); !ok || len(binds) != 2 || binds[1] != (ColumnParam{"c", 3}) {
		t.Errorf("InsertBinds with ? = %v %v", binds, ok)
	}
	if _, _, ok := InsertBinds("INSERT INTO t SELECT * FROM u"); ok {
		t.Error("InsertBinds of INSERT ... SELECT ok")
	}
	table, binds, ok = InsertBinds("INSERT INTO hourly (cabinet_id, sku, hour) SELECT $1, u.sku, u.hour FROM unnest($2::bigint[], $3::int[]) AS u(sku, hour)")
	if !ok || table != "hourly" || len(binds) != 1 || binds[0] != (ColumnParam{"cabinet_id", 1}) {
		t.Errorf("InsertBinds of INSERT ... SELECT $1, u.sku = %q %v %v", table, binds, ok)
	}
	if _, binds, ok := InsertBinds("INSERT INTO hourly (cabinet_id) SELECT $1 RETURNING id"); !ok || len(binds) != 1 {
		t.Errorf("InsertBinds of INSERT ... SELECT $1 RETURNING = %v %v", binds, ok)
	}
	if _, _, ok := InsertBinds("INSERT INTO hourly (cabinet_id, sku) SELECT $1 FROM u"); ok {
		t.Error("InsertBinds of a select list shorter than the columns ok")
	}
	if _, _, ok := InsertBinds("INSERT INTO hourly (cabinet_id) SELECT DISTINCT $1 FROM u"); ok {
		t.Error("InsertBinds of SELECT DISTINCT ok")
	}
	for text, want := range map[string]string{
		"INSERT INTO sync_runs (source, started_at) VALUES ($1, now())":                       "started_at",
		"INSERT INTO sync_runs (started_at, source) VALUES (CURRENT_TIMESTAMP, $1)":           "started_at",
		"insert into runs (a, Started_At, b) values ($1, clock_timestamp(), now() - $2)":      "started_at",
		"INSERT INTO sync_runs (source, started_at) VALUES ($1, $2)":                          "",
		"INSERT INTO sync_runs (source, started_at) VALUES ($1, now() - interval '1 hour')":   "",
		"INSERT INTO sync_runs (source, started_at) SELECT $1, now() FROM sources WHERE a=$2": "started_at",
		"INSERT INTO sync_runs SELECT * FROM u":                                               "",
	} {
		if got := strings.Join(InsertClocked(text), ","); got != want {
			t.Errorf("InsertClocked(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestWhereEquals(t *testing.T) {
	for _, tc := range []struct {
		text, table, cols string
		ok                bool
	}{
		{"UPDATE jobs SET state = 'running' WHERE id = $1 AND state = 'pending'", "jobs", "id,state", true},
		{"UPDATE ONLY public.orders o SET sent = true WHERE o.customer_id = ? AND sent = false RETURNING id", "public.orders", "customer_id,sent", true},
		{"UPDATE orders SET n = 1 WHERE created_at BETWEEN $1 AND $2 AND ref = $3", "orders", "ref", true},
		{"UPDATE orders SET n = 1 WHERE status IN ('a', 'b') AND ref = $1", "orders", "ref", true},
		{"UPDATE orders SET n = 1 WHERE status = 'a' AND (ref = $1)", "", "", false},
		{"DELETE FROM leases WHERE owner = $1 AND lease_id = $2", "leases", "owner,lease_id", true},
		{"UPDATE orders SET n = 1 WHERE ref = $1 OR ref = $2", "", "", false},
		{"UPDATE orders SET n = 1", "", "", false},
		{"SELECT 1 FROM orders WHERE id = $1", "", "", false},
	} {
		table, cols, ok := WhereEquals(tc.text)
		if table != tc.table || strings.Join(cols, ",") != tc.cols || ok != tc.ok {
			t.Errorf("WhereEquals(%q) = %q, %q, %v; want %q, %q, %v", tc.text, table, cols, ok, tc.table, tc.cols, tc.ok)
		}
	}
}

// TestNullTests checks the partial-index predicates read as IS NULL tests only, and their
// twins that test anything else.
func TestNullTests(t *testing.T) {
	for _, tc := range []struct {
		pred, cols string
		ok         bool
	}{
		{"deleted_at IS NULL", "deleted_at", true},
		{"(deleted_at is null)", "deleted_at", true},
		{`"Deleted_At" IS NULL AND archived_at IS NULL`, "deleted_at,archived_at", true},
		{"((deleted_at IS NULL) AND (archived_at IS NULL))", "deleted_at,archived_at", true},
		{"status = 'pending'", "", false},
		{"deleted_at IS NOT NULL", "", false},
		{"deleted_at IS NULL OR archived_at IS NULL", "", false},
		{"deleted_at IS NULL AND", "", false},
		{"", "", false},
	} {
		cols, ok := NullTests(tc.pred)
		if ok != tc.ok || strings.Join(cols, ",") != tc.cols {
			t.Errorf("NullTests(%q) = %q %v, want %q %v", tc.pred, cols, ok, tc.cols, tc.ok)
		}
	}
}

// TestColumnTests checks the lookup conditions read as tests that fix columns, and their
// twins with a conjunct that does not.
func TestColumnTests(t *testing.T) {
	for _, tc := range []struct {
		cond, want string
		ok         bool
	}{
		{"ant_id=? AND mode=2 AND status=?", "ant_id=?1 mode=[2] status=?2", true},
		{"symbol = ? AND status = 1", "symbol=?1 status=[1]", true},
		{"a.scalping_id = $2 AND kind = 'x' AND done = FALSE", "scalping_id=?2 kind=['x'] done=[FALSE]", true},
		{"ant_id = ? AND status IN ?", "ant_id=?1 status in ?2", true},
		{"ant_id = ? AND status IN (?)", "ant_id=?1 status in ?2", true},
		{"status IN (0, 1) AND ant_id = ?", "status in [0 1] ant_id=?1", true},
		{"ant_id = ? OR mode = 2", "", false},
		{"ant_id = ? AND price > ?", "", false},
		{"ant_id = ? AND (mode = 2)", "", false},
		{"lower(symbol) = ?", "", false},
		{"symbol = :symbol", "", false},
		{"symbol = ?; DELETE FROM t", "", false},
		{"", "", false},
	} {
		tests, ok := ColumnTests(tc.cond)
		var got []string
		for _, x := range tests {
			s := x.Column
			if x.In {
				s += " in "
			} else {
				s += "="
			}
			if x.Param > 0 {
				s += "?" + strconv.Itoa(x.Param)
			} else {
				s += "[" + strings.Join(x.Values, " ") + "]"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != tc.want || ok != tc.ok {
			t.Errorf("ColumnTests(%q) = %q, %v; want %q, %v", tc.cond, strings.Join(got, " "), ok, tc.want, tc.ok)
		}
	}
}
