// Command idemlint reports job and message handlers whose side effects are not safe to
// repeat under at-least-once delivery.
//
// Usage:
//
//	idemlint [flags] [packages]                 check, print findings
//	idemlint report [flags] [packages]          write the handler inventory (HTML or Markdown)
//	go vet -vettool=$(command -v idemlint) [packages]
//
// Check flags: -format text|json|sarif|github, -o FILE, -baseline FILE, -write-baseline,
// -q, the analyzer's -disable, -models, -builtin, and the standard go/analysis driver flags
// (-json, -fix, -diff, -c=N, -test, -tags, -debug, -cpuprofile, -memprofile, -trace). Run
// idemlint -h, and see docs/ci.md.
//
// Exit status: 0 no findings (none new, with -baseline); 3 findings; 1 packages could not
// be loaded or analysed (this wins over 3: the findings are incomplete); 2 bad usage or
// configuration. The legacy -json output exits 0 with findings, as go/analysis drivers do.
package main

import (
	"os"
	"strings"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/chokaq/idemlint/analyzer"
)

// Exit statuses. They are part of the command's interface: CI scripts test them.
const (
	exitClean    = 0
	exitError    = 1 // packages failed to load or analyse, or output could not be written
	exitUsage    = 2
	exitFindings = 3
)

func main() {
	args := os.Args[1:]
	if vetInvocation(args) {
		// go vet speaks to its tool with -V=full, -flags and a unit.cfg per package; the
		// single-checker driver answers all three with the analyzer's flags unprefixed,
		// which keeps `go vet -vettool=idemlint -disable=...` working as before.
		singlechecker.Main(analyzer.Analyzer)
		return
	}
	if len(args) > 0 && args[0] == "report" {
		os.Exit(report(args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(check(args, os.Stdout, os.Stderr))
}

// vetInvocation reports whether go vet (or a build system speaking its protocol) runs the
// command: it asks for -V=full and -flags, then passes one *.cfg file per package.
func vetInvocation(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "V" || name == "flags" {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}
