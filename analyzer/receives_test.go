package analyzer_test

import (
	"slices"
	"strings"
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

// A Redis Streams consumer whose package reads its group only from ">" and reclaims
// nothing, and a loop that acknowledges before it handles, run their effects at most once:
// the handlers say why (the inventory's "at most once"), and have no finding (their // want
// lines), and so does one that reads with NOACK, reclaims beside it or not; the same for
// rueidis's builder chains. Their twins that re-read or reclaim pending entries say nothing
// of the kind. So
// does a callback of a registration wrapper whose loop acks before it calls back.
func TestReceivesAtMostOnce(t *testing.T) {
	for pkg, want := range map[string]map[string]string{
		"streamonce": {
			"receive loop in consumeNew":   `reads only new entries`,
			"receive loop in consumeArgs":  `reads only new entries`,
			"receive loop in consumeBuilt": `reads only new entries`,
			// Through a read helper that returns the run's entries (rueidis, go-redis).
			"receive loop in (*payments).consume":        `reads only new entries`,
			"receive loop in consumeEventsThroughHelper": `reads only new entries`,
			"receive loop in consumeValkey":              `reads only new entries`,
		},
		"streamonce/reread": {
			"receive loop in consumePendingFirst": "",
			"receive loop in consumeNew":          "",
			"receive loop in consumeNoAck":        "with NOACK",
		},
		"streamonce/rereadbuilt": {
			"receive loop in consumePendingFirst": "",
			"receive loop in consumeClaiming":     "",
			"receive loop in consumeNew":          "",
			"receive loop in consumeNoAck":        "with NOACK",
			"receive in consumeOnce":              "",
			"receive loop in consumeOrders":       "",
		},
		"models/rueidis": {
			"receive loop in consume":         "",
			"receive loop in consumeAckFirst": "acknowledges each message (",
			"receive loop in reclaim":         "",
		},
		"streamonce/callback/...": {
			"(Orders).Handle": `reads only new entries`,
		},
		"streamonce/claimelsewhere": {
			"receive loop in (*Worker).fetch":      "",
			"receive loop in (*Worker).claimStale": "",
		},
		"models/valkey": {
			"receive loop in consume":         "",
			"receive loop in consumeAckFirst": "acknowledges each message (",
			"receive loop in reclaim":         "",
		},
		"models/kafka": {
			"receive loop in commitFirst": "acknowledges each message (",
			"receive loop in commitLast":  "",
		},
		"wrappers": {
			"matched": "Listen acknowledges each message (runtime.go:",
			"indexed": "",
		},
		"handoff/ackfirst": {
			"receive loop in Work": "Consume acknowledges each message (ackfirst.go:",
		},
		"handoff/...": {
			"receive loop in func literal in workers": "",
		},
	} {
		got := map[string]string{}
		for _, h := range handlerRecords(t, pkg) {
			got[h.Name] = h.AtMostOnce
		}
		for name, w := range want {
			once, ok := got[name]
			switch {
			case !ok:
				t.Errorf("%s: no handler %q (handlers: %v)", pkg, name, got)
			case w == "" && once != "":
				t.Errorf("%s: %s runs at most once (%q), want a redelivery", pkg, name, once)
			case w != "" && !strings.Contains(once, w):
				t.Errorf("%s: %s: at most once %q, want it to say %q", pkg, name, once, w)
			}
		}
	}
}

// A consumer that sends each delivery on as a value of its own type (queue.Message keeps
// the delivery to ack it) is no handler; the loop that reads that channel in another
// package, behind a relay that merges channels, is; so is the loop that drains a buffer
// whose Push sends what a receive loop gives it on a channel. Neither the relay, nor a loop that
// reads the workers' results or a status a consumer reports, is a handler.
func TestChannelHandOff(t *testing.T) {
	names := handlersOf(t, "handoff/...")
	for _, want := range []string{"receive loop in func literal in workers", "receive loop in (*Consumer).Count", "receive loop in (*Buffer).Drain"} {
		if !slices.Contains(names, want) {
			t.Errorf("no handler %q; handlers: %q", want, names)
		}
	}
	for _, not := range []string{"receive loop in func literal in (*Consumer).Consume", "receive loop in func literal in merge", "receive loop in Run", "receive loop in Watch", "receive loop in Consume"} {
		if slices.Contains(names, not) {
			t.Errorf("%q is a handler; handlers: %q", not, names)
		}
	}
}

// A helper that fetches a message and returns the service's own form of it (a struct built
// from the message) is a receive of its callers, not a handler: the loop that calls it is.
// A helper that returns a number computed from the message keeps its own receive.
func TestConvertingHelperIsNoHandler(t *testing.T) {
	names := handlersOf(t, "models/kafka")
	if slices.Contains(names, "receive in (*Source).Next") {
		t.Errorf("the converting helper is a handler; handlers: %q", names)
	}
	for _, want := range []string{"receive loop in (*Source).Drain", "receive in (*Source).Lag"} {
		if !slices.Contains(names, want) {
			t.Errorf("no handler %q; handlers: %q", want, names)
		}
	}
}

// A consumer library's loop that reads through a converting helper and runs the callback it
// was given in a goroutine bounded by a semaphore (handoff/spawn) registers what its callers
// pass: the service's method is the handler, and the loop and the helper are none.
func TestSpawnedCallbackIsTheHandler(t *testing.T) {
	names := handlersOf(t, "handoff/spawn/...")
	if !slices.Contains(names, "(Orders).Handle") {
		t.Errorf("no handler (Orders).Handle; handlers: %q", names)
	}
	for _, not := range []string{"receive loop in (*Consumer).Run", "receive in (*Consumer).read"} {
		if slices.Contains(names, not) {
			t.Errorf("%q is a handler; handlers: %q", not, names)
		}
	}
}
