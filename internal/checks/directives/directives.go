// Package directives checks the //idemlint: directives themselves: malformed ones, unknown
// kinds, directives out of place, and directives that silenced nothing, since a stale
// suppression hides the next real finding. It runs after the effects are solved and the
// handlers found, which mark the directives they used.
package directives

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/rules"
)

// Input is what the check reads.
type Input struct {
	Fset  *token.FileSet
	Files []*ast.File
	// Directives returns the parsed directives of a file (nil: none).
	Directives func(*ast.File) *directive.File
	Nodes      []*callgraph.Node
	// ReadFile reads a source file, for the removal fix (nil: the fix removes the comment
	// only).
	ReadFile func(string) ([]byte, error)
}

// Check returns the directive problems of the package, in source order per file.
func Check(in Input) []checks.Problem {
	inDoc := map[*directive.Directive]bool{}
	for _, n := range in.Nodes {
		if n.Decl != nil {
			for _, d := range n.File.InDoc(n.Decl.Doc) {
				inDoc[d] = true
			}
		}
	}
	var out []checks.Problem
	add := func(d *directive.Directive, fixes []analysis.SuggestedFix, format string, args ...any) {
		out = append(out, checks.Problem{Pos: d.Pos, Category: rules.Directive, Message: fmt.Sprintf(format, args...), Fixes: fixes})
	}
	for _, f := range in.Files {
		df := in.Directives(f)
		if df == nil {
			continue
		}
		for _, d := range df.All {
			switch {
			case d.Err != "":
				add(d, nil, "%s", d.Err)
			case d.Verb == directive.Ignore && unknownKinds(d) != "":
				add(d, nil, "//idemlint:ignore names unknown kind %s (known: %s)", unknownKinds(d), effect.KindList())
			case (d.Verb == directive.Idempotent || d.Verb == directive.Handler) && !inDoc[d]:
				add(d, nil, "//idemlint:%s belongs in the doc comment of a function declaration", d.Verb)
			case !d.Used && d.Verb == directive.Ignore:
				add(d, in.removal(d), "//idemlint:ignore %s silences nothing here: remove it", strings.Join(d.Kinds, ","))
			case !d.Used && d.Verb == directive.Idempotent:
				add(d, in.removal(d), "//idemlint:idempotent silences nothing: the function reaches no unprotected effect")
			case !d.Used && d.Verb == directive.Handler:
				add(d, nil, "//idemlint:handler is not on a function declaration")
			}
		}
	}
	return out
}

// removal is the fix for a directive that silences nothing: delete the comment. When it
// stands alone on its line the line goes too, and so does a blank "//" line that would be
// left dangling at the end of a doc comment, so the fixed file needs no gofmt.
func (in Input) removal(d *directive.Directive) []analysis.SuggestedFix {
	start, end := d.Pos, d.End
	if tf := in.Fset.File(d.Pos); tf != nil && in.ReadFile != nil {
		if src, err := in.ReadFile(tf.Name()); err == nil && len(src) == tf.Size() {
			s, e := lineSpan(src, tf.Offset(d.Pos), tf.Offset(d.End))
			start, end = tf.Pos(s), tf.Pos(e)
		}
	}
	return []analysis.SuggestedFix{{
		Message:   "remove the unused directive",
		TextEdits: []analysis.TextEdit{{Pos: start, End: end}},
	}}
}

// lineSpan widens the byte range [s, e) of a line comment in src to what its removal
// should delete: the blanks before it, its line when nothing else is on it, and a
// preceding line holding only "//" when the comment ended a comment block.
func lineSpan(src []byte, s, e int) (int, int) {
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	for s > 0 && blank(src[s-1]) {
		s--
	}
	if s > 0 && src[s-1] != '\n' {
		return s, e // code before the comment: keep the line and its newline
	}
	if e < len(src) && src[e] == '\r' {
		e++
	}
	if e < len(src) && src[e] == '\n' {
		e++
	}
	next := e
	for next < len(src) && blank(src[next]) {
		next++
	}
	if s == 0 || bytes.HasPrefix(src[next:], []byte("//")) {
		return s, e
	}
	prev := bytes.LastIndexByte(src[:s-1], '\n') + 1 // start of the line above
	if string(bytes.TrimSpace(src[prev:s])) == "//" {
		s = prev
	}
	return s, e
}

func unknownKinds(d *directive.Directive) string {
	var bad []string
	for _, k := range d.Kinds {
		if !effect.Known(effect.Kind(k)) {
			bad = append(bad, fmt.Sprintf("%q", k))
		}
	}
	return strings.Join(bad, ", ")
}
