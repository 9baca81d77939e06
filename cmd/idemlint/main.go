// Command idemlint reports job and message handlers whose side effects are not safe to
// repeat under at-least-once delivery.
//
// Usage:
//
//	idemlint [flags] ./...
//	go vet -vettool=$(command -v idemlint) ./...
//
// It accepts the standard go/analysis flags (-json, -fix, -diff, -c=N, -test, ...; run
// idemlint -h). Exit status: 0 when there are no findings, 3 when there are findings,
// 1 when packages could not be loaded or analysed, 2 on bad usage.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/chokaq/idemlint/analyzer"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
