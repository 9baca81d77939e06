package main

import (
	"strings"
	"testing"
)

// -decisions keeps only the required checklist decisions in the missing lists; a finding
// left with none (the unstable refund key: missing key only) is not reported.
func TestRequiredDecisions(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	dir := examplesDir(t)
	out, code := inProcessAll(t, dir, "-q", "-decisions", "partial", "./...")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 3 || len(lines) != 5 {
		t.Fatalf("exit %d, %d findings, want 3 and 5:\n%s", code, len(lines), out)
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, " do not commit together)") || !strings.Contains(l, "; missing: partial (") {
			t.Errorf("finding keeps decisions not required: %s", l)
		}
	}
	if _, code := inProcessAll(t, dir, "-q", "-decisions", "owner", "./..."); code != 2 {
		t.Errorf("-decisions owner: exit %d, want 2 (usage)", code)
	}
}
