package sqlstmt

import (
	"slices"
	"testing"
)

// TestSetConstants checks the assignments of constants an UPDATE's SET list makes, beside
// the ones it leaves out.
func TestSetConstants(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []ColumnConstant
		ok   bool
	}{
		{`UPDATE invoices SET reminded = true, reminded_at = now() WHERE id = $1`, []ColumnConstant{{"reminded", "TRUE"}}, true},
		{`update t AS x SET x."Status" = 'sent', n = n + 1, k = 3 WHERE id = ?`, []ColumnConstant{{"status", "'sent'"}, {"k", "3"}}, true},
		{`UPDATE t SET data = jsonb_set(data, '{a}', 'true') WHERE id = $1`, nil, true},
		{`UPDATE t SET s = $1 WHERE id = $2`, nil, true},
		{`DELETE FROM t WHERE id = $1`, nil, false},
		{`UPDATE t SET s = 'a' WHERE id = ` + Hole, nil, false},
	} {
		got, ok := SetConstants(tc.text)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("SetConstants(%q) = %v, %v; want %v, %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
}

// TestConstantTests checks the columns a condition compares with constants.
func TestConstantTests(t *testing.T) {
	for _, tc := range []struct {
		cond string
		want []string
		ok   bool
	}{
		{`id = $1 AND status = 'disputing'`, []string{"status"}, true},
		{`(id = $1) AND (t.state <> 3) AND kind IN ('a', 'b')`, []string{"state", "kind"}, true},
		{`id = $1 AND status NOT IN ('done')`, []string{"status"}, true},
		{`id = $1 AND status IN ($2, $3)`, nil, true},
		{`id = $1 AND created_at < '2026-01-01'`, nil, true},
		{`id = $1 OR status = 'x'`, nil, false},
	} {
		got, ok := ConstantTests(tc.cond)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("ConstantTests(%q) = %v, %v; want %v, %v", tc.cond, got, ok, tc.want, tc.ok)
		}
	}
}
