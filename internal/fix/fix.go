// Package fix applies the suggested fixes attached to diagnostics (-fix), or prints them as
// a unified diff (-diff), as the go/analysis drivers do: the first fix of each diagnostic,
// fixes that touch generated files skipped, identical edits (a file analysed as part of a
// package and of its test variant) applied once, and a fix that overlaps one already taken
// left for the next run. The result is gofmt'ed.
package fix

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"io"
	"os"
	"slices"
	"sort"

	"golang.org/x/tools/go/analysis"
)

// Action is one package's diagnostics with what is needed to locate their edits.
type Action struct {
	Fset        *token.FileSet
	Files       []*ast.File
	Diagnostics []analysis.Diagnostic
}

// Summary counts what Apply did.
type Summary struct {
	Fixes     int // fixes considered (the first of each diagnostic)
	Applied   int
	Conflicts int // fixes overlapping an applied one: apply them by running again
	Generated int // fixes skipped because they edit a generated file
	Files     []string
	PerFile   map[string]int // fixes applied, by file (a fix editing two files counts in each)
}

type edit struct {
	start, end int
	text       string
}

// Apply applies the fixes. With diff set, files are left alone and the changes are written
// to diff as a unified diff. An error reports a file that changed since it was loaded or
// could not be written, or fixes left unapplied.
func Apply(actions []Action, diff io.Writer) (Summary, error) {
	var sum Summary
	generated := map[*token.File]bool{}
	for _, act := range actions {
		for _, f := range act.Files {
			if tf := act.Fset.File(f.FileStart); tf != nil {
				generated[tf] = generated[tf] || ast.IsGenerated(f)
			}
		}
	}
	content := map[string][]byte{}
	accepted := map[string][]edit{}
	for _, act := range actions {
	fixes:
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			sum.Fixes++
			byFile := map[string][]edit{}
			for _, te := range d.SuggestedFixes[0].TextEdits {
				tf := act.Fset.File(te.Pos)
				if tf == nil {
					continue fixes
				}
				if generated[tf] {
					sum.Generated++
					continue fixes
				}
				name := tf.Name()
				if _, ok := content[name]; !ok {
					data, err := os.ReadFile(name)
					if err != nil {
						return sum, err
					}
					if len(data) != tf.Size() {
						return sum, fmt.Errorf("%s changed since it was loaded (%d bytes, now %d); not fixing", name, tf.Size(), len(data))
					}
					content[name] = data
				}
				end := te.End
				if !end.IsValid() {
					end = te.Pos
				}
				e := edit{start: tf.Offset(te.Pos), end: tf.Offset(end), text: string(te.NewText)}
				if !slices.Contains(accepted[name], e) { // identical edits: apply once
					byFile[name] = append(byFile[name], e)
				}
			}
			for name, edits := range byFile {
				if overlaps(accepted[name], edits) || overlaps(nil, edits) {
					sum.Conflicts++
					continue fixes
				}
			}
			for name, edits := range byFile {
				accepted[name] = append(accepted[name], edits...)
				if sum.PerFile == nil {
					sum.PerFile = map[string]int{}
				}
				sum.PerFile[name]++
			}
			sum.Applied++
		}
	}

	names := make([]string, 0, len(accepted))
	for name := range accepted {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		old := content[name]
		edits := accepted[name]
		if len(edits) == 0 {
			continue
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
		var b bytes.Buffer
		last := 0
		for _, e := range edits {
			b.Write(old[last:e.start])
			b.WriteString(e.text)
			last = e.end
		}
		b.Write(old[last:])
		out := b.Bytes()
		if formatted, err := format.Source(out); err == nil {
			out = formatted
		}
		if diff != nil {
			if _, err := io.WriteString(diff, Unified(name+" (old)", name+" (new)", old, out)); err != nil {
				return sum, err
			}
		} else {
			info, err := os.Stat(name)
			if err != nil {
				return sum, err
			}
			if err := os.WriteFile(name, out, info.Mode().Perm()); err != nil {
				return sum, err
			}
		}
		sum.Files = append(sum.Files, name)
	}
	if sum.Conflicts > 0 {
		return sum, fmt.Errorf("applied %d of %d fixes; %d overlapped others: run again to apply them", sum.Applied, sum.Fixes, sum.Conflicts)
	}
	return sum, nil
}

// overlaps reports whether an edit of add overlaps one of have, or (have nil) whether two
// edits of add overlap each other. Two insertions at the same offset overlap: their order
// would be arbitrary.
func overlaps(have, add []edit) bool {
	clash := func(a, b edit) bool {
		if a.start == a.end && b.start == b.end {
			return a.start == b.start
		}
		return a.start < b.end && b.start < a.end || a.start == b.start
	}
	if have == nil {
		for i := range add {
			for j := i + 1; j < len(add); j++ {
				if clash(add[i], add[j]) {
					return true
				}
			}
		}
		return false
	}
	for _, a := range have {
		for _, b := range add {
			if clash(a, b) {
				return true
			}
		}
	}
	return false
}
