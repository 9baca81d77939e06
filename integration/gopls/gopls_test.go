package gopls_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// repoRoot is the idemlint checkout that scripts/build-gopls.sh builds gopls with.
var repoRoot = func() string {
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return dir
}()

// goplsBinary returns gopls with idemlint inside, built by scripts/build-gopls.sh. The build
// takes minutes the first time, so the binary is kept in the user's cache directory under a
// name that hashes every input: the script, the toolchain, and idemlint's analyzer with
// the packages and files it is built from. A run with unchanged inputs reuses it.
func goplsBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds gopls with idemlint")
	}
	key, err := inputsHash()
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "idemlint-integration")
	bin := filepath.Join(dir, "gopls-idemlint-"+key[:16])
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := fmt.Sprintf("%s.tmp%d", bin, os.Getpid())
	start := time.Now()
	out, err := exec.Command("bash", filepath.Join(repoRoot, "scripts", "build-gopls.sh"), tmp).CombinedOutput()
	if err != nil {
		os.Remove(tmp)
		t.Fatalf("scripts/build-gopls.sh: %v\n%s", err, out)
	}
	t.Logf("built gopls with idemlint in %v", time.Since(start).Round(time.Second))
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	old, _ := filepath.Glob(filepath.Join(dir, "gopls-idemlint-*"))
	for _, f := range old {
		if f != bin && !strings.Contains(filepath.Base(f), ".tmp") {
			os.Remove(f)
		}
	}
	return bin
}

// inputsHash hashes what the gopls build reads besides the module cache.
func inputsHash() (string, error) {
	h := sha256.New()
	env, err := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT", "GOAMD64").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %v", err)
	}
	h.Write(env)
	for _, f := range []string{"scripts/build-gopls.sh", "go.mod", "go.sum"} {
		if err := hashFile(h, filepath.Join(repoRoot, f)); err != nil {
			return "", err
		}
	}
	const format = `{{if .Module}}{{if eq .Module.Path "github.com/chokaq/idemlint"}}` +
		`{{.Dir}}{{range .GoFiles}}|{{.}}{{end}}{{range .CgoFiles}}|{{.}}{{end}}{{range .EmbedFiles}}|{{.}}{{end}}` +
		"\n{{end}}{{end}}"
	var stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-deps", "-f", format, "./analyzer")
	cmd.Dir = repoRoot
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -deps ./analyzer: %v\n%s", err, stderr.Bytes())
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "|")
		rel, _ := filepath.Rel(repoRoot, fields[0])
		for _, f := range fields[1:] {
			fmt.Fprintf(h, "%s/%s\n", filepath.ToSlash(rel), f)
			if err := hashFile(h, filepath.Join(fields[0], f)); err != nil {
				return "", err
			}
		}
	}
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

// copyProject copies testdata/project, the module the test opens, to a new directory.
func copyProject(t *testing.T) string {
	t.Helper()
	src := filepath.Join("testdata", "project")
	dst := filepath.Join(t.TempDir(), "project")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
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

// diagnostic is the part of an LSP diagnostic the test reads.
type diagnostic struct {
	Range   lspRange `json:"range"`
	Source  string   `json:"source"`
	Message string   `json:"message"`
}

// gopls built by scripts/build-gopls.sh runs idemlint on an open file: its findings arrive
// as diagnostics from the source "idemlint", and a stale directive's diagnostic comes with
// a quick fix whose edit removes the directive's line.
func TestGoplsWithIdemlint(t *testing.T) {
	bin := goplsBinary(t)
	dir := copyProject(t)
	file := filepath.Join(dir, "shop", "shop.go")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	uri := fileURI(file)

	c := start(t, bin, dir, append(os.Environ(), "GOWORK=off"))
	var initResult struct {
		Capabilities struct {
			CodeActionProvider json.RawMessage `json:"codeActionProvider"`
		} `json:"capabilities"`
	}
	c.call("initialize", map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          c.workspace,
		"workspaceFolders": []any{map[string]any{"uri": c.workspace, "name": "project"}},
		"capabilities": map[string]any{
			"workspace": map[string]any{"configuration": true, "workspaceFolders": true},
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"relatedInformation": true, "codeDescriptionSupport": true},
				"codeAction": map[string]any{
					"codeActionLiteralSupport": map[string]any{
						"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "refactor", "source"}},
					},
				},
			},
		},
	}, &initResult)
	if len(initResult.Capabilities.CodeActionProvider) == 0 || string(initResult.Capabilities.CodeActionProvider) == "false" {
		t.Fatalf("the server offers no code actions")
	}
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(text)},
	})

	// Wait for idemlint's diagnostics: gopls publishes the file's diagnostics more than once
	// (syntax and types first, analyzers later), and the first analysis of the standard
	// library takes a while on a cold cache.
	var finding, stale json.RawMessage
	c.until(5*time.Minute, "idemlint diagnostics", func(m *message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		finding, stale = nil, nil
		for _, raw := range c.diagnostics[uri] {
			var d diagnostic
			if err := json.Unmarshal(raw, &d); err != nil {
				t.Fatal(err)
			}
			switch {
			case d.Source == "idemlint" && strings.HasPrefix(d.Message, "handler HandleOrderCreated: SQL write not safe to repeat"):
				finding = raw
			case d.Source == "idemlint" && strings.HasPrefix(d.Message, "//idemlint:ignore sql.write silences nothing here"):
				stale = raw
			}
		}
		return finding != nil && stale != nil
	})
	var d diagnostic
	if err := json.Unmarshal(finding, &d); err != nil {
		t.Fatal(err)
	}
	if want := lineOf(t, string(text), `"INSERT INTO orders`); d.Range.Start.Line != want {
		t.Errorf("finding on line %d, want %d", d.Range.Start.Line+1, want+1)
	}

	// Ask for the quick fixes at the stale directive, as an editor does for the lightbulb.
	var sd diagnostic
	if err := json.Unmarshal(stale, &sd); err != nil {
		t.Fatal(err)
	}
	var actions []struct {
		Title string `json:"title"`
		Kind  string `json:"kind"`
		Edit  *struct {
			Changes         map[string][]textEdit `json:"changes"`
			DocumentChanges []struct {
				TextDocument struct{ URI string } `json:"textDocument"`
				Edits        []textEdit           `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        sd.Range,
		"context":      map[string]any{"diagnostics": []json.RawMessage{stale}, "only": []string{"quickfix"}},
	}, &actions)
	var titles []string
	found := false
	for _, a := range actions {
		titles = append(titles, a.Title)
		if a.Title != "remove the unused directive" {
			continue
		}
		found = true
		if a.Kind != "quickfix" {
			t.Errorf("code action kind %q, want quickfix", a.Kind)
		}
		if a.Edit == nil {
			t.Fatalf("the quick fix has no edit")
		}
		edits := a.Edit.Changes[uri]
		for _, dc := range a.Edit.DocumentChanges {
			if dc.TextDocument.URI == uri {
				edits = append(edits, dc.Edits...)
			}
		}
		fixed, err := applyEdits(string(text), edits)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", "shop.go.fixed"))
		if err != nil {
			t.Fatal(err)
		}
		if fixed != string(want) {
			t.Errorf("after the quick fix:\n%s\nwant (testdata/shop.go.fixed):\n%s", fixed, want)
		}
	}
	if !found {
		t.Errorf("no quick fix \"remove the unused directive\"; code actions: %q", titles)
	}

	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
}

// lineOf returns the zero-based line of text that contains s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if strings.Contains(line, s) {
			return i
		}
	}
	t.Fatalf("no line contains %q", s)
	return 0
}
