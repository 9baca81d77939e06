// Command factsize analyses packages with idemlint and prints the bytes of facts they
// export (one gob stream per package, as drivers write them): total, median and largest,
// and how many packages export none.
package main

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
)

func main() {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule}, os.Args[1:]...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "factsize:", err)
		os.Exit(1)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, pkgs, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "factsize:", err)
		os.Exit(1)
	}
	type pkgSize struct {
		path string
		size int
	}
	var sizes []int
	var byPkg []pkgSize
	total, errs := 0, 0
	for act := range graph.All() {
		if act.Err != nil {
			errs++
			fmt.Fprintf(os.Stderr, "factsize: %s: %v\n", act.Package.PkgPath, act.Err)
		}
		var buf bytes.Buffer
		enc := gob.NewEncoder(&buf)
		for _, of := range act.AllObjectFacts() {
			if of.Object.Pkg() == act.Package.Types {
				if err := enc.Encode(of.Fact); err != nil {
					panic(err)
				}
			}
		}
		for _, pf := range act.AllPackageFacts() {
			if pf.Package == act.Package.Types {
				if err := enc.Encode(pf.Fact); err != nil {
					panic(err)
				}
			}
		}
		sizes = append(sizes, buf.Len())
		byPkg = append(byPkg, pkgSize{act.Package.PkgPath, buf.Len()})
		total += buf.Len()
	}
	sort.Slice(byPkg, func(i, j int) bool { return byPkg[i].size > byPkg[j].size })
	for _, p := range byPkg[:min(5, len(byPkg))] {
		fmt.Printf("  %7d bytes  %s\n", p.size, p.path)
	}
	sort.Ints(sizes)
	none := 0
	for _, s := range sizes {
		if s == 0 {
			none++
		}
	}
	fmt.Printf("packages %d, analysis errors %d, fact bytes total %d, median %d, max %d, packages without facts %d\n",
		len(sizes), errs, total, sizes[len(sizes)/2], sizes[len(sizes)-1], none)
	if errs > 0 {
		os.Exit(1)
	}
}
