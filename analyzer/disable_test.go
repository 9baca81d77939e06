package analyzer

import (
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/internal/checks/all"
	"github.com/chokaq/idemlint/internal/rules"
)

// Every check can be turned off by name (-disable=ttl): with it off, none of the
// diagnostics it alone reports remain, and the other checks' do. The packages are ones where
// each check reports something (the conflicts check with schemaconflicts' schema); the want comments do not hold with a check off, so the
// diagnostics are read from the results.
func TestEveryCheckCanBeDisabled(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "testdata"))
	pkgs := []string{"decisions", "directives", "retention/tasks", "retention/worker", "schemaconflicts"}
	schema := []string{filepath.Join(dir, "src", "schemaconflicts", "db")}
	count := func(disable []string) map[string]int {
		a, err := New(Config{Disable: disable, Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		var c collect
		n := map[string]int{}
		for _, r := range analysistest.Run(&c, dir, a, pkgs...) {
			for _, d := range r.Diagnostics {
				n[d.Category]++
			}
		}
		return n
	}
	base := count(nil)
	if !slices.Equal(rules.Checks, checkNames()) {
		t.Fatalf("rules.Checks = %v, the list of checks = %v", rules.Checks, checkNames())
	}
	for _, c := range all.Checks {
		t.Run(c.Name, func(t *testing.T) {
			off := count([]string{c.Name})
			lost := 0
			for cat, n := range base {
				lost += n - off[cat]
			}
			if lost == 0 {
				t.Errorf("-disable=%s removed no diagnostic (with it on: %v)", c.Name, base)
			}
			for cat, n := range off {
				// (An ignore of what the check alone reported silences nothing with it off.)
				if n > base[cat] && cat != string(rules.Directive) {
					t.Errorf("-disable=%s added %s diagnostics", c.Name, cat)
				}
			}
		})
	}
	if _, err := New(Config{Disable: []string{"nope"}}); err == nil {
		t.Error("-disable=nope was accepted")
	}
}

func checkNames() []string {
	var out []string
	for _, c := range all.Checks {
		out = append(out, c.Name)
	}
	return out
}
