// Command floor is the benchmark's floor: idemlint's own driver (loading, type-checking every
// package from source, the checker's scheduling and output) running an analyzer that only
// asks for type information and does nothing with it. idemlint's cost over this is the cost
// of its analysis.
package main

import (
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/driver"
)

var floor = &analysis.Analyzer{
	Name: "floor",
	Doc:  "needs type information and does nothing with it",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() {
	out, err := driver.Run(driver.Config{Analyzer: floor, Patterns: os.Args[1:]})
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "floor: %d packages analysed\n", out.Run.Packages)
}
