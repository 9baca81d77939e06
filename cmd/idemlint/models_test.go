package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeModule writes a small module that uses a company's own queue and HTTP client, which
// only the module's .idemlint.yml describes.
func writeModule(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":         "module example.com/acme\n\ngo 1.26\n",
		"queue/queue.go": "package queue\n\nimport \"context\"\n\ntype Message struct{ ID string }\n\nfunc Subscribe(topic string, h func(context.Context, *Message) error) {}\n",
		"httpc/httpc.go": "package httpc\n\nimport \"context\"\n\ntype Client struct{}\n\nfunc (c *Client) PostJSON(ctx context.Context, url string, key string) error { return nil }\n",
		"app/app.go": `package app

import (
	"context"

	"example.com/acme/httpc"
	"example.com/acme/queue"
)

var c *httpc.Client

func Register() { queue.Subscribe("invoices", onInvoice) }

func onInvoice(ctx context.Context, m *queue.Message) error {
	return c.PostJSON(ctx, "https://billing/invoices", "")
}
`,
	}
	if config != "" {
		files[".idemlint.yml"] = config
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const acmeModels = `library: acme
handlers:
  - framework: acme-queue
    params: ["context.Context", "*example.com/acme/queue.Message"]
    results: ["error"]
sinks:
  - func: "(*example.com/acme/httpc.Client).PostJSON"
    kind: http.write
    shape: key.arg
    arg: 2
    what: acme POST
`

// A user's model file, found by walking up from the packages, makes the command report a
// handler of the company's own queue; without it there is nothing to report; a broken one
// fails with its file, line and field.
func TestUserModelsEndToEnd(t *testing.T) {
	dir := writeModule(t, acmeModels)
	out, code := inProcessAll(t, dir, "-q", "./...")
	if code != 3 || !strings.Contains(out, "app/app.go:15:9: handler onInvoice: acme POST without an idempotency key (onInvoice -> (*httpc.Client).PostJSON); missing: key, enforcement") {
		t.Errorf("with .idemlint.yml: exit %d, output:\n%s", code, out)
	}

	out, code = inProcessAll(t, dir, "-models-check", ".idemlint.yml", "./...")
	if code != 0 || !strings.Contains(out, "ok            (*example.com/acme/httpc.Client).PostJSON (func)") {
		t.Errorf("-models-check: exit %d, output:\n%s", code, out)
	}

	plain := writeModule(t, "")
	if out, code := inProcessAll(t, plain, "-q", "./..."); code != 0 || out != "" {
		t.Errorf("without models: exit %d, output:\n%s", code, out)
	}

	// The same models from -models in a module without .idemlint.yml.
	models := filepath.Join(t.TempDir(), "acme.yml")
	if err := os.WriteFile(models, []byte(acmeModels), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := inProcessAll(t, plain, "-q", "-models", models, "./..."); code != 3 || !strings.Contains(out, "handler onInvoice") {
		t.Errorf("-models: exit %d, output:\n%s", code, out)
	}

	broken := writeModule(t, strings.Replace(acmeModels, "kind: http.write", "kind: http.wrte", 1))
	out, code = inProcessAll(t, broken, "-q", "./...")
	if code == 0 || code == 3 || !strings.Contains(out, ".idemlint.yml:8:11: field kind: unknown effect kind \"http.wrte\"") {
		t.Errorf("broken .idemlint.yml: exit %d, output:\n%s", code, out)
	}
}

// .idemlint.yml carries the plugin's settings beside the models; flags override them; a
// broken file is one error (file:line:column, the field, the type expected in YAML's
// words) before analysis, exit status 2, also when it applies to a subdirectory only.
func TestSettingsFile(t *testing.T) {
	const finding = "handler onInvoice: acme POST without an idempotency key"
	for _, tc := range []struct {
		name, config string
		args         []string
		code         int
		want         string // in the output; "" for none
	}{
		{"disable", acmeModels + "disable: [http.write]\n", nil, 0, ""},
		{"flag overrides disable", acmeModels + "disable: [http.write]\n", []string{"-disable="}, 3, finding},
		{"enable others", acmeModels + "enable: [sql.write, payment]\n", nil, 0, ""},
		{"enable it", acmeModels + "enable: [http.write]\n", nil, 3, finding},
		{"-enable flag", acmeModels, []string{"-enable=payment"}, 0, ""},
		{"-enable flag over the file", acmeModels + "enable: [payment]\n", []string{"-enable=http.write"}, 3, finding},
		{"decisions", acmeModels + "decisions: [enforcement]\n", nil, 3, "(onInvoice -> (*httpc.Client).PostJSON); missing: enforcement\n"},
		{"bad kind", acmeModels + "disable: [http.wrte]\n", nil, 2, `idemlint: .idemlint.yml:12:11: field disable: unknown effect kind "http.wrte"`},
		{"wrong type", acmeModels + "disable: http.write\n", nil, 2, `idemlint: .idemlint.yml:12:10: field disable: want a list, got a string "http.write"`},
		{"wrong type in a model", strings.Replace(acmeModels, "arg: 2", "arg: one", 1), nil, 2, `idemlint: .idemlint.yml:10:10: field arg: want an integer, got a string "one"`},
		{"misspelt", acmeModels + "disabel: [http.write]\n", nil, 2, `idemlint: .idemlint.yml:12:1: unknown field "disabel": did you mean "disable"?` + "\n"},
		{"model file missing", acmeModels + "models: [nope.yml]\n", nil, 2, `idemlint: .idemlint.yml:12:10: field models: open nope.yml: no such file or directory` + "\n"},
		{"model file missing, -models replaces it", acmeModels + "models: [nope.yml]\n", []string{"-models="}, 3, finding},
		{"settings only", "disable: [http.write]\n", nil, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeModule(t, tc.config)
			stdout, stderr, code := inProcess(t, dir, append(append([]string{"-q"}, tc.args...), "./...")...)
			out := stdout + stderr
			if code != tc.code || tc.want == "" && out != "" || tc.want != "" && !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want %d and %q; output:\n%s", code, tc.code, tc.want, out)
			}
			if code == 2 && strings.Count(stderr, "\n") != 1 {
				t.Errorf("want the error once:\n%s", stderr)
			}
		})
	}

	// A broken file below the working directory, which only the analysis of the packages
	// under it would read: one error before analysis, not one per package.
	dir := writeModule(t, "")
	broken := strings.Replace(acmeModels, "kind: http.write", "kind: http.wrte", 1)
	for _, sub := range []string{"app", "httpc"} {
		if err := os.WriteFile(filepath.Join(dir, sub, ".idemlint.yml"), []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := inProcess(t, dir, "./...")
	if code != 2 || strings.Count(stderr, "\n") != 2 || !strings.Contains(stderr, filepath.Join("app", ".idemlint.yml")+`:8:11: field kind: unknown effect kind "http.wrte"`) || strings.Contains(stderr, "prerequisites") {
		t.Errorf("exit %d, want 2 and one error per broken file:\n%s", code, stderr)
	}
}

// -models-check on packages that do not load says so once on stderr, with the prefix every
// input problem has, and exits 1.
func TestModelsCheckLoadFailure(t *testing.T) {
	bin := build(t)
	dir := t.TempDir() // no module: the packages cannot load
	if err := os.WriteFile(filepath.Join(dir, "m.yml"), []byte("library: acme\nsinks:\n  - func: \"acme/db.Exec\"\n    kind: sql.write\n    shape: sql.exec\n    arg: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runSplit(t, dir, bin, "-models-check", "m.yml", "./...")
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "idemlint: -models-check: m.yml: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q: want status 1 and one prefixed line on stderr", code, stdout, stderr)
	}
}

// A model naming a package of the module being analysed turns that package's analysis off
// (its models are the truth about it): the run says so once per package, and -q keeps it
// quiet; -models-check says it too.
func TestModelsNameOwnPackage(t *testing.T) {
	dir := writeModule(t, acmeModels)
	_, stderr, _ := inProcess(t, dir, "./...")
	for _, want := range []string{
		"idemlint: .idemlint.yml names example.com/acme/httpc, a package of this module: it is not analysed, so its handlers and effects are only what the models say (a misspelt name does the same)\n",
		"idemlint: .idemlint.yml names example.com/acme/queue, a package of this module:",
	} {
		if strings.Count(stderr, want) != 1 {
			t.Errorf("want once %q in:\n%s", want, stderr)
		}
	}
	if _, stderr, _ := inProcess(t, dir, "-q", "./..."); strings.Contains(stderr, "a package of this module") {
		t.Errorf("-q: %s", stderr)
	}
	out, _ := inProcessAll(t, dir, "-models-check", ".idemlint.yml", "./...")
	if !strings.Contains(out, "own package   .idemlint.yml names example.com/acme/httpc, a package of this module:") {
		t.Errorf("-models-check:\n%s", out)
	}
}
