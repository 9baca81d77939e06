package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chokaq/idemlint/internal/cache"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildOut  []byte
)

// build compiles the command once per test binary.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "idemlint-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "idemlint")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = pkgDir
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return binPath
}

func TestMain(m *testing.M) {
	// No test reads or fills the user's result cache: those that test it name their own.
	os.Setenv(cache.EnvVar, cache.Off)
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// pkgDir is the package's directory, where the tests start (in-process runs change the
// working directory).
var pkgDir, _ = os.Getwd()

func examplesDir(t *testing.T) string {
	return filepath.Join(pkgDir, "..", "..", "examples")
}

// run runs cmd in dir and returns its output with dir's prefix cut from paths, and the exit code.
func run(t *testing.T, dir string, name string, args ...string) (string, int) {
	t.Helper()
	stdout, stderr, code := runSplit(t, dir, name, args...)
	return stdout + stderr, code
}

// runSplit is run with stdout and stderr apart (stdout first in run's result: the commands
// tested write to one of them only, except for the summary line).
func runSplit(t *testing.T, dir string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	cut := func(s string) string { return strings.ReplaceAll(s, dir+string(filepath.Separator), "") }
	return cut(out.String()), cut(errb.String()), code
}

var summaryLine = regexp.MustCompile(`^idemlint: \d+ packages? analysed, (\d+) handlers?, (\d+) findings?, \d+\.\ds$`)

// The example shop, analysed with the real asynq, River, Watermill, pgx and stripe-go
// modules, gives exactly the findings in examples/expected.txt, and exit status 3; a summary
// line follows unless -q.
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	bin := build(t)
	dir := examplesDir(t)
	want := expectedText(t, dir)
	cmd := exec.Command(bin, "./...")
	cmd.Dir = dir
	var outb, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &errb
	cmd.Run()
	stdout, stderr, code := outb.String(), errb.String(), cmd.ProcessState.ExitCode()
	// Nothing cut: the paths are relative to the working directory as printed.
	if stdout != string(want) {
		t.Errorf("idemlint ./... in examples/ (stdout):\n got:\n%s\nwant:\n%s", stdout, want)
	}
	// stderr has the summary line only (no progress line: it is not a terminal).
	last := strings.TrimSuffix(stderr, "\n")
	if m := summaryLine.FindStringSubmatch(last); m == nil || m[2] != "6" || strings.Contains(last, "\n") {
		t.Errorf("stderr %q is not one summary line with 6 findings", stderr)
	}
	if code != 3 {
		t.Errorf("exit status %d, want 3 (findings)", code)
	}

	// -json: the go/analysis JSON tree (as go vet -json), the same findings, exit status 0;
	// -q leaves stdout to the JSON alone.
	out, code := inProcessAll(t, dir, "-q", "-json", "./...")
	if code != 0 {
		t.Errorf("-json exit status %d, want 0\n%s", code, out)
	}
	var tree map[string]map[string][]struct {
		Category string `json:"category"`
		Message  string `json:"message"`
	}
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("-json output does not parse: %v\n%s", err, out)
	}
	n := 0
	for _, byAnalyzer := range tree {
		for _, diags := range byAnalyzer {
			for _, d := range diags {
				if !strings.Contains(string(want), d.Message) {
					t.Errorf("-json has a finding not in expected.txt: %s", d.Message)
				}
				n++
			}
		}
	}
	if wantN := strings.Count(string(want), "\n"); n != wantN {
		t.Errorf("-json has %d findings, want %d", n, wantN)
	}
}

