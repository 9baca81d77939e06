package jsonout

import (
	"path/filepath"
	"testing"
)

// Error messages name their file as the findings do: relative to the root, slash-separated.
func TestRelMessage(t *testing.T) {
	root := filepath.FromSlash("/repo")
	for msg, want := range map[string]string{
		filepath.FromSlash("/repo/p/p.go") + ":3:23: undefined: x": "p/p.go:3:23: undefined: x",
		filepath.FromSlash("/elsewhere/q.go") + ":1:1: bad":        filepath.FromSlash("/elsewhere/q.go") + ":1:1: bad",
		"-: no position": "-: no position",
		filepath.FromSlash("/repository/x.go") + ":1:1: a sibling, not under /repo": filepath.FromSlash("/repository/x.go") + ":1:1: a sibling, not under /repo",
	} {
		if got := relMessage(root, msg); got != want {
			t.Errorf("relMessage(%q) = %q, want %q", msg, got, want)
		}
	}
}
