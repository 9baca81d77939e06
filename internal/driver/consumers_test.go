package driver

import (
	"slices"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/result"
)

// A service module that consumes through a company library in a module of its own
// (testdata/modules/consumers, example.com/mq replaced by ./mqlib): a callback the
// library's constructor keeps, an interface value whose Handle the library's goroutine
// calls, a callback the library calls with the decoded payload after acking, and the
// channel of messages the library's Stream hands on, read by the service's workers. Each
// is a handler of the service, with the chain from its own body; the ack-first callback
// runs at most once and has no finding; the library's own loops are none of the
// service's handlers. A pipeline that pulls through an interface it declares, which main
// wires to a source converting kafka-go messages to the service's events, is a receive
// loop (the program link finds the source's receive), and the source's Next is none.
func TestConsumersThroughLibraryModule(t *testing.T) {
	chdirModule(t, "consumers")
	out := runAll(t)
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Category })
	slices.Sort(got)
	want := []string{
		"(*Service).place: sql.write via (*sql.DB).ExecContext",
		"(*charger).Handle: sql.write via (*sql.DB).ExecContext",
		"receive loop in Run: sql.write via (*sql.DB).ExecContext",
		"receive loop in func literal in Start: sql.write via (*sql.DB).Exec",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	names := handlerNames(out.Run)
	for _, h := range out.Run.Handlers {
		if h.Name == "func literal in Start" {
			if !strings.Contains(h.AtMostOnce, "Subscribe acknowledges each message") {
				t.Errorf("the Subscribe callback runs at most once, got %q", h.AtMostOnce)
			}
		}
		if strings.Contains(h.Pos.File, "mqlib") {
			t.Errorf("the library's own code is a handler of the service: %s at %s", h.Name, h.Pos.File)
		}
	}
	if !slices.Contains(names, "func literal in Start") {
		t.Errorf("no handler for the Subscribe callback; handlers: %q", names)
	}
	if slices.Contains(names, "receive in (*Source).Next") {
		t.Errorf("the converting helper behind the pipeline's interface is a handler; handlers: %q", names)
	}
}
