package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
)

// The program's packages analysed one at a time and let go of, parsed and type-checked again
// in each round of the link, give what the x/tools checker gives on the program held whole
// (Config.Graph), on every test module: links resolved in three rounds (layered), webhook
// checks taken over, routes, consumers, registrations elsewhere, jobs run at most once.
func TestProgramRoundsAreTheCheckers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: every test module, analysed twice")
	}
	dirs, err := os.ReadDir(filepath.Join("..", "..", "testdata", "modules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		t.Run(d.Name(), func(t *testing.T) {
			chdirModule(t, d.Name())
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
			if got, want := jsonOf(t, streamed.Run), jsonOf(t, whole.Run); got != want {
				t.Errorf("the program analysed one package at a time:\n%s\nheld whole by the checker:\n%s", got, want)
			}
			if streamed.Run.Packages != whole.Run.Packages || len(streamed.Run.Handlers) == 0 {
				t.Errorf("%d packages, %d handlers; the checker: %d packages", streamed.Run.Packages, len(streamed.Run.Handlers), whole.Run.Packages)
			}
		})
	}
}
