// Package directives checks the //idemlint: directives themselves: malformed ones, unknown
// kinds, directives out of place, and directives that silenced nothing, since a stale
// suppression hides the next real finding. It runs last: the stages and checks before it
// say which directives they used (checks.Input.Used).
package directives

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/rules"
)

// Check is the directives check.
var Check = checks.Check{
	Name:       "directives",
	Doc:        "Reports malformed, unknown, misplaced and unused //idemlint: directives.",
	Categories: []rules.Category{rules.Directive},
	Run:        func(in *checks.Input) checks.Output { return checks.Output{Verdicts: Problems(in)} },
}

// Problems returns the directive problems of the package, in source order per file.
func Problems(in *checks.Input) []checks.Verdict {
	// The doc comments of the function declarations the analysis evaluates (those with a
	// body and type information): the only place a function's directives belong.
	inDoc := map[*directive.Directive]bool{}
	for _, f := range in.Files {
		df := in.Directives(f)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || df == nil {
				continue
			}
			if _, ok := in.Info.Defs[fd.Name].(*types.Func); !ok {
				continue
			}
			for _, d := range df.InDoc(fd.Doc) {
				inDoc[d] = true
			}
		}
	}
	var out []checks.Verdict
	add := func(d *directive.Directive, fixes []analysis.SuggestedFix, format string, args ...any) {
		out = append(out, checks.Verdict{Pos: d.Pos, Category: rules.Directive, Message: fmt.Sprintf(format, args...), Fixes: fixes})
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
				add(d, nil, "//idemlint:ignore names unknown kind %s (known: %s, %s, %s)", unknownKinds(d), effect.KindList(), rules.SQLConflict, rules.Decisions)
			case (d.Verb == directive.Idempotent || d.Verb == directive.Handler) && !inDoc[d]:
				add(d, nil, "//idemlint:%s belongs in the doc comment of a function declaration", d.Verb)
			case !in.Used[d] && d.Verb == directive.Ignore:
				add(d, removal(in, d), "//idemlint:ignore %s silences nothing here: remove it", strings.Join(d.Kinds, ","))
			case !in.Used[d] && d.Verb == directive.Idempotent:
				add(d, removal(in, d), "//idemlint:idempotent silences nothing: the function reaches no unprotected effect")
			case !in.Used[d] && d.Verb == directive.Handler:
				add(d, nil, "//idemlint:handler is not on a function declaration")
			}
		}
	}
	return out
}

// removal is the fix for a directive that silences nothing: delete the comment. When it
// stands alone on its line the line goes too, and so does a blank "//" line that would be
// left dangling at the end of a doc comment, so the fixed file needs no gofmt.
func removal(in *checks.Input, d *directive.Directive) []analysis.SuggestedFix {
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
		if !effect.Known(effect.Kind(k)) && k != string(rules.Decisions) && k != string(rules.SQLConflict) {
			bad = append(bad, fmt.Sprintf("%q", k))
		}
	}
	return strings.Join(bad, ", ")
}
