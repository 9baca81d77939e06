package model_test

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/model"
)

// What a built-in model needs beside its YAML file (docs/architecture.md, "A sink
// library"): a test package under testdata/src/models, a stub of its library with the
// module in apicheck, and a row in docs/models.md. The tests below check each for every
// file in internal/model/builtin.
//
// The test package of a model is found by what it imports, not by its name: it is the
// directory testdata/src/models/DIR whose Go files (its subdirectories' included) import
// one of the model's own packages, the packages its names are in (model.PackageOf) that no
// other built-in model names. So "franz-go.yml" is tested by models/franzgo, "amqp091.yml"
// by models/rabbitmq (through its fixture models/rabbitmq/mq), and a new model is tested by
// the directory written for it whatever its name. The exceptions are the three lists below.

// coreModels are the models the analyzer's own checks are written against: each is tested
// by the top-level test package named (and the others that import it), not under models/.
var coreModels = map[string]struct{ dir, reason string }{
	"asynq.yml":        {"publish", "the handler framework of most test packages; its enqueue is the publish check's subject"},
	"database-sql.yml": {"sqlwrite", "the SQL statement reading that the sql.write check is about"},
	"email.yml":        {"email", "net/smtp and go-mail, the email.send check's subject"},
	"idempotency.yml":  {"middleware", "idemlint's own runtime middleware, the subject of the middleware tests"},
	"net-http.yml":     {"httpwrite", "the HTTP request reading that the http.write check is about"},
	"river.yml":        {"publish", "River's insert beside asynq's enqueue in the publish check, its workers in handlers"},
	"unstable.yml":     {"statements", "the unstable sources of keys, used by every key judgement"},
}

// sharedDirs are the test packages that test more than one model, each with the models it
// tests (exactly) and the reason.
var sharedDirs = map[string]struct {
	models []string
	reason string
}{
	"emailproviders": {[]string{"gomail.yml", "jordan-wright-email.yml", "mailgun.yml", "sendgrid.yml"},
		"mail APIs modelled alike (a send with no deduplication): one package judges each provider's send"},
	"jobqueues": {[]string{"faktory.yml", "go-queue.yml", "gocraft-work.yml", "machinery.yml"},
		"job queues modelled by a registration or a handler shape only: one package registers a handler of each"},
	"kafka": {[]string{"kafka-go.yml", "sarama.yml"},
		"the two Kafka clients of a consumer that produces: a kafka-go writer and reader loop, a sarama ConsumeClaim"},
}

// libraryPackages are the packages of models whose names do not say their library, with the
// reason: the package their test imports and the stub declares.
var libraryPackages = map[string]struct{ pkg, reason string }{
	"go-queue.yml": {"github.com/zeromicro/go-queue/kq", "the model is a handler shape of context.Context and " +
		"strings (kq.ConsumeHandler's Consume), which names no package of the library"},
	"rueidis.yml": {"github.com/redis/rueidis", "the model names the builder methods of rueidis's internal cmds " +
		"package, which no test can import; rueidis.Builder is an alias of its type"},
	"valkey-go.yml": {"github.com/valkey-io/valkey-go", "the model names the builder methods of valkey-go's internal " +
		"cmds package, which no test can import; valkey.Builder is an alias of its type"},
}

const root = "../.."

// modelPackages returns, for each built-in model file, the packages its names are in (with
// the generated code's imports and the unstable whole packages), and how many models name
// each package.
func modelPackages(t *testing.T) (map[string][]string, map[string]int) {
	t.Helper()
	pkgs := map[string][]string{}
	count := map[string]int{}
	for _, lib := range model.Builtin() {
		file := filepath.Base(lib.Source)
		set := map[string]bool{}
		for _, n := range model.NamesOf([]model.Library{lib}) {
			set[model.PackageOf(n)] = true
		}
		for _, u := range lib.Unstable {
			if p, ok := strings.CutSuffix(u, ".*"); ok {
				set[p] = true
			}
		}
		for _, g := range lib.Generated {
			set[g.Imports] = true
		}
		if lp, ok := libraryPackages[file]; ok {
			set[lp.pkg] = true
		}
		for p := range set {
			pkgs[file] = append(pkgs[file], p)
			count[p]++
		}
		sort.Strings(pkgs[file])
	}
	if len(pkgs) == 0 {
		t.Fatal("no built-in models")
	}
	return pkgs, count
}

// wants is the pseudo-import testImports gives a test package with // want lines.
const wants = "// want"

