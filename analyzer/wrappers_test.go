package analyzer_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

// A registration wrapper that pulls messages and hands them to its callback
// (wrappers/runtime.Consume) is no handler itself when its loop does nothing of its own:
// the handlers are the callbacks its callers pass. Its twin in the inventory would be a
// "receive loop in func literal in Consume" with no effects, counted for nothing.
func TestWrapperLoopIsNoHandler(t *testing.T) {
	names := handlersOf(t, "wrappers/runtime")
	if i := slices.IndexFunc(names, func(n string) bool { return strings.Contains(n, "Consume") }); i >= 0 {
		t.Errorf("handler %q found in the wrapper Consume; handlers of wrappers/runtime: %q", names[i], names)
	}
}

// handlersOf runs the analyzer on the test package pkg (its // want lines checked) and
// returns the names of the handlers its analysis found, in order.
func handlersOf(t *testing.T, pkg string) []string {
	t.Helper()
	var names []string
	for _, h := range handlerRecords(t, pkg) {
		names = append(names, h.Name)
	}
	return names
}

// handlerRecords runs the analyzer on the test package pkg (its // want lines checked) and
// returns the handlers its analysis found, in order.
func handlerRecords(t *testing.T, pkg string) []*analyzer.Handler {
	t.Helper()
	var out []*analyzer.Handler
	for _, r := range analysistest.Run(t, testdata(t), analyzer.Analyzer, pkg) {
		res, ok := r.Result.(*analyzer.Result)
		if !ok || r.Err != nil {
			t.Fatalf("%s: no result (%v)", r.Pass.Pkg.Path(), r.Err)
		}
		out = append(out, res.Handlers...)
	}
	return out
}

// A constructor registered for its result (mux.Handle(t, NewSettleHandler(svc))) is no
// handler when it returns a struct whose method the framework calls: the inventory lists
// (*SettleHandler).ProcessTask once, not also NewSettleHandler with no effects.
func TestConstructorIsNoHandler(t *testing.T) {
	names := handlersOf(t, "constructors")
	if slices.Contains(names, "NewSettleHandler") || !slices.Contains(names, "(*SettleHandler).ProcessTask") {
		t.Errorf("handlers of constructors: %q; want (*SettleHandler).ProcessTask and not NewSettleHandler", names)
	}
}
