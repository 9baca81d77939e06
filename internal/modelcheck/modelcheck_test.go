package modelcheck

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A model file checked against a small module: a right name, a misspelt method and a name
// in a package the module does not import.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/acme\n\ngo 1.26\n")
	write("httpc/httpc.go", "package httpc\n\ntype Client struct{}\n\nfunc (c *Client) PostJSON(url, key string) error { return nil }\n")
	write("app/app.go", "package app\n\nimport _ \"example.com/acme/httpc\"\n")
	model := filepath.Join(dir, "models.yml")
	write("models.yml", `library: acme
sinks:
  - funcs: ["(*example.com/acme/httpc.Client).PostJSON", "(*example.com/acme/httpc.Client).PostJSN", "example.com/other/mail.Send"]
    kind: http.write
    shape: key.arg
    arg: 1
`)
	var out bytes.Buffer
	status, err := Run(&out, model, dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"ok            (*example.com/acme/httpc.Client).PostJSON (func)",
		"MISSING       (*example.com/acme/httpc.Client).PostJSN: type Client has no method PostJSN",
		"not imported  example.com/other/mail.Send",
		"1 names found, 1 missing, 1 in packages not imported here",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if status != 1 {
		t.Errorf("status %d, want 1 for a missing name", status)
	}

	write("broken/broken.go", "package broken\n\nimport _ \"example.com/missing/dep\"\n")
	out.Reset()
	if status, err := Run(&out, model, dir, []string{"./broken"}); status != 1 || err == nil || !strings.Contains(err.Error(), "cannot check: ") {
		t.Errorf("a package that fails to load: status %d, output %q", status, out.String())
	}

	write("bad.yml", "library: acme\nsinks:\n  - func: \"a/b.F\"\n    kind: sql.wirte\n    shape: send\n")
	out.Reset()
	if status, err := Run(&out, filepath.Join(dir, "bad.yml"), dir, nil); status != 1 || err == nil || !strings.Contains(err.Error(), "bad.yml:4:11: field kind: unknown effect kind") {
		t.Errorf("invalid file: status %d, output %q", status, out.String())
	}
}
