// Command idemlint reports job and message handlers whose side effects are not safe to
// repeat under at-least-once delivery.
//
// Usage:
//
//	idemlint [flags] [packages]                 check, print findings
//	idemlint report [flags] [packages]          write the handler inventory (HTML or Markdown)
//	idemlint cache clean|dir                    empty the result cache, or print where it is
//	idemlint help [report|cache]                usage
//	idemlint version                            the version of this build
//	go vet -vettool=$(command -v idemlint) [packages]
//
// Findings go to stdout, progress and the summary line to stderr. Settings come from
// .idemlint.yml (found by walking up from the working directory to the module root) and
// flags, which override it. Run idemlint help, and see docs/ci.md.
//
// Exit status: 0 no findings (none new, with -baseline); 3 findings, also when some
// packages could not be loaded or analysed (-strict-load makes that 1); 1 packages could not
// be loaded or analysed and nothing was found; 2 bad usage or configuration. The legacy -json output exits 0 with findings, as go/analysis drivers do.
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/chokaq/idemlint/analyzer"
)

func main() {
	args := os.Args[1:]
	if slices.Contains(args, "-V=full") {
		wd, _ := os.Getwd()
		if err := vetVersion(os.Stdout, wd); err != nil {
			fmt.Fprintf(os.Stderr, "idemlint: -V=full: %v\n", err)
			os.Exit(exitError)
		}
		return
	}
	if vetInvocation(args) {
		// go vet speaks to its tool with -V=full, -flags and a unit.cfg per package; the
		// single-checker driver answers all three with the analyzer's flags unprefixed,
		// which keeps `go vet -vettool=idemlint -disable=...` working as before.
		singlechecker.Main(analyzer.Analyzer)
		return
	}
	os.Exit(command(args, os.Stdout, os.Stderr))
}

// command runs the command line args (without the program name) and returns the exit status.
func command(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "report":
			return reportCommand(args[1:], stdout, stderr)
		case "cache":
			return cacheCommand(args[1:], stdout, stderr)
		case "help":
			return helpCommand(args[1:], stdout, stderr)
		case "version":
			if len(args) > 1 {
				fmt.Fprintln(stderr, "idemlint: version takes no arguments")
				return exitUsage
			}
			printVersion(stdout)
			return exitClean
		}
	}
	return checkCommand(args, stdout, stderr)
}

// helpCommand prints the usage of the check (no topic), of report or of cache.
func helpCommand(topics []string, stdout, stderr io.Writer) int {
	switch strings.Join(topics, " ") {
	case "":
		fs, _ := newCheckFlags()
		fs.SetOutput(stdout)
		fs.Usage()
	case "report":
		fs, _ := newReportFlags()
		fs.SetOutput(stdout)
		fs.Usage()
	case "cache":
		fmt.Fprint(stdout, cacheUsage)
	default:
		fmt.Fprintf(stderr, "idemlint: help %s: unknown topic; try idemlint help, idemlint help report or idemlint help cache\n", strings.Join(topics, " "))
		return exitUsage
	}
	return exitClean
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
