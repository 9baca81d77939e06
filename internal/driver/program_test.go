package driver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/result"
)

// The program's packages analysed one at a time and let go of, parsed and type-checked again
// in each round of the link, give what the x/tools checker gives on the program held whole
// (Config.Graph), on every test module and the example shop: links resolved in three rounds
// (layered), webhook checks taken over, routes, consumers, registrations elsewhere, jobs run
// at most once, directives attached to the handlers they are in.
func TestProgramRoundsAreTheCheckers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: every test module, analysed twice")
	}
	dirs, err := os.ReadDir(filepath.Join("..", "..", "testdata", "modules"))
	if err != nil {
		t.Fatal(err)
	}
	mods := []string{filepath.Join("..", "..", "examples")}
	for _, d := range dirs {
		mods = append(mods, filepath.Join("..", "..", "testdata", "modules", d.Name()))
	}
	for _, mod := range mods {
		t.Run(filepath.Base(mod), func(t *testing.T) {
			t.Chdir(mod)
			cfg := Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}, Tests: true}
			l, err := Load(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			streamed, err := Analyze(cfg, l)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Graph = true
			whole, err := Analyze(cfg, l)
			if err != nil {
				t.Fatal(err)
			}
			if streamed.Graph != nil || whole.Graph == nil {
				t.Fatalf("graphs: streamed %v, whole %v", streamed.Graph != nil, whole.Graph != nil)
			}
			// Everything a run gives: the output formats' findings, and the inventory's
			// handlers with their directives (attached from their declarations' extents).
			all := func(r *result.Run) string {
				b, err := json.Marshal(struct {
					F, H, D, E any
					N          int
				}{r.Findings, r.Handlers, r.Directives, r.Errors, r.Packages})
				if err != nil {
					t.Fatal(err)
				}
				return jsonOf(t, r) + string(b)
			}
			if got, want := all(streamed.Run), all(whole.Run); got != want {
				t.Errorf("the program analysed one package at a time:\n%s\nheld whole by the checker:\n%s", got, want)
			}
			if streamed.Run.Packages != whole.Run.Packages || len(streamed.Run.Handlers) == 0 {
				t.Errorf("%d packages, %d handlers; the checker: %d packages", streamed.Run.Packages, len(streamed.Run.Handlers), whole.Run.Packages)
			}
		})
	}
}
