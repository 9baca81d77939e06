package analyzer_test

import (
	"slices"
	"testing"
)

// The loops of a consumer package that hand each message to a handler a field holds (a
// function field, a map of them, an interface value) are no handlers themselves: what
// other packages store there is (storedcallback's // want lines). A loop that reaches
// what its own package stores (the Router's audit) is the handler, with those effects.
func TestStoredHandlersNotLoops(t *testing.T) {
	names := handlersOf(t, "storedcallback/...")
	for _, not := range []string{"receive loop in (*Consumer).Run", "receive loop in func literal in (*Worker).Start", "receive loop in (*Pump).Run"} {
		if slices.Contains(names, not) {
			t.Errorf("%q is a handler; handlers: %q", not, names)
		}
	}
	for _, want := range []string{"func literal in Start", "(orders).HandleOrder", "refund", "pumped", "receive loop in (*Router).Run"} {
		if !slices.Contains(names, want) {
			t.Errorf("no handler %q; handlers: %q", want, names)
		}
	}
}
