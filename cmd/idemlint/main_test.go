package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// build compiles the command once per test binary.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "idemlint")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func examplesDir(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs cmd in dir and returns its output with dir's prefix cut from paths, and the exit code.
func run(t *testing.T, dir string, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(buf.String(), dir+string(filepath.Separator), ""), code
}

// The example shop, analysed with the real asynq, River, Watermill, pgx and stripe-go
// modules, gives exactly the findings in examples/expected.txt, and exit status 3.
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	bin := build(t)
	dir := examplesDir(t)
	want, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got, code := run(t, dir, bin, "./...")
	if got != string(want) {
		t.Errorf("idemlint ./... in examples/:\n got:\n%s\nwant:\n%s", got, want)
	}
	if code != 3 {
		t.Errorf("exit status %d, want 3 (findings)", code)
	}

	// -json: the same findings, machine-readable, exit status 0.
	out, code := run(t, dir, bin, "-json", "./...")
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

// As a vet tool, idemlint reports the same findings through go vet, which exits non-zero.
func TestVetTool(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	bin := build(t)
	dir := examplesDir(t)
	want, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
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
}
