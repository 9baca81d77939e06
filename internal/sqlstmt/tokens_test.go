package sqlstmt

import (
	"strings"
	"testing"
)

func TestConflict(t *testing.T) {
	for _, tc := range []struct {
		text, table, cols string
		where, ok         bool
		constraint        string
		offset            int
	}{
		{`INSERT INTO orders (ext, n) VALUES ($1, $2) ON CONFLICT (ext) DO NOTHING`, "orders", "ext", false, true, "", 44},
		{`insert into "public"."Orders" as o (a, b) values ($1, $2) on conflict ("B", a) do update set n = excluded.n`, "public.Orders", "B,a", false, true, "", 58},
		{`INSERT INTO users (email) SELECT $1 ON CONFLICT (lower(email)) WHERE deleted_at IS NULL DO NOTHING`, "users", "lower(email)", true, true, "", 36},
		{`INSERT INTO t (a) VALUES ($1) ON CONFLICT ON CONSTRAINT "t_a_key" DO NOTHING`, "t", "", false, true, "t_a_key", 30},
		{`INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING`, "", "", false, false, "", 0},
		{`INSERT INTO t (a) VALUES ($1)`, "", "", false, false, "", 0},
		{`INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO NOTHING; SELECT 1`, "", "", false, false, "", 0},
		{"INSERT INTO " + Hole + " (a) VALUES ($1) ON CONFLICT (a) DO NOTHING", "", "", false, false, "", 0},
	} {
		ct, ok := Conflict(tc.text)
		if ct.Table != tc.table || strings.Join(ct.Columns, ",") != tc.cols || ct.Where != tc.where || ok != tc.ok ||
			ct.Constraint != tc.constraint || (ok && ct.Offset != tc.offset) {
			t.Errorf("Conflict(%q) = %+v, %v; want %q, %q, %v, %v, %q, %d", tc.text, ct, ok, tc.table, tc.cols, tc.where, tc.ok, tc.constraint, tc.offset)
		}
		if ok && !strings.HasPrefix(strings.ToUpper(tc.text[ct.Offset:]), "ON CONFLICT") {
			t.Errorf("Conflict(%q): offset %d is not at ON CONFLICT", tc.text, ct.Offset)
		}
	}
}

func TestTokens(t *testing.T) {
	toks := Tokens(`CREATE TABLE "T" (a int) -- comment (x
; 'it''s'`)
	var got []string
	for _, tk := range toks {
		got = append(got, tk.Text)
	}
	if strings.Join(got, " ") != `CREATE TABLE T ( a int ) ; 'it''s'` {
		t.Errorf("Tokens = %q", got)
	}
	if toks[2].Kind != Quoted || toks[3].Close != 6 || toks[8].Kind != String || toks[1].Offset != 7 {
		t.Errorf("kinds, close or offsets wrong: %+v", toks)
	}
}

func TestInsertColumns(t *testing.T) {
	for _, tc := range []struct{ text, table, cols string }{
		{`INSERT INTO orders (ext, "N") VALUES ($1, $2), ($3, $4)`, "orders", "ext,N"},
		{`INSERT INTO a.t AS x (k) SELECT k FROM s`, "a.t", "k"},
		{`INSERT INTO t SELECT * FROM s`, "", ""},
		{`INSERT INTO t (SELECT * FROM s)`, "", ""},
		{`UPDATE t SET a = 1`, "", ""},
		// A writable CTE that converges leaves the INSERT to decide; one that a repeat
		// makes again does not.
		{`WITH u AS (UPDATE p SET stock = $2, updated_at = now() WHERE id = $1 RETURNING id, stock)
			INSERT INTO snapshots (product_id, stock) SELECT id, stock FROM u`, "snapshots", "product_id,stock"},
		{`WITH RECURSIVE r (n) AS (SELECT 1), s AS NOT MATERIALIZED (SELECT 2) INSERT INTO t (a) SELECT n FROM r`, "t", "a"},
		{`WITH u AS (UPDATE p SET hits = hits + 1 RETURNING id) INSERT INTO log (id) SELECT id FROM u`, "", ""},
		{`WITH u AS (INSERT INTO p (a) VALUES ($1) RETURNING id) INSERT INTO log (id) SELECT id FROM u`, "", ""},
		{`WITH u AS (SELECT 1)`, "", ""},
	} {
		table, cols, _ := InsertColumns(tc.text)
		if table != tc.table || strings.Join(cols, ",") != tc.cols {
			t.Errorf("InsertColumns(%q) = %q, %q; want %q, %q", tc.text, table, cols, tc.table, tc.cols)
		}
	}
}