// expectedText is examples/expected.txt: the text findings idemlint must print there.
func expectedText(t *testing.T, dir string) []byte {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// As a vet tool, idemlint reports the same findings through go vet, which exits non-zero.
func TestVetTool(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	bin := build(t)
	dir := examplesDir(t)
	want := expectedText(t, dir)
	got, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code == 0 {
		t.Errorf("go vet exited 0 with findings present")
	}
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		// go vet prints paths relative to the module, after a "# package" header.
		msg := line[strings.Index(line, "handler "):]
		if !strings.Contains(got, msg) {
			t.Errorf("go vet output lacks %q\n%s", msg, got)
		}
	}
	// The analyzer's flags pass through go vet unprefixed, as before.
	got, _ = run(t, dir, "go", "vet", "-vettool="+bin, "-disable=sql.write,payment", "./...")
	if strings.Contains(got, "SQL write") || !strings.Contains(got, "email sent") {
		t.Errorf("go vet -disable=sql.write,payment:\n%s", got)
	}

	// go vet caches the tool's results under its -V=full ID: a .idemlint.yml written after
	// a run (here a model that makes fmt.Errorf an effect) must not be answered with the
	// results made without it, nor with its own once it is gone again.
	cp := copyExamples(t)
	settings := filepath.Join(cp, ".idemlint.yml")
	vet := func() string { // the lines sorted: go vet prints packages as they finish
		out, _ := run(t, cp, "go", "vet", "-vettool="+bin, "./...")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		slices.Sort(lines)
		return strings.Join(lines, "\n")
	}
	first := vet()
	model := "library: errors as reports\nsinks:\n  - funcs: [\"fmt.Errorf\"]\n    kind: publish\n    shape: send\n    what: error report\n"
	if err := os.WriteFile(settings, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	if second := vet(); second == first || !strings.Contains(second, "fmt.Errorf") {
		t.Errorf("go vet after a .idemlint.yml model was added gives the results of before (stale cache?):\n%s", second)
	}
	os.Remove(settings)
	if third := vet(); third != first {
		t.Errorf("go vet after .idemlint.yml was removed:\n%s\nwant:\n%s", third, first)
	}
}

// expectedFindings reads examples/expected.txt as (file, line, message) triples.
func expectedFindings(t *testing.T) []struct{ file, line, msg string } {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(examplesDir(t), "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []struct{ file, line, msg string }
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(l, ":", 4)
		out = append(out, struct{ file, line, msg string }{parts[0], parts[1], strings.TrimSpace(parts[3])})
	}
	return out
}

// -format json: idemlint's versioned document with the structured finding; -q keeps stderr
// empty; findings exit 3 as in text.
func TestFormatJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	stdout, stderr, code := inProcess(t, examplesDir(t), "-q", "-format", "json", "./...")
	if code != 3 || stderr != "" {
		t.Errorf("exit status %d (want 3), stderr %q (want none with -q)", code, stderr)
	}
	var doc struct {
		Version  int `json:"version"`
		Findings []struct {
			Kind, File, Message, Fingerprint, State, Package string
			Line                                             int
			Handler                                          *struct{ Name, Framework string }
			Chain                                            []struct{ Func, At, File string }
			Missing                                          []string
		} `json:"findings"`
		Summary struct {
			Handlers, Findings int
			ByKind             map[string]int `json:"by_kind"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	want := expectedFindings(t)
	if doc.Version != 1 || len(doc.Findings) != len(want) || doc.Summary.Findings != len(want) || doc.Summary.ByKind["sql.write"] != 3 {
		t.Fatalf("version %d, %d findings, summary %+v; want version 1, %d findings, 3 sql.write", doc.Version, len(doc.Findings), doc.Summary, len(want))
	}
	fp := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for i, f := range doc.Findings {
		w := want[i]
		if !strings.HasSuffix(f.File, w.file) || f.Message != w.msg {
			t.Errorf("finding %d: %s %q, want %s %q", i, f.File, f.Message, w.file, w.msg)
		}
		if f.Handler == nil || !strings.HasPrefix(f.Message, "handler "+f.Handler.Name+":") || len(f.Chain) < 2 || len(f.Missing) == 0 || !fp.MatchString(f.Fingerprint) {
			t.Errorf("finding %d lacks its structure: %+v", i, f)
		}
		var hops []string
		for _, h := range f.Chain {
			hops = append(hops, h.Func)
		}
		if !strings.Contains(f.Message, strings.Join(hops, " -> ")) || !strings.HasSuffix(missingNames(f.Message), "missing: "+strings.Join(f.Missing, ", ")) {
			t.Errorf("finding %d: chain %v or missing %v disagree with %q", i, hops, f.Missing, f.Message)
		}
	}
}

// -format github: one workflow command per finding, with a path the runner can match.
func TestFormatGitHub(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	stdout, _, code := inProcess(t, examplesDir(t), "-q", "-format", "github", "./...")
	if code != 3 {
		t.Errorf("exit status %d, want 3", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := expectedFindings(t)
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), stdout)
	}
	cmd := regexp.MustCompile(`^::error file=([^,]+),line=(\d+),col=\d+,title=idemlint [a-z.]+::(.*)%0Ahttps://\S+$`)
	for i, l := range lines {
		m := cmd.FindStringSubmatch(l)
		if m == nil || !strings.HasSuffix(m[1], want[i].file) || filepath.IsAbs(m[1]) || m[2] != want[i].line || m[3] != want[i].msg {
			t.Errorf("line %d: %s\nwant file ...%s, line %s, message %s", i, l, want[i].file, want[i].line, want[i].msg)
		}
	}
}

// -format sarif: a 2.1.0 log with a rule per category and the findings; the schema check
// is in integration/sarif.
func TestFormatSARIF(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	out := filepath.Join(t.TempDir(), "idemlint.sarif")
	stdout, _, code := inProcess(t, examplesDir(t), "-q", "-format", "sarif", "-o", out, "./...")
	if code != 3 || stdout != "" {
		t.Errorf("exit status %d (want 3), stdout %q (want none with -o)", code, stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID, HelpURI string }
				}
			}
			Results []struct {
				RuleID              string
				RuleIndex           int
				Message             struct{ Text string }
				PartialFingerprints map[string]string
				CodeFlows           []any
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	r := log.Runs[0]
	want := expectedFindings(t)
	if len(r.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(r.Results), len(want))
	}
	for i, res := range r.Results {
		if res.Message.Text != want[i].msg || r.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID ||
			len(res.PartialFingerprints["idemlint/v1"]) != 32 || len(res.CodeFlows) != 1 {
			t.Errorf("result %d: %+v", i, res)
		}
	}
}

// copyExamples copies the example module to a temporary directory, so that a test may edit it.
func copyExamples(t *testing.T) string {
	t.Helper()
	src := examplesDir(t)
	dst := filepath.Join(t.TempDir(), "examples")
	err := filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// The example requires the runtime module by a relative replace; point it at the
	// repository's copy from the new place.
	runtime, err := filepath.Abs(filepath.Join(src, "..", "idempotency"))
	if err != nil {
		t.Fatal(err)
	}
	if out, code := run(t, dst, "go", "mod", "edit", "-replace", "github.com/chokaq/idemlint/idempotency="+runtime); code != 0 {
		t.Fatalf("go mod edit: %s", out)
	}
	return dst
}

// A baseline records today's findings; later runs fail only on new ones, even after edits
// move every finding down, and report entries that no longer match.
func TestBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	dir := copyExamples(t)
	base := filepath.Join(t.TempDir(), "idemlint-baseline.json")
	if out, code := inProcessAll(t, dir, "-q", "-baseline", base, "-write-baseline", "./..."); code != 0 {
		t.Fatalf("-write-baseline: exit status %d\n%s", code, out)
	}
	first, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}

	// Push every line of the workers down, and drop one entry from the baseline: the moved
	// findings stay known, the dropped one is new.
	workers := filepath.Join(dir, "shop", "workers", "workers.go")
	src, err := os.ReadFile(workers)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.Replace(string(src), "package workers\n", "package workers\n\n// An edit above every handler.\n\n", 1)
	if err := os.WriteFile(workers, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	var b struct {
		Version  int               `json:"version"`
		Tool     string            `json:"tool"`
		Comment  string            `json:"comment"`
		Findings []json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(first, &b); err != nil || len(b.Findings) != 6 {
		t.Fatalf("baseline: %v, %d entries\n%s", err, len(b.Findings), first)
	}
	var dropped struct{ Handler, Kind string }
	json.Unmarshal(b.Findings[0], &dropped)
	b.Findings = b.Findings[1:]
	// An entry for a handler that no longer exists is stale.
	b.Findings = append(b.Findings, json.RawMessage(`{"fingerprint":"00000000000000000000000000000000","kind":"payment","package":"gone","handler":"Gone","message":"handler Gone: fixed long ago"}`))
	edited, _ := json.Marshal(b)
	if err := os.WriteFile(base, edited, 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := inProcess(t, dir, "-baseline", base, "./...")
	if code != 3 {
		t.Errorf("exit status %d, want 3 (one new finding)", code)
	}
	var reported []string
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if strings.Contains(l, ": handler ") && !strings.HasPrefix(l, "idemlint:") {
			reported = append(reported, l)
		}
	}
	if len(reported) != 1 || !strings.Contains(reported[0], "handler "+dropped.Handler+":") {
		t.Errorf("want only the dropped finding (%s, %s) reported, got:\n%s", dropped.Handler, dropped.Kind, stdout)
	}
	if !strings.Contains(stderr, "no longer found") || !strings.Contains(stderr, "handler Gone (gone): payment") {
		t.Errorf("stale entry not reported:\n%s", stderr)
	}
	if !strings.Contains(stderr, "1 new finding (5 in the baseline)") {
		t.Errorf("summary does not count the baseline:\n%s", stderr)
	}
	if regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: handler `).MatchString(stderr) {
		t.Errorf("findings on stderr (they go to stdout): %s", stderr)
	}

	// Rewriting the baseline records the moved findings with the same fingerprints.
	if out, code := inProcessAll(t, dir, "-q", "-baseline", base, "-write-baseline", "./..."); code != 0 {
		t.Fatalf("-write-baseline: exit status %d\n%s", code, out)
	}
	second, _ := os.ReadFile(base)
	if string(first) != string(second) {
		t.Errorf("baseline changed after an edit that only moved lines:\n%s\nwas:\n%s", second, first)
	}
	if out, code := inProcessAll(t, dir, "-q", "-baseline", base, "./..."); code != 0 || out != "" {
		t.Errorf("with a fresh baseline: exit status %d, output:\n%s", code, out)
	}
}

// Usage and configuration errors exit 2 with one message, prefixed "idemlint:", before any
// package is loaded.
func TestUsage(t *testing.T) {
	bin := build(t)
	dir := t.TempDir() // no module: anything that loaded packages would fail differently
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-disable=nope", "./..."}, `idemlint: -disable: unknown effect kind "nope"`},
		{[]string{"-enable=nope", "./..."}, `idemlint: -enable: unknown effect kind "nope"`},
		{[]string{"-decisions=nope", "./..."}, `idemlint: -decisions: unknown decision "nope"`},
		{[]string{"-format=xml", "./..."}, `idemlint: -format "xml": want one of text, json, sarif, github`},
		{[]string{"-write-baseline", "./..."}, "idemlint: -write-baseline needs -baseline FILE"},
		{[]string{"-baseline=missing.json", "./..."}, "idemlint: -baseline missing.json: open missing.json"},
		{[]string{"-json", "-format=sarif", "./..."}, "idemlint: -json is the go/analysis JSON tree"},
		{[]string{"-nosuchflag", "./..."}, "idemlint: flag provided but not defined: -nosuchflag\nRun 'idemlint -h' for usage."},
		{nil, "idemlint: no packages named"},
		{[]string{"-o", "/nonexistent/dir/out.sarif", "./..."}, "idemlint: -o /nonexistent/dir/out.sarif: directory /nonexistent/dir does not exist"},
		{[]string{"-models", "nope.yml", "./..."}, "idemlint: -models: open nope.yml: no such file or directory"},
		{[]string{"-models-check", "nope.yml", "./..."}, "idemlint: -models-check: open nope.yml: no such file or directory"},
		{[]string{"report", "-format=pdf", "./..."}, `idemlint: report: -format "pdf": want html or markdown`},
		{[]string{"report", "-disable=nope", "./..."}, `idemlint: -disable: unknown effect kind "nope"`},
		{[]string{"report", "-o", "/nonexistent/r.html", "./..."}, "idemlint: -o /nonexistent/r.html: directory /nonexistent does not exist"},
		{[]string{"report", "-x"}, "idemlint: flag provided but not defined: -x\nRun 'idemlint report -h' for usage."},
		{[]string{"help", "nope"}, "idemlint: help nope: unknown topic"},
		{[]string{"version", "x"}, "idemlint: version takes no arguments"},
	} {
		stdout, stderr, code := runSplit(t, dir, bin, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("idemlint %s: exit status %d, stdout %q, stderr:\n%s\nwant status 2 and %q on stderr", strings.Join(tc.args, " "), code, stdout, stderr, tc.want)
		}
		if n := strings.Count(stderr, "\n"); n != strings.Count(tc.want, "\n")+1 {
			t.Errorf("idemlint %s: want one message, got %d lines:\n%s", strings.Join(tc.args, " "), n, stderr)
		}
	}
}

// -h, -help and help print the usage on stdout and exit 0; version and -version print the
// version of this build; the usage lists every flag but the debugging and legacy ones, by
// group, and points to .idemlint.yml and the docs.
func TestHelpAndVersion(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	for _, args := range [][]string{{"-h"}, {"-help"}, {"help"}, {"report", "-h"}, {"help", "report"}} {
		stdout, stderr, code := runSplit(t, dir, bin, args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "Usage:") {
			t.Errorf("idemlint %s: exit status %d, stderr %q, stdout:\n%s", strings.Join(args, " "), code, stderr, stdout)
		}
	}
	usage, _, _ := runSplit(t, dir, bin, "help")
	for _, want := range []string{"\nOutput:\n", "\nBaseline:\n", "\nWhat to check (override .idemlint.yml):\n", "  -disable string", "  -enable string", ".idemlint.yml", "docs/ci.md", "idemlint version"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage lacks %q:\n%s", want, usage)
		}
	}
	for _, flagName := range hidden {
		if strings.Contains(usage, "  -"+flagName+" ") || strings.Contains(usage, "  -"+flagName+"\n") || strings.Contains(usage, "  -"+flagName+"\t") {
			t.Errorf("usage lists the hidden flag -%s", flagName)
		}
	}
	if strings.Contains(usage, "analyze") {
		t.Errorf("usage spells analyze; the project writes analyse")
	}
	cfs, _ := newCheckFlags()
	rfs, _ := newReportFlags()
	if m := append(listed(cfs, checkGroups), listed(rfs, reportGroups)...); len(m) > 0 {
		t.Errorf("flags in no group of the usage text: %v", m)
	}
	for _, args := range [][]string{{"version"}, {"-version"}} {
		stdout, _, code := runSplit(t, dir, bin, args...)
		if code != 0 || !regexp.MustCompile(`^idemlint (v\S+|\(devel\)( [0-9a-f]{12}(\+dirty)?)?) \(go1\.\S+ \S+/\S+\)\n$`).MatchString(stdout) {
			t.Errorf("idemlint %s: exit status %d, %q", args[0], code, stdout)
		}
	}
}

// Packages that cannot be loaded: exit status 1 and one message in plain words, no summary
// line counting a package that does not exist, and no report written.
func TestLoadError(t *testing.T) {
	bin := build(t)
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "go.mod"), []byte("module x\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		args []string
		want string
	}{
		{t.TempDir(), []string{"./..."}, "idemlint: no Go module here: no go.mod in "},
		{empty, []string{"./..."}, "idemlint: ./...: no Go packages there\n"},
		{empty, []string{"./nosuchdir"}, "idemlint: ./nosuchdir: no such directory\n"},
		{empty, []string{"./nosuchdir/..."}, "idemlint: ./nosuchdir: no such directory\n"},
		{examplesDir(t), []string{"./nosuchdir"}, "idemlint: ./nosuchdir: no such directory\n"},
		{empty, []string{"report", "-o", "r.html", "./nosuchdir"}, "idemlint: ./nosuchdir: no such directory\n"},
	} {
		stdout, stderr, code := runSplit(t, tc.dir, bin, tc.args...)
		if code != 1 || !strings.HasPrefix(stderr, tc.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("idemlint %s: exit status %d, stdout %q, stderr:\n%s\nwant status 1 and only %q", strings.Join(tc.args, " "), code, stdout, stderr, tc.want)
		}
	}
	// The go command's own wording, passed on by go/packages ("err: exit status 1: stderr:
	// go: go.mod file not found ..."), becomes the same sentence.
	for _, tc := range []struct{ args, env []string }{
		{[]string{"./..."}, []string{"GOFLAGS=-mod=mod"}},
		{[]string{"example.com/some/pkg"}, nil},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), tc.env...)
		b, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 1 || !strings.HasPrefix(string(b), "idemlint: no Go module here: no go.mod in ") || strings.Count(string(b), "\n") != 1 {
			t.Errorf("%v idemlint %v outside a module: exit status %d, output:\n%s", tc.env, tc.args, cmd.ProcessState.ExitCode(), b)
		}
	}
	if _, err := os.Stat(filepath.Join(empty, "r.html")); err == nil {
		t.Errorf("report wrote r.html for a pattern that names no package")
	}

	// A module whose dependency cannot be loaded: exit status 1 and the missing module named.
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, "go.mod"), []byte("module x\n\ngo 1.26\n\nrequire example.com/missing v1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "x.go"), []byte("package x\n\nimport _ \"example.com/missing\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-q", "./...")
	cmd.Dir = broken
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	b, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(b), "example.com/missing") || strings.Contains(string(b), "err: exit status") {
		t.Errorf("a module that fails to load: exit status %d, want 1 and the missing module named\n%s", cmd.ProcessState.ExitCode(), b)
	}
}

// idemlint report writes the handler inventory in Markdown and in HTML.
func TestReport(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	dir := examplesDir(t)
	tmp := t.TempDir()
	md := filepath.Join(tmp, "report.md")
	if out, code := inProcessAll(t, dir, "report", "-q", "-o", md, "./..."); code != 0 || out != "" {
		t.Fatalf("report: exit status %d\n%s", code, out)
	}
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{
		"| 11 | 4 | 5 | 1 | 1 | 6 | 2 |", // handlers, protected, with findings, declared, without, findings, directives
		"## asynq",
		`**HandleOrderCreated**`, `**(\*PayoutWorker).Work**`,
		"email.send: missing / missing / n/a / missing", // key / enforcement / ttl (nothing retained) / partial
		"payment: missing / answered / n/a / answered",  // the unstable key answers enforcement, not key
		"//idemlint:ignore http.write (carrier API deduplicates on our shipment reference)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report.md lacks %q:\n%s", want, text)
		}
	}

	html := filepath.Join(tmp, "report.html")
	if out, code := inProcessAll(t, dir, "report", "-q", "-o", html, "./..."); code != 0 {
		t.Fatalf("report: exit status %d\n%s", code, out)
	}
	data, _ = os.ReadFile(html)
	page := string(data)
	if n := strings.Count(page, `<tr class="handler"`); n != 11 {
		t.Errorf("%d handler rows, want 11", n)
	}
	// Self-contained: nothing is fetched when the page is opened (links are only followed).
	for _, bad := range []string{"<link", " src=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("report.html refers to an external resource (%q)", bad)
		}
	}
}

// -fix -diff prints the analyzer's suggested fixes as a unified diff and changes nothing;
// -fix applies the same changes.
func TestFix(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	dir := copyExamples(t)
	before := snapshot(t, dir)
	// -diff alone is the preview; its status is the run's (the example has findings).
	diff, stderr, code := inProcess(t, dir, "-diff", "./...")
	if code != exitFindings || !strings.HasPrefix(diff, "--- ") || !strings.Contains(diff, "\n+") {
		t.Fatalf("-diff: exit status %d, want %d; stderr %s, diff:\n%s", code, exitFindings, stderr, diff)
	}
	if with, _, _ := inProcess(t, dir, "-fix", "-diff", "./..."); with != diff {
		t.Errorf("-fix -diff prints another diff than -diff:\n%s", with)
	}
	if after := snapshot(t, dir); !equalMaps(before, after) {
		t.Fatalf("-fix -diff changed files")
	}
	if !strings.Contains(stderr, "idemlint: -fix: would apply ") {
		t.Errorf("-fix -diff does not say what it would change:\n%s", stderr)
	}
	out, fixErr, code := inProcess(t, dir, "-fix", "./...")
	if code != exitFindings {
		t.Fatalf("-fix: exit status %d, want %d (findings remain)\n%s%s", code, exitFindings, out, fixErr)
	}
	// What remains is reported as a run reports it: the findings the fixes left, on stdout,
	// and the closing line; a skeleton with a ? answers nothing, so its finding stays.
	if !regexp.MustCompile(`(?m)^shop/\S+\.go:\d+:\d+: handler `).MatchString(out) {
		t.Errorf("-fix does not report the findings left:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^idemlint: \d+ packages analysed, \d+ handlers, \d+ findings`).MatchString(fixErr) {
		t.Errorf("-fix has no closing line:\n%s", fixErr)
	}
	// -fix says what it changed, file by file, and which decisions remain open.
	if !regexp.MustCompile(`(?m)^idemlint: -fix: applied \d+ fix(es)? in \d+ files?:\n\t\S+\.go \(\d+\)$`).MatchString(fixErr) {
		t.Errorf("-fix does not list what it changed:\n%s", fixErr)
	}
	if !regexp.MustCompile(`(?m)^idemlint: -fix: \d+ decisions directives? left to decide: .*\n\t\S+\.go:\d+: //idemlint:decisions .*=\?`).MatchString(fixErr) {
		t.Errorf("-fix does not list the ? left to decide:\n%s", fixErr)
	}
	after := snapshot(t, dir)
	for _, line := range strings.Split(diff, "\n") {
		if strings.HasPrefix(line, "+++ ") {
			name := strings.TrimSuffix(strings.TrimPrefix(line, "+++ "), " (new)")
			if filepath.IsAbs(name) {
				t.Errorf("-diff names %s, not relative to the working directory", name)
			}
			name = filepath.Join(dir, name)
			if after[name] == before[name] {
				t.Errorf("-fix did not change %s, which -diff changes", name)
			}
		} else if strings.HasPrefix(line, "+") && !strings.Contains(strings.Join(mapValues(after), ""), line[1:]) {
			t.Errorf("-fix result lacks a line -diff adds: %q", line[1:])
		}
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			data, _ := os.ReadFile(path)
			files[path] = string(data)
		}
		return nil
	})
	return files
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// -write-baseline names a file to replace: a source file named by mistake is refused before
// anything is analysed, and left as it was.
func TestWriteBaselineRefusesOtherFiles(t *testing.T) {
	dir := writeModule(t, "")
	target := filepath.Join(dir, "queue", "queue.go")
	before, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := inProcess(t, dir, "-baseline", "queue/queue.go", "-write-baseline", "./...")
	if want := "idemlint: -write-baseline: queue/queue.go exists and is not an idemlint baseline: not overwriting it (remove it, or name another file)\n"; code != exitUsage || stderr != want || stdout != "" {
		t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr, exitUsage, want)
	}
	if after, _ := os.ReadFile(target); string(after) != string(before) {
		t.Errorf("queue.go was changed:\n%s", after)
	}
}

