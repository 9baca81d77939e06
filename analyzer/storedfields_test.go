package analyzer_test

import (
	"slices"
	"testing"
)

// The loops of a consumer package that hand each message to a handler a field holds (a
// function field, a map of them, an interface value, one a factory the pool was given
// made) are no handlers themselves, whatever
// they reach through it: what is stored there is, by the package (the Router's audit) or
// any other (storedcallback's // want lines).
func TestStoredHandlersNotLoops(t *testing.T) {
	names := handlersOf(t, "storedcallback/...")
	for _, not := range []string{"receive loop in (*Consumer).Run", "receive loop in func literal in (*Worker).Start", "receive loop in (*Router).Run", "receive loop in (*Pump).Run", "receive loop in (*Pool).Run", "(*ledger).Setup", "(*kafka.Reader).CommitMessages", "(NopOrders).HandleOrder"} {
		if slices.Contains(names, not) {
			t.Errorf("%q is a handler; handlers: %q", not, names)
		}
	}
	for _, want := range []string{"func literal in Start", "(orders).HandleOrder", "refund", "pumped", "audit", "(*ledger).HandleMessage"} {
		if !slices.Contains(names, want) {
			t.Errorf("no handler %q; handlers: %q", want, names)
		}
	}
}
