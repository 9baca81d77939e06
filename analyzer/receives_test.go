package analyzer_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

// A helper that polls and returns the batch (models/franzgo's (Ingest).poll) is a receive
// call of the loops that call it, and no handler itself: its twin in the inventory would
// be a "receive in (Ingest).poll" with no effects. The loops that call it are handlers,
// and so is the loop that polls through the application's own interface.
func TestPollHelperIsNoHandler(t *testing.T) {
	results := analysistest.Run(t, testdata(t), analyzer.Analyzer, "models/franzgo")
	var names []string
	for _, r := range results {
		res, ok := r.Result.(*analyzer.Result)
		if !ok || r.Err != nil {
			t.Fatalf("%s: no result (%v)", r.Pass.Pkg.Path(), r.Err)
		}
		for _, h := range res.Handlers {
			names = append(names, h.Name)
		}
	}
	if slices.Contains(names, "receive in (Ingest).poll") {
		t.Errorf("the poll helper is a handler; handlers of models/franzgo: %q", names)
	}
	for _, want := range []string{"receive loop in (Ingest).Run", "receive loop in (Ingest).RunHelper", "receive loop in (Ingest).RunHelperSafe"} {
		if !slices.Contains(names, want) {
			t.Errorf("no handler %q; handlers of models/franzgo: %q", want, names)
		}
	}
}
