package driver

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/output/jsonout"
	"github.com/chokaq/idemlint/internal/output/sarif"
	"github.com/chokaq/idemlint/internal/result"
)

// A module whose handlers share helpers (testdata/modules/shared): two routes reach one
// INSERT through one function, a handler reaches an INSERT of its own, and a handler
// reaches a keyed token fetch six hops down and two POSTs not safe to repeat.
//
// With -shared-sinks=per-handler each handler keeps one finding per kind; a shared sink's
// finding names the other handler, and a handler's other sinks of the kind are counted and
// listed, in the related information that every format carries. The fingerprints are those
// the findings had before findings said any of this (the message is not part of a
// fingerprint): a baseline written then still matches.
func TestSharedSinksPerHandler(t *testing.T) {
	chdirModule(t, "shared")
	a, err := analyzer.New(analyzer.Config{SharedSinks: "per-handler"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(Config{Analyzer: a, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ fingerprint, message, related string }{
		"RouteA": {"b5956fab4a177c3ef111d8d09bf80aff",
			"handler RouteA: SQL write not safe to repeat: INSERT without conflict handling (RouteA -> webhooks.handleNotification -> (*sql.DB).ExecContext); handler RouteB reaches it too, through webhooks.handleNotification; missing: key, enforcement",
			"webhooks.go:31 via handleNotification | webhooks.go:26 handler RouteB reaches the same sink (RouteB -> webhooks.handleNotification -> (*sql.DB).ExecContext)"},
		"RouteB": {"81e9b02a4db48648a075c22efa6c8afa",
			"handler RouteB: SQL write not safe to repeat: INSERT without conflict handling (RouteB -> webhooks.handleNotification -> (*sql.DB).ExecContext); handler RouteA reaches it too, through webhooks.handleNotification; missing: key, enforcement",
			"webhooks.go:31 via handleNotification | webhooks.go:19 handler RouteA reaches the same sink (RouteA -> webhooks.handleNotification -> (*sql.DB).ExecContext)"},
		"Single": {"9db969bc8c611f0deb59faf04e98b9e3",
			"handler Single: SQL write not safe to repeat: INSERT without conflict handling (Single -> webhooks.audit -> (*sql.DB).ExecContext); missing: key, enforcement",
			"webhooks.go:43 via audit"},
		"Notify": {"3a7a2bd8f8d321f4d5bdf7db41a24f3c",
			"handler Notify: HTTP POST without an Idempotency-Key header (Notify -> webhooks.sendWebhook -> (*http.Client).Do) and 1 more http.write sink; missing: key, enforcement",
			"webhooks.go:63 via sendWebhook | webhooks.go:85 also http.write: HTTP POST without an Idempotency-Key header (Notify -> webhooks.report1 -> webhooks.report2 -> webhooks.deliveryReport -> (*http.Client).Do)"},
	}
	checkShared(t, out, want, "handler RouteB reaches the same sink")
}

// By default the two routes' INSERT, reached through the function they share, is one
// finding, at the call in that function (webhooks.go:31), with the first route's
// fingerprint (its baseline entry still matches; the second's goes stale), the first
// route's call and the second route among its related information. The findings of sinks
// one handler reaches alone are as they were.
func TestSharedSinksOnce(t *testing.T) {
	chdirModule(t, "shared")
	out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ fingerprint, message, related string }{
		"RouteA": {"b5956fab4a177c3ef111d8d09bf80aff",
			"handler RouteA: SQL write not safe to repeat: INSERT without conflict handling (RouteA -> webhooks.handleNotification -> (*sql.DB).ExecContext); handler RouteB reaches it too, through webhooks.handleNotification (one finding for both); missing: key, enforcement",
			"webhooks.go:20 handler RouteA calls it here | webhooks.go:26 handler RouteB reaches the same sink (RouteB -> webhooks.handleNotification -> (*sql.DB).ExecContext)"},
		"Single": {"9db969bc8c611f0deb59faf04e98b9e3",
			"handler Single: SQL write not safe to repeat: INSERT without conflict handling (Single -> webhooks.audit -> (*sql.DB).ExecContext); missing: key, enforcement",
			"webhooks.go:43 via audit"},
		"Notify": {"3a7a2bd8f8d321f4d5bdf7db41a24f3c",
			"handler Notify: HTTP POST without an Idempotency-Key header (Notify -> webhooks.sendWebhook -> (*http.Client).Do) and 1 more http.write sink; missing: key, enforcement",
			"webhooks.go:63 via sendWebhook | webhooks.go:85 also http.write: HTTP POST without an Idempotency-Key header (Notify -> webhooks.report1 -> webhooks.report2 -> webhooks.deliveryReport -> (*http.Client).Do)"},
	}
	checkShared(t, out, want, "handler RouteB reaches the same sink")
	for _, f := range out.Run.Findings {
		if f.Handler == "RouteA" && (filepath.Base(f.Pos.File) != "webhooks.go" || f.Pos.Line != 31) {
			t.Errorf("the shared finding is at %s:%d, want the call in handleNotification (webhooks.go:31)", f.Pos.File, f.Pos.Line)
		}
	}
	// RouteB has no finding of its own, but its INSERT is reported (by RouteA's): the
	// inventory must not show it as protected.
	for _, h := range out.Run.Handlers {
		if h.Name != "RouteB" {
			continue
		}
		for _, e := range h.Effects {
			if e.Kind == "sql.write" && (!e.Reported || len(e.Missing) == 0) {
				t.Errorf("RouteB's INSERT: reported %v, missing %v; want it reported with RouteA's finding", e.Reported, e.Missing)
			}
		}
	}
}

// checkShared compares the run's findings with want, by handler, and checks that the JSON
// document and the SARIF log carry the related information.
func checkShared(t *testing.T, out *Output, want map[string]struct{ fingerprint, message, related string }, sharedNote string) {
	t.Helper()
	if len(out.Run.Findings) != len(want) {
		t.Fatalf("%d findings, want %d: %+v", len(out.Run.Findings), len(want), out.Run.Findings)
	}
	for _, f := range out.Run.Findings {
		w, ok := want[f.Handler]
		if !ok {
			t.Errorf("unexpected finding %s", f.Message)
			continue
		}
		if f.Fingerprint != w.fingerprint {
			t.Errorf("%s: fingerprint %s, want %s (a baseline would no longer match)", f.Handler, f.Fingerprint, w.fingerprint)
		}
		if f.Message != w.message {
			t.Errorf("%s: message\n got %s\nwant %s", f.Handler, f.Message, w.message)
		}
		if got := related(f); got != w.related {
			t.Errorf("%s: related\n got %s\nwant %s", f.Handler, got, w.related)
		}
	}

	// The JSON document and the SARIF log carry the related information.
	var js, sf bytes.Buffer
	if err := jsonout.Write(&js, jsonout.Build(out.Run, out.Run.Findings, nil)); err != nil {
		t.Fatal(err)
	}
	if err := sarif.Write(&sf, sarif.Build(out.Run, out.Run.Findings)); err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string]string{"json": js.String(), "sarif": sf.String()} {
		for _, s := range []string{"also http.write: HTTP POST", sharedNote} {
			if !strings.Contains(doc, s) {
				t.Errorf("the %s output lacks %q", name, s)
			}
		}
	}
}

// related renders a finding's related positions as "file.go:line message | ...".
func related(f *result.Finding) string {
	var parts []string
	for _, r := range f.Related {
		parts = append(parts, fmt.Sprintf("%s:%d %s", filepath.Base(r.Pos.File), r.Pos.Line, r.Message))
	}
	return strings.Join(parts, " | ")
}
