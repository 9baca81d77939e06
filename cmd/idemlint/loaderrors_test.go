package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes a module of files (slash-separated names) to a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Errors only in test files (a mock package not generated) do not fail the run: the
// packages are analysed without their tests, and the tests are named once, with the hint.
// An error in the package itself still fails it, with every error printed as before.
func TestTestOnlyLoadErrors(t *testing.T) {
	files := map[string]string{
		"go.mod":      "module example.com/te\n\ngo 1.26.0\n",
		"p/p.go":      "package p\n\nfunc F() int { return 1 }\n",
		"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { _ = mocks.NewStore() }\n",
		"p/x_test.go": "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/te/p/mocks\"\n)\n\nfunc TestG(t *testing.T) { _ = mocks.X }\n",
	}
	dir := writeFiles(t, files)
	stdout, stderr, code := inProcess(t, dir, "-q", "-cache=off", "./...")
	want := "idemlint: the tests of 1 package did not load, so they were not analysed (the package itself was):\n" +
		"\texample.com/te/p: p/p_test.go:5:32: undefined: mocks (and 2 more)\n" +
		"idemlint: if the tests use generated code (mocks), run go generate ./... first; -test=false leaves tests out\n"
	if code != exitClean || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 0 and:\n%s", code, stdout, stderr, want)
	}
	// -test=false: nothing to say.
	if stdout, stderr, code := inProcess(t, dir, "-q", "-cache=off", "-test=false", "./..."); code != exitClean || stdout+stderr != "" {
		t.Errorf("-test=false: exit %d, output %q", code, stdout+stderr)
	}

	files["p/p.go"] = "package p\n\nfunc F() int { return x }\n"
	dir = writeFiles(t, files)
	_, stderr, code = inProcess(t, dir, "-q", "-cache=off", "./...")
	if code != exitError || !contains(stderr, "p/p.go:3:23: undefined: x\n", "p/p_test.go:5:32: undefined: mocks\n") || contains(stderr, "did not load, so they were not analysed") {
		t.Errorf("broken package: exit %d, stderr:\n%s", code, stderr)
	}
}

// contains reports whether s contains every one of parts.
func contains(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// A package that does not exist (or a module the proxy refused) is reported once, with the
// packages that could not be analysed because they import it, not once per importer.
func TestLoadErrorCascade(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"go.mod": "module example.com/c\n\ngo 1.26.0\n",
		"a/a.go": "package a\n\nimport \"example.com/c/gone\"\n\nvar X = gone.Y\n",
		"b/b.go": "package b\n\nimport \"example.com/c/gone\"\n\nvar Z = gone.Y\n",
	})
	_, stderr, code := inProcess(t, dir, "-cache=off", "./...")
	want := "a/a.go:3:8: no required module provides package example.com/c/gone; to add it:\n" +
		"\tgo get example.com/c/gone\n" +
		"\t(so 2 packages that import example.com/c/gone could not be analysed: example.com/c/a, example.com/c/b)\n" +
		"idemlint: 3 packages analysed, 0 handlers, 0 findings, 1 package error (2 packages that import a failed one not analysed), "
	if code != exitError || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "could not import") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and it to start with:\n%s", code, stderr, want)
	}
}

// A syntax error is printed as the go command prints it, once per line and without the
// type errors that follow from it (#34 item 14), the package is counted once, and the
// findings of the packages that did load exit 3, or 1 with -strict-load (item 12).
func TestSyntaxErrorBesideFindings(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"go.mod": "module example.com/s\n\ngo 1.26.0\n",
		"p/p.go": "package p\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n)\n\n" +
			"func Handle(ctx context.Context, db *sql.DB) error {\n\t_, err := db.ExecContext(ctx, \"INSERT INTO t VALUES (1)\"\n\treturn err\n}\n\n" +
			"func Other() int {\n\treturn 1\n}\n",
		"h/h.go": "package h\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n)\n\n//idemlint:handler\n" +
			"func Handle(ctx context.Context, db *sql.DB) error {\n\t_, err := db.ExecContext(ctx, \"INSERT INTO t VALUES (1)\")\n\treturn err\n}\n",
	})
	stdout, stderr, code := inProcess(t, dir, "-cache=off", "./...")
	wantOut := "h/h.go:10:12: handler Handle: SQL write not safe to repeat: INSERT without conflict handling (Handle -> (*sql.DB).ExecContext); missing: key, enforcement\n"
	wantErr := "p/p.go:9:58: missing ',' before newline in argument list\n" +
		"p/p.go:10:2: expected operand, found 'return'\n" +
		"p/p.go:11:1: expected operand, found '}'\n" +
		"p/p.go:14:2: missing ',' in argument list\n" +
		"p/p.go:15:1: expected operand, found '}'\n" +
		"idemlint: 69 packages analysed, 1 handler, 1 finding, 1 package error, "
	if code != exitFindings || stdout != wantOut || !strings.HasPrefix(stderr, wantErr) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 3, stdout:\n%s\nstderr starting:\n%s", code, stdout, stderr, wantOut, wantErr)
	}
	if _, _, code := inProcess(t, dir, "-cache=off", "-strict-load", "./..."); code != exitError {
		t.Errorf("-strict-load: exit %d, want 1", code)
	}
	if _, _, code := inProcess(t, dir, "-cache=off", "./p"); code != exitError {
		t.Errorf("only the broken package: exit %d, want 1", code)
	}
}

// A typo in .idemlint.yml's YAML syntax is said in the file's terms, at its place, once.
func TestSettingsSyntaxError(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"go.mod":        "module example.com/y\n\ngo 1.26.0\n",
		"p/p.go":        "package p\n",
		".idemlint.yml": "disable: [http.post\nmodels:\n  - x.yml\n",
	})
	stdout, stderr, code := inProcess(t, dir, "-cache=off", "./...")
	want := "idemlint: .idemlint.yml:2:1: YAML syntax: a list opened with [ is not closed on this line, or two items lack a comma between them (',' or ']' must be specified)\n"
	if code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and:\n%s", code, stdout, stderr, want)
	}
}

// ./... at the root of a workspace whose modules are in subdirectories names the patterns
// that reach them, where the go command says only that the directory holds none.
func TestWorkspaceRoot(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"go.work":     "go 1.26.0\n\nuse (\n\t./app\n\t./lib\n)\n",
		"app/go.mod":  "module example.com/app\n\ngo 1.26.0\n",
		"app/main.go": "package main\n\nfunc main() {}\n",
		"lib/go.mod":  "module example.com/lib\n\ngo 1.26.0\n",
		"lib/lib.go":  "package lib\n",
	})
	_, stderr, code := inProcess(t, dir, "-cache=off", "./...")
	want := "idemlint: ./...: no module of the workspace (go.work) is in this directory: its modules are analysed with idemlint ./app/... ./lib/...\n"
	if code != exitError || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, want)
	}
	if _, stderr, code := inProcess(t, dir, "-cache=off", "./app/...", "./lib/..."); code != exitClean {
		t.Errorf("the patterns suggested: exit %d, stderr:\n%s", code, stderr)
	}
}
