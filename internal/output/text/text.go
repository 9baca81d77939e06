// Package text writes findings the way go vet and the go/analysis drivers do, so that
// editors, scripts and people who read vet output read idemlint's unchanged:
//
//	file.go:12:3: handler H: ... ; missing: key, enforcement
//	file.go:20:2: 	via (*T).m          (a related position, indented by a tab)
//
// With context lines (-c=N), each position is followed by the lines around it.
package text

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chokaq/idemlint/internal/result"
)

// Write prints findings in order, with file names relative to dir when they are below it
// (as go vet and staticcheck print them; dir is the working directory, "" for absolute
// names). contextLines < 0 prints no source lines.
func Write(w io.Writer, findings []*result.Finding, contextLines int, dir string) error {
	bw := bufio.NewWriter(w)
	src := map[string][]string{}
	print := func(pos, end result.Position, message string) {
		shown := pos
		shown.Path = Rel(dir, pos.Path)
		fmt.Fprintf(bw, "%s: %s\n", shown, message)
		if contextLines < 0 || !pos.IsValid() {
			return
		}
		lines, ok := src[pos.Path]
		if !ok {
			data, _ := os.ReadFile(pos.Path) // a file gone since loading shows no context
			lines = strings.Split(string(data), "\n")
			src[pos.Path] = lines
		}
		last := pos.Line
		if end.IsValid() && end.Line > last {
			last = end.Line
		}
		for i := pos.Line - contextLines; i <= last+contextLines; i++ {
			if 1 <= i && i <= len(lines) {
				fmt.Fprintf(bw, "%d\t%s\n", i, lines[i-1])
			}
		}
	}
	for _, f := range findings {
		print(f.Pos, f.End, f.Message)
		for _, r := range f.Related {
			print(r.Pos, r.Pos, "\t"+r.Message)
		}
	}
	return bw.Flush()
}

// Rel returns file relative to dir when file is below dir, else file unchanged.
func Rel(dir, file string) string {
	if dir == "" || !filepath.IsAbs(file) {
		return file
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}

// RelPrefix makes the "file:line:col: " that starts a message (a load error as go/packages
// prints it) relative to dir, as Rel does.
func RelPrefix(dir, msg string) string {
	if dir == "" || !strings.HasPrefix(msg, dir+string(filepath.Separator)) {
		return msg
	}
	i := strings.IndexByte(msg, ':')
	if i < 0 {
		return msg
	}
	return Rel(dir, msg[:i]) + msg[i:]
}
