package driver

import (
	"slices"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/result"
)

// A module whose handlers drain a queue through a helper package that calls their callback
// (testdata/modules/callbacks): the helper's fact says it calls the parameter, so a
// literal or a method value passed there brings its INSERT to the handler, with the chain
// through the helper; the twin whose callback upserts stays clean. A helper package that
// imports nothing modelled is analysed all the same, being the module's own (a
// dependency's would not be), so its call of the callback is a hop of the chain too.
//
// Each handler's finding is what it tests: per handler (-shared-sinks=per-handler), since
// the three reach store.Add.
func TestCallbacksThroughHelper(t *testing.T) {
	chdirModule(t, "callbacks")
	a, err := analyzer.New(analyzer.Config{SharedSinks: "per-handler"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(Config{Analyzer: a, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Run.Errors) > 0 {
		t.Fatalf("errors: %+v", out.Run.Errors)
	}
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Category })
	slices.Sort(got)
	want := []string{
		"(*Worker).Drain: sql.write via poll.Poll -> func literal in (*Worker).Drain -> store.Add -> (*sql.DB).ExecContext",
		"(*Worker).DrainMethod: sql.write via poll.Poll -> (*worker.Worker).add -> store.Add -> (*sql.DB).ExecContext",
		"(*Worker).Retried: sql.write via retry.Do -> func literal in (*Worker).Retried -> store.Add -> (*sql.DB).ExecContext",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	clean := false
	for _, h := range out.Run.Handlers {
		if h.Name == "(*Worker).DrainClean" {
			clean = true
			for _, e := range h.Effects {
				if e.State != "protected" {
					t.Errorf("DrainClean's callback upserts, got %+v", e)
				}
			}
			if len(h.Effects) == 0 {
				t.Errorf("DrainClean's protected write did not come through poll.Poll")
			}
		}
	}
	if !clean {
		t.Errorf("no handler DrainClean among %+v", out.Run.Handlers)
	}
}
