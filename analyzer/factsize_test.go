package analyzer_test

import (
	"bytes"
	"encoding/gob"
	"sort"
	"testing"
)

// Facts travel with every package to every importer (go vet writes them to disk, golangci-lint
// caches them), so they must stay small. Budgets, over the feature packages (TestAnalyzer's):
// a fact (one function's effects) has a median under 160 bytes and none over 1 KiB; no
// package exports more than 3456 bytes of them (the 4 KiB its stream was held to, less the
// 640 bytes of type description it carried then). Per fact, not per package: the test packages hold
// as many cases as their features need, so a per-package median measured how many cases they
// hold (it passed 1 KiB when the http.write cases grew), not how compact a fact is. A
// package's total counts its facts' own bytes, not gob's description of the fact's types,
// which every package's stream carries once (about 1 KiB, growing with each field of
// effect.Fact, whatever the package holds). Real code is measured by bench/bench.sh over its
// corpus (median 0 bytes per package, docs/performance.md).
func TestFactSizeBudget(t *testing.T) {
	results := analyseFeatures(t, features(t))
	var facts []int
	for _, r := range results {
		total := 0
		for _, of := range r.Action.AllObjectFacts() {
			if of.Object.Pkg() != r.Action.Package.Types {
				continue // facts of dependencies are counted with their package
			}
			n := factBytes(t, of.Fact)
			facts = append(facts, n)
			total += n
			if n > 1024 {
				t.Errorf("fact of %s exports %d bytes; budget 1024", of.Object.Name(), n)
			}
		}
		if total > 3456 {
			t.Errorf("package %s exports %d bytes of facts; budget 3456", r.Action.Package.PkgPath, total)
		}
	}
	if len(facts) == 0 {
		t.Fatal("no package exported any fact: the measurement measured nothing")
	}
	sort.Ints(facts)
	median := facts[len(facts)/2]
	t.Logf("bytes per fact: median %d, max %d, over %d facts", median, facts[len(facts)-1], len(facts))
	if median > 160 {
		t.Errorf("the median fact takes %d bytes; budget 160", median)
	}
}

// factBytes is what one fact adds to a stream that already carries its type: a stream
// sends a type's description once, with the first fact of the type, and that is no
// function's cost, nor, growing with effect.Fact's fields alone, a package's.
func factBytes(t *testing.T, fact any) int {
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(fact); err != nil {
		t.Fatal(err)
	}
	before := buf.Len()
	if err := enc.Encode(fact); err != nil {
		t.Fatal(err)
	}
	return buf.Len() - before
}
