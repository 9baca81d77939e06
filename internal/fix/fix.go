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
	sum, content, accepted, err := acceptFixes(actions, generatedFiles(actions))
	if err != nil {
		return sum, err
	}
	sum.Files, err = writeFixed(content, accepted, diff)
	if err != nil {
		return sum, err
	}
	if sum.Conflicts > 0 {
		return sum, fmt.Errorf("applied %d of %d fixes; %d overlapped others: run again to apply them", sum.Applied, sum.Fixes, sum.Conflicts)
	}
	return sum, nil
}

// generatedFiles marks the files of the actions that are generated, so that no fix edits
// them: the next generation would undo the edit. A file seen in several actions (a package
// and its test variant) is generated if any of its parses says so.
func generatedFiles(actions []Action) map[*token.File]bool {
	generated := map[*token.File]bool{}
	for _, act := range actions {
		for _, f := range act.Files {
			if tf := act.Fset.File(f.FileStart); tf != nil {
				generated[tf] = generated[tf] || ast.IsGenerated(f)
			}
		}
	}
	return generated
}

// acceptFixes takes the first fix of each diagnostic, in order, unless it edits a generated
// file or overlaps an edit already taken: a fix is applied whole or not at all, so the
// first one taken wins and the rest wait for the next run. It returns the counts so far,
// the content of each file a fix edits (as read, for the edits' offsets), and the edits
// accepted by file. The counts are returned with an error too: the caller reports them.
func acceptFixes(actions []Action, generated map[*token.File]bool) (sum Summary, content map[string][]byte, accepted map[string][]edit, err error) {
	content = map[string][]byte{}
	accepted = map[string][]edit{}
	for _, act := range actions {
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			sum.Fixes++
			byFile, skip, err := fixEdits(act.Fset, d.SuggestedFixes[0].TextEdits, generated, content, accepted)
			switch {
			case err != nil:
				return sum, content, accepted, err
			case skip == skipUnknownFile:
				continue
			case skip == skipGenerated:
				sum.Generated++
				continue
			case conflicts(accepted, byFile):
				sum.Conflicts++
				continue
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
	return sum, content, accepted, nil
}

// skipReason says why a fix is not taken before its edits are compared with the others.
type skipReason int

const (
	skipNone        skipReason = iota
	skipUnknownFile            // an edit outside the files loaded: nothing to locate it in
	skipGenerated              // an edit of a generated file
)

// fixEdits converts one fix's text edits to byte offsets, by file, reading each file the
// first time an edit names it (into content) and checking it is the size it was when
// loaded: offsets into a file edited since would corrupt it. Edits identical to one
// already accepted are dropped, so that a file analysed in a package and in its test
// variant gets the edit once. The edits are looked at in order, and the first that
// cannot be taken decides: a file that fails to read before it is an error.
func fixEdits(fset *token.FileSet, textEdits []analysis.TextEdit, generated map[*token.File]bool, content map[string][]byte, accepted map[string][]edit) (map[string][]edit, skipReason, error) {
	byFile := map[string][]edit{}
	for _, te := range textEdits {
		tf := fset.File(te.Pos)
		if tf == nil {
			return nil, skipUnknownFile, nil
		}
		if generated[tf] {
			return nil, skipGenerated, nil
		}
		name := tf.Name()
		if _, ok := content[name]; !ok {
			data, err := os.ReadFile(name)
			if err != nil {
				return nil, skipNone, err
			}
			if len(data) != tf.Size() {
				return nil, skipNone, fmt.Errorf("%s changed since it was loaded (%d bytes, now %d); not fixing", name, tf.Size(), len(data))
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
	return byFile, skipNone, nil
}

// conflicts reports whether a fix's edits overlap each other or an edit already accepted
// in the same file; either way the fix cannot be applied as a whole this run.
func conflicts(accepted, byFile map[string][]edit) bool {
	for name, edits := range byFile {
		if overlaps(accepted[name], edits) || overlaps(nil, edits) {
			return true
		}
	}
	return false
}

// writeFixed applies the accepted edits to each file, in the order of the file names, and
// writes the result back (keeping the file's permissions) or, with diff set, writes the
// unified diff to it instead. It returns the files changed, those done so far on an error.
func writeFixed(content map[string][]byte, accepted map[string][]edit, diff io.Writer) ([]string, error) {
	names := make([]string, 0, len(accepted))
	for name := range accepted {
		names = append(names, name)
	}
	sort.Strings(names)
	var files []string
	for _, name := range names {
		old := content[name]
		edits := accepted[name]
		if len(edits) == 0 {
			continue
		}
		out := applyEdits(old, edits)
		if diff != nil {
			if _, err := io.WriteString(diff, Unified(name+" (old)", name+" (new)", old, out)); err != nil {
				return files, err
			}
		} else {
			info, err := os.Stat(name)
			if err != nil {
				return files, err
			}
			if err := os.WriteFile(name, out, info.Mode().Perm()); err != nil {
				return files, err
			}
		}
		files = append(files, name)
	}
	return files, nil
}

// applyEdits returns old with the edits (which do not overlap) applied, gofmt'ed so that
// a fix need not lay out the code it inserts. A result gofmt cannot parse is returned
// unformatted.
func applyEdits(old []byte, edits []edit) []byte {
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
	return out
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
