package sarif

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The OASIS SARIF 2.1.0 schema (errata 01), as gosec ships it in its module for its own
// tests; fetched through the Go module proxy (checksummed by the go command) and pinned here
// by content, so a different file fails the test instead of weakening it.
const (
	schemaModule = "github.com/securego/gosec/v2@v2.30.0"
	schemaPath   = "report/sarif/testdata/sarif-schema-2.1.0.json"
	schemaSHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// buildIdemlint builds the command from the repository into a temporary directory.
func buildIdemlint(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "idemlint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/idemlint")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// idemlint runs the command in dir and returns stdout and the exit status.
func idemlint(t *testing.T, bin, dir string, args ...string) ([]byte, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return stdout.Bytes(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	return stdout.Bytes(), 0
}

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", schemaModule).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", schemaModule, err)
	}
	var mod struct{ Dir, Error string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download %s: %s %v", schemaModule, mod.Error, err)
	}
	data, err := os.ReadFile(filepath.Join(mod.Dir, schemaPath))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != schemaSHA256 {
		t.Fatalf("%s in %s has sha256 %x, want %s", schemaPath, schemaModule, sum, schemaSHA256)
	}
	return compile(t, "sarif-schema-2.1.0.json", data)
}

func compile(t *testing.T, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, what string, data []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, data)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("%s does not match its schema:\n%v", what, err)
	}
}

// troubled writes a module whose packages give what the example shop does not: directive
// problems, a finding in a function literal, and a package that does not compile.
func troubled(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/troubled\n\ngo 1.26\n",
		"jobs/jobs.go": `package jobs

import (
	"context"
	"net/http"
	"strings"
)

// Notify is a job handler by declaration.
//
//idemlint:handler
func Notify(ctx context.Context, url string) error {
	//idemlint:ignore http.write
	_, err := http.Post(url, "text/plain", strings.NewReader("done"))
	return err
}

//idemlint:ignore email.send -- nothing sends mail here
func Quiet() {}
`,
		"broken/broken.go": "package broken\n\nfunc Broken() { undefined() }\n",
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The SARIF of the example shop, and of a module with directive problems and a broken
// package, matches the SARIF 2.1.0 schema.
func TestSARIFSchema(t *testing.T) {
	schema := sarifSchema(t)
	bin := buildIdemlint(t)

	out, code := idemlint(t, bin, filepath.Join(repoRoot(t), "examples"), "-q", "-format", "sarif", "./...")
	if code != 3 {
		t.Errorf("examples: exit status %d, want 3", code)
	}
	validate(t, schema, "SARIF of examples/", out)
	if n := strings.Count(string(out), `"ruleId"`); n != 6 {
		t.Errorf("examples: %d results, want 6", n)
	}

	out, code = idemlint(t, bin, troubled(t), "-q", "-format", "sarif", "./...")
	if code != 3 {
		t.Errorf("troubled module: exit status %d, want 3 (findings, beside a package that does not compile)", code)
	}
	if _, code := idemlint(t, bin, troubled(t), "-q", "-strict-load", "-format", "sarif", "./..."); code != 1 {
		t.Errorf("troubled module with -strict-load: exit status %d, want 1 (a package does not compile)", code)
	}
	validate(t, schema, "SARIF of a module with problems", out)
	for _, want := range []string{`"ruleId": "directive"`, `"executionSuccessful": false`, "undefined: undefined"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("troubled module: SARIF lacks %s\n%s", want, out)
		}
	}

	// A run with nothing to report is a valid log too.
	out, _ = idemlint(t, bin, filepath.Join(repoRoot(t), "examples"), "-q", "-format", "sarif", "-disable", "sql.write,http.write,email.send,payment,publish", "./...")
	validate(t, schema, "SARIF without results", out)

	// The schema check can fail: a log that claims another version is rejected.
	bad := bytes.Replace(out, []byte(`"version": "2.1.0"`), []byte(`"version": "2.0"`), 1)
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if schema.Validate(doc) == nil {
		t.Errorf("a log with version 2.0 passed the 2.1.0 schema")
	}
}

// The -format json document matches the schema it documents.
func TestJSONSchema(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "internal", "output", "jsonout", "schema-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema := compile(t, "schema-v1.json", data)
	bin := buildIdemlint(t)
	examples := filepath.Join(repoRoot(t), "examples")

	out, _ := idemlint(t, bin, examples, "-q", "-format", "json", "./...")
	validate(t, schema, "-format json of examples/", out)

	out, _ = idemlint(t, bin, troubled(t), "-q", "-format", "json", "./...")
	validate(t, schema, "-format json of a module with problems", out)

	// With a baseline that records all but one finding, plus a stale entry.
	base := filepath.Join(t.TempDir(), "baseline.json")
	if _, code := idemlint(t, bin, examples, "-q", "-baseline", base, "-write-baseline", "./..."); code != 0 {
		t.Fatalf("-write-baseline: exit status %d", code)
	}
	var b map[string]any
	raw, _ := os.ReadFile(base)
	json.Unmarshal(raw, &b)
	entries := b["findings"].([]any)
	entries[0].(map[string]any)["fingerprint"] = "0123456789abcdef0123456789abcdef"
	raw, _ = json.Marshal(b)
	os.WriteFile(base, raw, 0o644)
	out, code := idemlint(t, bin, examples, "-q", "-format", "json", "-baseline", base, "./...")
	if code != 3 {
		t.Errorf("with baseline: exit status %d, want 3", code)
	}
	validate(t, schema, "-format json with a baseline", out)
	if !strings.Contains(string(out), `"known": 5`) || !strings.Contains(string(out), `"stale": [`) {
		t.Errorf("baseline section:\n%s", out)
	}
}
