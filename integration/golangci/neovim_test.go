package main_test

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// nvimLintArgs are the arguments docs/editors.md gives nvim-lint's golangcilint linter
// next to the custom binary: those nvim-lint itself passes to golangci-lint v2.1+
// (mfussenegger/nvim-lint, lua/lint/linters/golangcilint.lua) that matter here, followed by
// the directory of the buffer's file.
var nvimLintArgs = []string{
	"run",
	"--output.json.path=stdout",
	"--output.text.path=",
	"--issues-exit-code=0",
	"--show-stats=false",
	"--path-mode=abs",
}

// The custom golangci-lint, run as nvim-lint runs it from the project's root, reports the
// buffer's findings with the absolute file name that nvim-lint matches against the buffer.
func TestNeovimNvimLint(t *testing.T) {
	bin := customGCL(t)
	dir := project(t)
	file := filepath.Join(dir, "shop", "shop.go")
	res := run(t, dir, bin, append(nvimLintArgs, filepath.Dir(file))...)
	if res.code != 0 {
		t.Fatalf("exit status %d, want 0 (--issues-exit-code=0)\n%s", res.code, res)
	}
	var out struct{ Issues []issue }
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, res)
	}
	// nvim-lint keeps the issues whose Pos.Filename is the buffer's absolute path.
	var mine []issue
	for _, i := range out.Issues {
		if i.Pos.Filename == file {
			mine = append(mine, i)
		}
	}
	for k := range mine {
		rel, _ := filepath.Rel(dir, mine[k].Pos.Filename)
		mine[k].Pos.Filename = rel
	}
	expect(t, dir, mine, result{code: 1}, insertOrder, sendReceipt) // the real exit status is checked above
	if len(mine) != len(out.Issues) {
		t.Errorf("%d of %d issues are not on %s\n%s", len(out.Issues)-len(mine), len(out.Issues), file, res)
	}
}
