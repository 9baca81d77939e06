package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// vscodeArgs is the command line the VS Code Go extension (golang/vscode-go,
// extension/src/goLint.ts) runs for "go.lintTool": "golangci-lint-v2" when it lints the
// package of a saved file ("go.lintOnSave": "package", the default), with no "go.lintFlags":
// the binary is the one "go.alternateTools" names for golangci-lint-v2, and the working
// directory is the file's directory.
var vscodeArgs = []string{
	"run",
	"--issues-exit-code=0",
	"--output.text.print-issued-lines=false",
	"--show-stats=false",
	"--output.text.path=stdout",
	"--path-mode=abs",
}

// vscodeLine is the pattern with which the extension (extension/src/util.ts, runTool) reads
// each line of the linter's stdout: file, line, optional column, message.
var vscodeLine = regexp.MustCompile(`^([^:]*: )?((.:)?[^:]*):(\d+)(:(\d+)?)?:(?:\w+:)? (.*)$`)

// The custom golangci-lint, run exactly as the Go extension runs it, prints what the
// extension turns into diagnostics on the right file, line and column: idemlint's findings.
func TestVSCodeGolangciLintV2(t *testing.T) {
	bin := customGCL(t) // "go.alternateTools": {"golangci-lint-v2": bin}
	dir := project(t)
	pkgDir := filepath.Join(dir, "shop")
	file := filepath.Join(pkgDir, "shop.go")

	res := run(t, pkgDir, bin, vscodeArgs...)
	// The extension shows nothing when the tool fails and writes to stderr.
	if res.code != 0 {
		t.Fatalf("exit status %d, want 0 (--issues-exit-code=0)\n%s", res.code, res)
	}

	type diag struct {
		file      string
		line, col int
		msg       string
	}
	var got []diag
	for _, l := range strings.Split(res.stdout, "\n") {
		m := vscodeLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[4])
		col, _ := strconv.Atoi(m[6])
		got = append(got, diag{m[2], line, col, m[7]})
	}
	want := []finding{insertOrder, sendReceipt} // the package's; cart's stale directive is elsewhere
	if len(got) != len(want) {
		t.Fatalf("the extension would show %d diagnostics, want %d\n%s", len(got), len(want), res)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for _, f := range want {
		n := f.line(t, dir)
		found := false
		for _, d := range got {
			if d.file != file || d.line != n || !strings.HasPrefix(d.msg, f.message) {
				continue
			}
			found = true
			if !strings.HasSuffix(d.msg, "(idemlint)") {
				t.Errorf("message %q does not name the linter idemlint", d.msg)
			}
			if d.col < 1 || d.col > len(lines[n-1]) || !strings.HasPrefix(lines[n-1][d.col-1:], f.at) {
				t.Errorf("%s:%d: column %d does not point at %q", file, n, d.col, f.at)
			}
		}
		if !found {
			t.Errorf("no diagnostic at %s:%d: %s\n%s", file, n, f.message, res)
		}
	}
}
