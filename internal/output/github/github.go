// Package github writes findings as GitHub Actions workflow commands
// ("::error file=...,line=...,col=...,title=...::message"). The runner turns each into an
// annotation on the changed lines of a pull request and on the run's summary page.
package github

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/rules"
)

// Write prints one workflow command per finding, one error per package that failed (the
// run's result is incomplete), and one notice per note (stale baseline entries). Paths are
// relative to the repository root, which is what the runner matches against the files of
// the pull request.
func Write(w io.Writer, findings []*result.Finding, errs []result.Error, notes []string) error {
	bw := bufio.NewWriter(w)
	for _, f := range findings {
		var props []string
		if f.Pos.IsValid() && f.Pos.InRoot() {
			props = append(props, "file="+property(f.Pos.File), "line="+strconv.Itoa(f.Pos.Line))
			if f.Pos.Column > 0 {
				props = append(props, "col="+strconv.Itoa(f.Pos.Column))
			}
			if f.End.Line > f.Pos.Line || (f.End.Line == f.Pos.Line && f.End.Column > f.Pos.Column) {
				props = append(props, "endLine="+strconv.Itoa(f.End.Line))
				if f.End.Column > 0 {
					props = append(props, "endColumn="+strconv.Itoa(f.End.Column))
				}
			}
		}
		props = append(props, "title="+property("idemlint "+f.Category))
		msg := f.Message
		if f.URL != "" {
			msg += "\n" + f.URL
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", command(rules.Lookup(f.Category).Level), strings.Join(props, ","), data(msg))
	}
	for _, e := range errs {
		fmt.Fprintf(bw, "::error title=idemlint package error::%s\n", data(e.Package+": "+e.Message))
	}
	for _, n := range notes {
		fmt.Fprintf(bw, "::notice title=idemlint::%s\n", data(n))
	}
	return bw.Flush()
}

// command maps a SARIF level to the workflow command of the same weight.
func command(level string) string {
	switch level {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "notice"
}

// data escapes a command's message the way the runner unescapes it (actions/toolkit's
// escapeData): a newline would otherwise end the command.
func data(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// property escapes a property value, where ':' and ',' are separators too.
func property(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
