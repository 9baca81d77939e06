package analyzer_test

import (
	"slices"
	"testing"
)

// A helper that polls and returns the batch (models/franzgo's (Ingest).poll) is a receive
// call of the loops that call it, and no handler itself: its twin in the inventory would
// be a "receive in (Ingest).poll" with no effects. The loops that call it are handlers,
// and so is the loop that polls through the application's own interface.
func TestPollHelperIsNoHandler(t *testing.T) {
	names := handlersOf(t, "models/franzgo")
	if slices.Contains(names, "receive in (Ingest).poll") {
		t.Errorf("the poll helper is a handler; handlers of models/franzgo: %q", names)
	}
	for _, want := range []string{"receive loop in (Ingest).Run", "receive loop in (Ingest).RunHelper", "receive loop in (Ingest).RunHelperSafe"} {
		if !slices.Contains(names, want) {
			t.Errorf("no handler %q; handlers of models/franzgo: %q", want, names)
		}
	}
}
