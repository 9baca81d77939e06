package main_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// repoRoot is the idemlint checkout this module replaces github.com/chokaq/idemlint with.
var repoRoot = func() string {
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return dir
}()

var (
	gclOnce sync.Once
	gclPath string
	gclErr  error
)

// customGCL returns the custom golangci-lint built from this module (golangci-lint v2 with
// the idemlint plugin). The build takes minutes the first time, so the binary is kept in
// the user's cache directory under a name that hashes every input of the build; a run with
// unchanged inputs reuses it, and a changed input builds anew.
func customGCL(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds golangci-lint with the plugin")
	}
	gclOnce.Do(func() { gclPath, gclErr = buildCached("custom-gcl", ".") })
	if gclErr != nil {
		t.Fatal(gclErr)
	}
	return gclPath
}

// buildCached builds the main package pkg of this module into the cache directory and
// returns the binary's path. Older builds of the same name are removed.
func buildCached(name, pkg string) (string, error) {
	key, err := inputsHash(pkg)
	if err != nil {
		return "", err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "idemlint-integration")
	bin := filepath.Join(dir, name+"-"+key[:16])
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.tmp%d", bin, os.Getpid())
	cmd := exec.Command("go", "build", "-o", tmp, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	old, _ := filepath.Glob(filepath.Join(dir, name+"-*"))
	for _, f := range old {
		if f != bin && !strings.Contains(filepath.Base(f), ".tmp") {
			os.Remove(f)
		}
	}
	return bin, nil
}

// inputsHash hashes what the build of pkg reads besides the module cache: the toolchain and
// its settings, both modules' go.mod and go.sum, and the files of every package of this
// module and of the idemlint module (the replace target) that the build compiles or embeds.
// Other modules are pinned by go.sum.
func inputsHash(pkg string) (string, error) {
	h := sha256.New()
	env, err := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT", "GOAMD64").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %v", err)
	}
	h.Write(env)
	for _, f := range []string{"go.mod", "go.sum", filepath.Join(repoRoot, "go.mod"), filepath.Join(repoRoot, "go.sum")} {
		if err := hashFile(h, f); err != nil {
			return "", err
		}
	}
	const format = `{{if .Module}}{{if or .Module.Main (eq .Module.Path "github.com/chokaq/idemlint")}}` +
		`{{.Dir}}{{range .GoFiles}}|{{.}}{{end}}{{range .CgoFiles}}|{{.}}{{end}}{{range .EmbedFiles}}|{{.}}{{end}}` +
		"\n{{end}}{{end}}"
	var stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-deps", "-f", format, pkg)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -deps %s: %v\n%s", pkg, err, stderr.Bytes())
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "|")
		for _, f := range fields[1:] {
			fmt.Fprintf(h, "%s/%s\n", filepath.Base(fields[0]), f)
			if err := hashFile(h, filepath.Join(fields[0], f)); err != nil {
				return "", err
			}
		}
	}
	fmt.Fprintln(h, runtime.GOOS, runtime.GOARCH)
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(h interface{ Write([]byte) (int, error) }, name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%d\n", len(data))
	h.Write(data)
	return nil
}

// project copies testdata/project, the module the tests lint, to a new directory.
func project(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "project")
	err := filepath.WalkDir(filepath.Join("testdata", "project"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join("testdata", "project"), path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// result is a finished command.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	out := r.stdout
	if len(out) > 4000 {
		out = out[:4000] + "..."
	}
	return fmt.Sprintf("exit status %d\nstdout:\n%s\nstderr:\n%s", r.code, out, r.stderr)
}

// gclCache is golangci-lint's result cache for this test process. The tests share it, so
// they also show that its key follows the settings and the source.
var gclCache string

// run runs name with args in dir.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOLANGCI_LINT_CACHE="+gclCache, "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return result{stdout.String(), stderr.String(), code}
}

// lineOf returns the number of the line of file that contains text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, text) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, text)
	return 0
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "idemlint-gcl-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	gclCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
