package analyzer_test

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

func testdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// The test packages are read from testdata/src, so adding one is adding a directory:
//   - a top-level directory whose name has a dot (github.com, gorm.io ...) holds stubs of
//     third-party APIs, not tests (the rule apicheck uses to find the stubs);
//   - models holds one package per library's built-in model, each directly under it
//     (TestModels); deeper directories are their fixtures (ent's generated client);
//   - a directory with a .golden file tests suggested fixes (TestSuggestedFixes);
//   - a directory in fixtures is imported by other tests and holds nothing to test;
//   - every other top-level directory is a feature (TestAnalyzer): the packages in and
//     below it, analysed together.

// fixtures are the top-level directories that tests import but that are no tests: stubs of
// APIs without a host-like path, each with whose they are.
var fixtures = map[string]string{
	"acme": "a company's own libraries, modelled by usermodels/.idemlint.yml",
}

// features returns the feature directories: the top-level directories of testdata/src that
// are neither stubs, fixtures, models nor fix tests.
func features(t *testing.T) []string {
	t.Helper()
	dirs := subdirs(t, "")
	for dir := range fixtures {
		if !slices.Contains(dirs, dir) {
			t.Fatalf("fixture %s is not a directory of testdata/src", dir)
		}
	}
	var out []string
	for _, dir := range dirs {
		if !strings.Contains(dir, ".") && fixtures[dir] == "" && dir != "models" && !hasGolden(t, dir) {
			out = append(out, dir)
		}
	}
	return nonEmpty(t, "feature directories", out)
}

// fixTests returns the top-level directories of testdata/src with .golden files.
func fixTests(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, dir := range subdirs(t, "") {
		if !strings.Contains(dir, ".") && hasGolden(t, dir) {
			out = append(out, dir)
		}
	}
	return nonEmpty(t, "fix tests", out)
}

// packagesUnder returns the import paths of dir (relative to testdata/src) and of every
// directory below it that holds Go files.
func packagesUnder(t *testing.T, dir string) []string {
	t.Helper()
	src := filepath.Join(testdata(t), "src")
	var out []string
	err := filepath.WalkDir(filepath.Join(src, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if names, _ := filepath.Glob(filepath.Join(path, "*.go")); len(names) > 0 {
			rel, err := filepath.Rel(src, path)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return nonEmpty(t, "packages under "+dir, out)
}

// subdirs returns the names of the directories directly in testdata/src/dir, sorted.
func subdirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(testdata(t), "src", dir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// hasGolden reports whether testdata/src/dir holds a .golden file.
func hasGolden(t *testing.T, dir string) bool {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(testdata(t), "src", dir, "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	return len(names) > 0
}

// nonEmpty stops the test when a list read from testdata is empty: a test of nothing
// passes.
func nonEmpty(t *testing.T, what string, list []string) []string {
	t.Helper()
	if len(list) == 0 {
		t.Fatalf("no %s found under testdata/src", what)
	}
	return list
}

// One directory per feature; each file's // want comments are the expected diagnostics and
// every fact (the effects of each function, at its declaration, and the package facts on
// line 1). Among them, several packages test one thing across packages:
//   - crosspkg: facts cross package boundaries (upstream -> middle -> downstream); cycles:
//     facts settle on recursion;
//   - iface: an interface's implementation in another package;
//   - retention: an explicit middleware retention is compared with the retry horizon of the
//     jobs it serves, read from the package that sets their retries (a package fact);
//   - usermodels: a project's own models (.idemlint.yml) of its own libraries (stubbed under
//     acme): handlers by signature, and handlers known only by their registration, functions
//     and a struct's exported methods in the registering package, and a function of another
//     package reported at its registration.
//
// The features run with -shared-sinks=per-handler, so that each handler's finding is
// stated where the handler is (most features test how handlers are found and judged, and
// many share a helper that makes the effect); the default, one finding per shared sink,
// is what the features in onceFeatures test.
func TestAnalyzer(t *testing.T) {
	analyseFeatures(t, selected(t, features(t)))
}

// analyseFeatures runs the feature directories dirs in at most two analysistest runs (see
// run): those of onceFeatures with the default settings, the others with
// -shared-sinks=per-handler. It returns every package's result.
func analyseFeatures(t *testing.T, dirs []string) []*analysistest.Result {
	t.Helper()
	var each, once []string
	var results []*analysistest.Result
	for _, dir := range dirs {
		if db := filepath.Join(testdata(t), "src", dir, "db"); isDir(db) {
			// A feature with a schema (db/) runs with it, as the command finds it.
			a, err := analyzer.New(analyzer.Config{SharedSinks: "per-handler", Schema: []string{db}})
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, analysistest.Run(t, testdata(t), a, packagesUnder(t, dir)...)...)
			continue
		}
		if onceFeatures[dir] {
			once = append(once, packagesUnder(t, dir)...)
		} else {
			each = append(each, packagesUnder(t, dir)...)
		}
	}
	if len(each) > 0 {
		results = append(results, analysistest.Run(t, testdata(t), perHandler(t), each...)...)
	}
	if len(once) > 0 {
		results = append(results, analysistest.Run(t, testdata(t), analyzer.Analyzer, once...)...)
	}
	return results
}

func isDir(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.IsDir()
}

// perHandler is the analyzer with -shared-sinks=per-handler.
func perHandler(t *testing.T) *analysis.Analyzer {
	t.Helper()
	a, err := analyzer.New(analyzer.Config{SharedSinks: "per-handler"})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// onceFeatures are the feature directories analysed with the default settings: a sink
// that handlers reach through a function they share is one finding.
var onceFeatures = map[string]bool{"rootcause": true}

// featureFlag narrows TestAnalyzer and TestModels to some directories
// (go test ./analyzer -run TestAnalyzer -args -feature=decisions,chains).
var featureFlag = flag.String("feature", "", "comma-separated feature or model directories to test (default all)")

// selected returns the directories of dirs that -feature names, or all of them.
func selected(t *testing.T, dirs []string) []string {
	t.Helper()
	if *featureFlag == "" {
		return dirs
	}
	var out []string
	for _, d := range dirs {
		if slices.Contains(strings.Split(*featureFlag, ","), d) {
			out = append(out, d)
		}
	}
	return nonEmpty(t, "directories named by -feature="+*featureFlag, out)
}

// run analyses pkgs in one analysistest run. One run loads the packages, and type-checks
// the standard library they import from source, once: a run per feature did that fifty
// times (86 s of the package's 110 s on 2 cores; one run takes about 3 s). Each package is
// still analysed with only its imports' facts, so a feature sees nothing of another, and a
// failure names its file and line, which names its feature.
func run(t *testing.T, pkgs []string) {
	t.Helper()
	analysistest.Run(t, testdata(t), analyzer.Analyzer, pkgs...)
}