// testImports returns the imports of the analyzer's test packages under testdata/src (the
// directories whose first path element has no dot; the others are stubs), by test
// package: a top-level directory, or models/DIR, each with its subdirectories; with the
// pseudo-import wants when a file of the package has a // want line.
func testImports(t *testing.T) map[string]map[string]bool {
	t.Helper()
	src := filepath.Join(root, "testdata", "src")
	out := map[string]map[string]bool{}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == src {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if d.IsDir() {
			if strings.Contains(parts[0], ".") {
				return filepath.SkipDir // a stub
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || len(parts) < 2 {
			return nil
		}
		pkg := parts[0]
		if pkg == "models" {
			if len(parts) < 3 {
				return nil
			}
			pkg += "/" + parts[1]
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, data, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if out[pkg] == nil {
			out[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			out[pkg][p] = true
		}
		if strings.Contains(string(data), "// want ") {
			out[pkg][wants] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every built-in model has its test package under testdata/src/models (found by its
// imports, see above), or is a core model tested by a top-level package; a package there
// tests one model unless sharedDirs says otherwise; and every package there tests a model.
func TestEveryModelHasATestPackage(t *testing.T) {
	pkgs, count := modelPackages(t)
	imports := testImports(t)
	testedBy := map[string][]string{} // models/DIR -> model files (core models left out)
	files := slices.Sorted(func(yield func(string) bool) {
		for f := range pkgs {
			if !yield(f) {
				return
			}
		}
	})
	for _, file := range files {
		var own []string
		for _, p := range pkgs[file] {
			if count[p] == 1 {
				own = append(own, p)
			}
		}
		var dirs []string
		for dir, imps := range imports {
			for _, p := range own {
				if imps[p] {
					dirs = append(dirs, dir)
					break
				}
			}
		}
		sort.Strings(dirs)
		if core, ok := coreModels[file]; ok {
			if !slices.Contains(dirs, core.dir) {
				t.Errorf("%s: coreModels names testdata/src/%s, which imports none of the model's own packages %v", file, core.dir, own)
			}
			continue
		}
		if len(own) == 0 {
			t.Errorf("%s: the model names no package another model does not (%v): say its library's package in libraryPackages", file, pkgs[file])
			continue
		}
		n := 0
		for _, dir := range dirs {
			if d, ok := strings.CutPrefix(dir, "models/"); ok {
				testedBy[d] = append(testedBy[d], file)
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no test package under testdata/src/models imports its library (%s): add testdata/src/models/<library>/ with // want lines", file, strings.Join(own, ", "))
		}
	}
	for dir := range imports {
		d, ok := strings.CutPrefix(dir, "models/")
		if !ok {
			continue
		}
		got := testedBy[d]
		shared, isShared := sharedDirs[d]
		switch {
		case len(got) == 0:
			t.Errorf("testdata/src/models/%s imports the library of no built-in model", d)
		case !imports[dir][wants]:
			t.Errorf("testdata/src/models/%s has no // want line: it proves nothing of %s", d, strings.Join(got, ", "))
		case len(got) > 1 && !isShared:
			t.Errorf("testdata/src/models/%s tests %d models (%s): give each its own package, or list it in sharedDirs with the reason", d, len(got), strings.Join(got, ", "))
		case isShared && !slices.Equal(got, shared.models):
			t.Errorf("sharedDirs: testdata/src/models/%s tests %v, the list says %v", d, got, shared.models)
		}
	}
	for d := range sharedDirs {
		if imports["models/"+d] == nil {
			t.Errorf("sharedDirs: testdata/src/models/%s does not exist", d)
		}
	}
	for file := range coreModels {
		if pkgs[file] == nil {
			t.Errorf("coreModels: %s is no built-in model", file)
		}
	}
	for file := range libraryPackages {
		if pkgs[file] == nil {
			t.Errorf("libraryPackages: %s is no built-in model", file)
		}
	}
}

// Every package of a library a built-in model names (outside the standard library) has a
// stub under testdata/src/<import path>, for the analyzer's tests, listed in apicheck's
// imports.go, with its module required in apicheck/go.mod, so that apicheck compares the
// stub and the model's names with the real library.
func TestEveryModelIsStubbedAndChecked(t *testing.T) {
	pkgs, _ := modelPackages(t)
	modules := apicheckModules(t)
	listed := apicheckImports(t)
	for _, file := range slices.Sorted(mapKeys(pkgs)) {
		for _, p := range pkgs[file] {
			if first, _, _ := strings.Cut(p, "/"); !strings.Contains(first, ".") {
				continue // the standard library: the tests use the real one
			}
			if !hasGoFiles(filepath.Join(root, "testdata", "src", filepath.FromSlash(p))) {
				t.Errorf("%s: package %s has no stub: add testdata/src/%s/ declaring what the model and its tests name", file, p, p)
			}
			if !listed[p] && !strings.Contains(p, "/internal/") && !strings.HasSuffix(p, "/internal") {
				t.Errorf("%s: package %s is not imported by apicheck/imports.go, so apicheck does not check its names", file, p)
			}
			found := false
			for _, m := range modules {
				found = found || p == m || strings.HasPrefix(p, m+"/")
			}
			if !found {
				t.Errorf("%s: the module of package %s is not required in apicheck/go.mod", file, p)
			}
		}
	}
}

// Every built-in model has a row in the table of docs/models.md's "Built-in models", and
// every row there names a built-in model.
func TestEveryModelIsDocumented(t *testing.T) {
	pkgs, _ := modelPackages(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "models.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "\n## Built-in models\n")
	if !ok {
		t.Fatal(`docs/models.md has no "## Built-in models" section`)
	}
	table, _, _ = strings.Cut(table, "\n#")
	row := regexp.MustCompile("(?m)^\\| `([^`]+\\.yml)` \\|")
	rows := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		if rows[m[1]] {
			t.Errorf("docs/models.md: %s has two rows in the built-in models table", m[1])
		}
		rows[m[1]] = true
		if pkgs[m[1]] == nil {
			t.Errorf("docs/models.md: the built-in models table has a row for %s, which is no file of internal/model/builtin", m[1])
		}
	}
	for _, file := range slices.Sorted(mapKeys(pkgs)) {
		if !rows[file] {
			t.Errorf("%s has no row in docs/models.md's built-in models table", file)
		}
	}
}

// apicheckModules returns the module paths apicheck/go.mod requires.
func apicheckModules(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "apicheck", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	block := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 0:
		case fields[0] == "require" && len(fields) > 1 && fields[1] == "(":
			block = true
		case fields[0] == ")":
			block = false
		case fields[0] == "require" && len(fields) >= 3:
			out = append(out, fields[1])
		case block && len(fields) >= 2:
			out = append(out, fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("apicheck/go.mod requires no module")
	}
	return out
}

// apicheckImports returns the packages apicheck/imports.go imports: the packages apicheck
// loads.
func apicheckImports(t *testing.T) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "apicheck", "imports.go"), nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = true
	}
	return out
}

func hasGoFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
