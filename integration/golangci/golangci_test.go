package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// issue is one finding in golangci-lint's JSON output.
type issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename string
		Line     int
	}
}

// lint runs the custom golangci-lint on the project in dir with JSON output, and returns its
// findings. args end with the packages.
func lint(t *testing.T, dir string, args ...string) ([]issue, result) {
	t.Helper()
	args = append([]string{"run", "--output.json.path=stdout", "--show-stats=false"}, args...)
	res := run(t, dir, customGCL(t), args...)
	var out struct{ Issues []issue }
	if res.code == 0 || res.code == 1 {
		if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, res)
		}
	}
	return out.Issues, res
}

// configure replaces the project's .golangci.yml with one that passes settings (a YAML
// flow mapping) to idemlint.
func configure(t *testing.T, dir, settings string) {
	t.Helper()
	cfg := `version: "2"
linters:
  default: none
  enable: [idemlint]
  settings:
    custom:
      idemlint:
        type: module
        settings: ` + settings + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// finding names an expected finding: the file (slash-separated, relative to the project),
// the line in it that contains on, the text at its column, and the start of its message.
type finding struct{ file, on, at, message string }

var (
	insertOrder = finding{"shop/shop.go", `"INSERT INTO orders`, "db.ExecContext", "handler HandleOrderCreated: SQL write not safe to repeat"}
	sendReceipt = finding{"shop/shop.go", "smtp.SendMail(", "smtp.SendMail", "handler HandleOrderCreated: email sent with no deduplication"}
	refund      = finding{"shop/shop.go", "balance = balance + 1", "db.ExecContext", "handler HandleRefund: SQL write not safe to repeat"}
	staleIgnore = finding{"cart/cart.go", "//idemlint:ignore sql.write", "//idemlint:ignore", "//idemlint:ignore sql.write silences nothing here"}
)

// line returns the number of f's line in the project in dir.
func (f finding) line(t *testing.T, dir string) int {
	t.Helper()
	return lineOf(t, filepath.Join(dir, filepath.FromSlash(f.file)), f.on)
}

// expect checks that issues are exactly the findings want, from idemlint, and that the exit
// status says whether there were findings.
func expect(t *testing.T, dir string, issues []issue, res result, want ...finding) {
	t.Helper()
	var got []string
	for _, i := range issues {
		got = append(got, fmt.Sprintf("%s:%d: (%s) %s", filepath.ToSlash(i.Pos.Filename), i.Pos.Line, i.FromLinter, i.Text))
	}
	var wanted []string
	for _, f := range want {
		wanted = append(wanted, fmt.Sprintf("%s:%d: (idemlint) %s", f.file, f.line(t, dir), f.message))
	}
	slices.Sort(got)
	slices.Sort(wanted)
	ok := len(got) == len(wanted)
	for i := 0; ok && i < len(got); i++ {
		ok = strings.HasPrefix(got[i], wanted[i])
	}
	if !ok {
		t.Errorf("findings:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(wanted, "\n"), res)
	}
	wantCode := 0
	if len(want) > 0 {
		wantCode = 1 // golangci-lint's exit status for findings
	}
	if res.code != wantCode {
		t.Errorf("exit status %d, want %d\n%s", res.code, wantCode, res)
	}
}

// The plugin's findings appear under the linter name idemlint, at the call in the handler
// that leads to each effect; //nolint:idemlint silences one.
func TestFindings(t *testing.T) {
	dir := project(t)
	issues, res := lint(t, dir, "./...")
	expect(t, dir, issues, res, insertOrder, sendReceipt, staleIgnore)
}

// The refund is missing above because of //nolint:idemlint, not because idemlint misses
// it: without the comment it is reported.
func TestNolint(t *testing.T) {
	dir := project(t)
	file := filepath.Join(dir, "shop", "shop.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const nolint = " //nolint:idemlint // reviewed: refunds are reconciled daily"
	if !strings.Contains(string(src), nolint) {
		t.Fatalf("shop.go lost its %q", nolint)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(src), nolint, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	issues, res := lint(t, dir, "./...")
	expect(t, dir, issues, res, insertOrder, sendReceipt, refund, staleIgnore)
}

// --fix applies idemlint's suggested fix: the stale directive is removed, with its line,
// and the next run no longer reports it. (The cart package has no other finding, so no
// other fix applies.)
func TestFix(t *testing.T) {
	dir := project(t)
	_, res := lint(t, dir, "--fix", "./cart")
	if res.code != 0 {
		t.Fatalf("--fix: %s", res)
	}
	got, err := os.ReadFile(filepath.Join(dir, "cart", "cart.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "cart.go.fixed"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("cart/cart.go after --fix:\n%s\nwant (testdata/cart.go.fixed):\n%s", got, want)
	}
	issues, res := lint(t, dir, "./...")
	expect(t, dir, issues, res, insertOrder, sendReceipt)
}

// Settings change what is reported.
func TestSettings(t *testing.T) {
	for _, tc := range []struct {
		settings string
		want     []finding
	}{
		{`{}`, []finding{insertOrder, sendReceipt}},
		{`{disable: [email.send]}`, []finding{insertOrder}},
		{`{enable: [email.send]}`, []finding{sendReceipt}},
		{`{enable: [email.send, sql.write], disable: [email.send]}`, []finding{insertOrder}},
	} {
		t.Run(tc.settings, func(t *testing.T) {
			dir := project(t)
			configure(t, dir, tc.settings)
			issues, res := lint(t, dir, "./...")
			// Whether a directive that names a kind not reported is itself reported is the
			// analyzer's business (analyzer/ tests it); here only the handlers' findings count.
			issues = slices.DeleteFunc(issues, func(i issue) bool { return strings.HasPrefix(i.Text, "//idemlint:") })
			expect(t, dir, issues, res, tc.want...)
		})
	}
}

// A bad setting stops golangci-lint before it lints, with a message that names the setting
// and what is wrong with it.
func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		settings string
		want     []string // in the error message
	}{
		{`{disabel: [email.send]}`, []string{`unknown field "disabel"`, "known settings: disable, enable, models, builtin, decisions"}},
		{`{disable: email.send}`, []string{"setting disable: want a list of strings, got a string"}},
		{`{builtin: "no"}`, []string{"setting builtin: want a boolean (true or false), got a string"}},
		{`{disable: [mail.send]}`, []string{`disable: unknown effect kind "mail.send"`, "email.send"}},
		{`{enable: [sql.writes]}`, []string{`enable: unknown effect kind "sql.writes"`}},
	} {
		t.Run(tc.settings, func(t *testing.T) {
			dir := project(t)
			configure(t, dir, tc.settings)
			res := run(t, dir, customGCL(t), "run", "./...")
			if res.code != 3 { // golangci-lint's exit status for a failure
				t.Errorf("exit status %d, want 3", res.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.stderr, "plugin(idemlint)") || !strings.Contains(res.stderr, w) {
					t.Errorf("error output lacks plugin(idemlint) and %q", w)
				}
			}
			if strings.Contains(res.stdout+res.stderr, "shop.go") {
				t.Errorf("findings printed despite the bad setting")
			}
			if t.Failed() {
				t.Log(res)
			}
		})
	}
}

// The example configuration at the repository's top level works as documented.
func TestExampleConfig(t *testing.T) {
	dir := project(t)
	example, err := os.ReadFile(filepath.Join(repoRoot, ".golangci.example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), example, 0o644); err != nil {
		t.Fatal(err)
	}
	issues, res := lint(t, dir, "./...")
	expect(t, dir, issues, res, insertOrder, sendReceipt, staleIgnore)
}