// missingNames is a message with the reasons its missing list gives for a decision
// ("partial (sql.write and payment do not commit together)") left out.
func missingNames(msg string) string {
	return regexp.MustCompile(` \([^()]*\)`).ReplaceAllString(msg[strings.LastIndex(msg, "; missing: "):], "")
}

// -v prints the run's phases after the summary: load, dependencies, analyse and report
// without a cache, with their wall time and the peak memory at their end; the
// findings stay on stdout.
func TestPhases(t *testing.T) {
	stdout, stderr, code := inProcess(t, examplesDir(t), "-v", "-cache=off", "./...")
	if code != exitFindings || !strings.Contains(stdout, "handler ") {
		t.Fatalf("exit status %d, stdout:\n%s", code, stdout)
	}
	phase := func(name string) string { return name + ` \d+\.\ds( \(peak RSS \d+ MB\))?` }
	re := regexp.MustCompile(`(?m)^idemlint: phases: ` + phase("load") + ", " + phase("dependencies") + ", " + phase("analyse") + ", " +
		phase("report") + `$`)
	if !re.MatchString(stderr) {
		t.Errorf("no phases line on stderr:\n%s", stderr)
	}
	if _, stderr, _ := inProcess(t, examplesDir(t), "-cache=off", "./..."); strings.Contains(stderr, "phases:") {
		t.Errorf("phases printed without -v:\n%s", stderr)
	}
}
