package analyzer_test

import (
	"bytes"
	"encoding/gob"
	"sort"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

// Facts travel with every package to every importer (go vet writes them to disk, golangci-lint
// caches them), so they must stay small. Budget, like NilAway's: the median package exports
// under 1 KiB of facts and none more than 4 KiB, over the test packages (which are denser in
// effects than real code: nearly every function in them has one).
func TestFactSizeBudget(t *testing.T) {
	pkgs := []string{"sqlwrite", "httpwrite", "email", "payment", "handlers", "generics", "closures",
		"iface/use", "crosspkg/downstream", "decisions", "publish", "cycles"}
	results := analysistest.Run(diagnosticsOnly{t}, testdata(t), analyzer.Analyzer, pkgs...)
	var sizes []int
	for _, r := range results {
		// One gob stream per package, as drivers write them: type descriptors once.
		var buf bytes.Buffer
		enc := gob.NewEncoder(&buf)
		for _, of := range r.Action.AllObjectFacts() {
			if of.Object.Pkg() != r.Action.Package.Types {
				continue // facts of dependencies are counted with their package
			}
			if err := enc.Encode(of.Fact); err != nil {
				t.Fatal(err)
			}
		}
		total := buf.Len()
		sizes = append(sizes, total)
		if total > 4096 {
			t.Errorf("package %s exports %d bytes of facts; budget 4096", r.Action.Package.PkgPath, total)
		}
	}
	sort.Ints(sizes)
	median := sizes[len(sizes)/2]
	t.Logf("fact bytes per package: median %d, max %d, over %d packages", median, sizes[len(sizes)-1], len(sizes))
	if median > 1024 {
		t.Errorf("median package exports %d bytes of facts; budget 1024", median)
	}
	if sizes[len(sizes)-1] == 0 {
		t.Errorf("no package exported any fact: the measurement measured nothing")
	}
}
