// Package directive parses idemlint's comment directives:
//
//	//idemlint:ignore KIND[,KIND] -- reason   (same line, the line above, or a function's doc)
//	//idemlint:idempotent -- reason           (a function's doc: its effects stop there)
//	//idemlint:handler                        (a function's doc: treat it as a job handler)
//	//idemlint:decisions key=K enforce=E ttl=T partial=P -- reason   (a handler's doc)
//
// A reason is required where a directive silences a finding, because the next reader needs
// to know why a repeat is safe; the parser reports its absence instead of guessing.
package directive

import (
	"go/ast"
	"go/token"
	"strings"
)

// Prefix starts every directive. Like //go: and //lint: directives there is no space.
const Prefix = "//idemlint:"

// Verb is what a directive asks for.
type Verb string

// The directive verbs.
const (
	Ignore     Verb = "ignore"
	Idempotent Verb = "idempotent"
	Handler    Verb = "handler"
)

// Directive is one parsed //idemlint: comment.
type Directive struct {
	Pos    token.Pos // start of the comment
	End    token.Pos
	Line   int
	Verb   Verb
	Kinds  []string // for Ignore: the kinds named, as written
	Reason string   // text after "--", trimmed
	Err    string   // why the directive is malformed, or ""
	Used   bool     // set by the analyzer when the directive silenced something
	// Decisions holds what a //idemlint:decisions directive declares.
	Decisions *Decisions
}

// Parse parses one comment; ok is false when it is not an idemlint directive at all.
func Parse(c *ast.Comment, fset *token.FileSet) (d *Directive, ok bool) {
	text, ok := strings.CutPrefix(c.Text, Prefix)
	if !ok {
		return nil, false
	}
	d = &Directive{Pos: c.Pos(), End: c.End(), Line: fset.Position(c.Pos()).Line}
	body, reason, hasReason := strings.Cut(text, "--")
	d.Reason = strings.TrimSpace(reason)
	fields := strings.Fields(body)
	if len(fields) == 0 {
		d.Err = "empty directive: want //idemlint:ignore, //idemlint:idempotent, //idemlint:handler or //idemlint:decisions"
		return d, true
	}
	d.Verb = Verb(fields[0])
	args := fields[1:]
	switch d.Verb {
	case Ignore:
		if len(args) == 0 {
			d.Err = "//idemlint:ignore needs the kinds it silences: //idemlint:ignore KIND[,KIND] -- reason"
			break
		}
		for _, a := range args {
			for _, k := range strings.Split(a, ",") {
				if k = strings.TrimSpace(k); k != "" {
					d.Kinds = append(d.Kinds, k)
				}
			}
		}
		if len(d.Kinds) == 0 { // only commas: found by FuzzParse
			d.Err = "//idemlint:ignore needs the kinds it silences: //idemlint:ignore KIND[,KIND] -- reason"
			break
		}
		if !hasReason || d.Reason == "" {
			d.Err = "//idemlint:ignore needs a reason: //idemlint:ignore " + strings.Join(d.Kinds, ",") + " -- why a repeat is safe"
		}
	case Idempotent:
		if len(args) > 0 {
			d.Err = "//idemlint:idempotent takes no arguments before the reason: //idemlint:idempotent -- reason"
		} else if !hasReason || d.Reason == "" {
			d.Err = "//idemlint:idempotent needs a reason: //idemlint:idempotent -- why a repeat is safe"
		}
	case Handler:
		if len(args) > 0 {
			d.Err = "//idemlint:handler takes no arguments"
		}
	case DecisionsVerb:
		d.Decisions, d.Err = parseDecisions(args)
		if d.Err == "" && (!hasReason || d.Reason == "") {
			d.Err = "//idemlint:decisions needs a reason: ... -- why these decisions"
		}
	default:
		d.Err = "unknown directive //idemlint:" + string(d.Verb) + " (known: ignore, idempotent, handler, decisions)"
	}
	return d, true
}

// File holds the directives of one file.
type File struct {
	All    []*Directive
	byLine map[int][]*Directive
}

// ParseFile collects every directive in f.
func ParseFile(f *ast.File, fset *token.FileSet) *File {
	var out *File
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, Prefix) {
				continue
			}
			d, _ := Parse(c, fset)
			if out == nil {
				out = &File{byLine: map[int][]*Directive{}}
			}
			out.All = append(out.All, d)
			out.byLine[d.Line] = append(out.byLine[d.Line], d)
		}
	}
	return out
}

// IgnoresAt returns the well-formed ignore directives that apply to code on line: those on
// the same line and those on the line above.
func (f *File) IgnoresAt(line int) []*Directive {
	if f == nil {
		return nil
	}
	var out []*Directive
	for _, l := range [2]int{line, line - 1} {
		for _, d := range f.byLine[l] {
			if d.Verb == Ignore && d.Err == "" {
				out = append(out, d)
			}
		}
	}
	return out
}

// InDoc returns the directives inside a declaration's doc comment.
func (f *File) InDoc(doc *ast.CommentGroup) []*Directive {
	if f == nil || doc == nil {
		return nil
	}
	var out []*Directive
	for _, d := range f.All {
		if d.Pos >= doc.Pos() && d.End <= doc.End() {
			out = append(out, d)
		}
	}
	return out
}

// Names reports whether d names kind.
func (d *Directive) Names(kind string) bool {
	for _, k := range d.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}
