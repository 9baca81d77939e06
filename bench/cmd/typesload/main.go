// Command typesload measures the two ways to give the analysis the types of the packages it
// skips whole (the standard library, dependencies the models describe): from source, parsed
// without function bodies and type-checked, as idemlint's driver does, or from the export
// data the go command compiles (go list -export, as staticcheck does). It loads the types of
// every package the patterns import one way or the other, and nothing else; run it under
// /usr/bin/time with a cold and a warm build cache (GOCACHE) to compare.
//
//	typesload -from=source ./corpus
//	typesload -from=export ./corpus
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/internal/driver"
)

func main() {
	from := flag.String("from", "source", "source (parsed without bodies, type-checked) or export (the go command's export data)")
	flag.Parse()
	conf := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedTypes}
	switch *from {
	case "source":
		// NeedSyntax makes go/packages type-check every package from source; ParseFile drops
		// the bodies by the driver's own rule for the packages the analysis skips.
		conf.Mode |= packages.NeedSyntax | packages.NeedFiles | packages.NeedCompiledGoFiles
		conf.ParseFile = func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
			f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.SkipObjectResolution)
			if f != nil {
				driver.TrimBodies(f)
			}
			return f, err
		}
	case "export":
	default:
		log.Fatalf("-from=%s: source or export", *from)
	}
	pkgs, err := packages.Load(conf, flag.Args()...)
	if err != nil {
		log.Fatal(err)
	}
	n, errs := 0, 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		n++
		errs += len(p.Errors)
	})
	fmt.Printf("%d packages, %d errors\n", n, errs)
}
