// Package pkgout turns what one package's analysis gave (its diagnostics and its
// analyzer.Result) into result values, and joins the outputs of every package into one
// result.Run. It stands apart from the driver so that a package's output can be made on
// its own, stored by the result store (internal/reuse) and joined to a later run as if just
// made: the driver's full runs and the store's reuse runs join through the same code, so
// that their output is the same.
package pkgout

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/result"
)

// Output is what one package's analysis adds to the run, before the findings, handlers
// and directives of every package are joined: positions resolved, chains' hops not yet
// resolved to files (that takes the whole program's files) and handlers not yet judged
// partial (that takes the whole program's types). The result store keeps it in a
// package's entry (internal/reuse), so its JSON form is part of the entries' format.
type Output struct {
	Module     string              `json:"module,omitempty"` // the package's module path
	Findings   []*result.Finding   `json:"findings,omitempty"`
	Handlers   []PendingHandler    `json:"handlers,omitempty"`
	Directives []*result.Directive `json:"directives,omitempty"`
}

// PendingHandler is a handler before it is joined: its unresolved interface calls, and the
// lines of its declaration (0 when not found), to attach the directives inside it.
type PendingHandler struct {
	Handler    *result.FoundHandler `json:"handler"`
	Unresolved []link.Call          `json:"unresolved,omitempty"`
	Unfollowed []string             `json:"unfollowed,omitempty"`
	Start      int                  `json:"start,omitempty"`
	End        int                  `json:"end,omitempty"`
}

// Convert turns a package's diagnostics and analyzer.Result into result values, with
// positions relative to root (see position); disabled are the kinds not reported, whose
// effects are marked so.
func Convert(pkg *packages.Package, diags []analysis.Diagnostic, res *analyzer.Result, root string, disabled []string) *Output {
	fset := pkg.Fset
	out := &Output{}
	if pkg.Module != nil {
		out.Module = pkg.Module.Path
	}
	var afs []*analyzer.Finding
	if res != nil {
		afs = res.Findings
	}
	used := make([]bool, len(afs))
	for _, d := range diags {
		f := &result.Finding{
			Category: d.Category,
			Message:  d.Message,
			URL:      d.URL,
			Pos:      position(fset, d.Pos, root),
			Package:  pkg.PkgPath,
		}
		f.End = f.Pos
		if d.End.IsValid() {
			f.End = position(fset, d.End, root)
		}
		for _, r := range d.Related {
			f.Related = append(f.Related, result.Related{Pos: position(fset, r.Pos, root), Message: r.Message})
		}
		// The analyzer reports each effect finding once and records it in Result.Findings
		// with the diagnostic's position and message (which names the handler, telling two
		// handlers reaching an effect through the same call apart). A contradicted
		// declaration is reported in the decisions category: it is not an effect finding.
		for i, af := range afs {
			if used[i] || af.Pos != d.Pos || af.Message != d.Message || string(af.Effect.Kind) != d.Category {
				continue
			}
			used[i] = true
			f.Handler = af.Handler.Name
			f.HandlerPos = position(fset, af.Handler.Pos, root)
			f.Framework = af.Handler.Framework
			f.State = af.Effect.State.String()
			f.Detail = af.Effect.Detail
			f.Missing = slices.Clone(af.Missing)
			f.Chain = hops(af.Effect.Chain)
			for _, r := range af.Handler.Elsewhere {
				f.Related = append(f.Related, result.Related{Pos: atPosition(r.At, root), Message: "registered here (" + r.Framework + ")"})
			}
			break
		}
		out.Findings = append(out.Findings, f)
	}
	if res == nil {
		return out
	}
	for _, h := range res.Handlers {
		rh := &result.FoundHandler{
			Name:       h.Name,
			Package:    pkg.PkgPath,
			Framework:  h.Framework,
			Pos:        position(fset, h.Pos, root),
			Wrapped:    h.Wrapped,
			AtMostOnce: h.AtMostOnce,
		}
		for _, e := range h.Effects {
			re := result.Effect{
				Kind:     string(e.Kind),
				State:    e.State.String(),
				Detail:   e.Detail,
				Chain:    hops(e.Chain),
				Disabled: slices.Contains(disabled, string(e.Kind)),
			}
			for _, af := range res.Findings {
				// A finding that stands for other handlers too (one root cause) reports
				// their effect of its kind as well.
				if (af.Handler == h || slices.Contains(af.Also, h)) && af.Effect.Kind == e.Kind {
					re.Reported = true
					re.Missing = slices.Clone(af.Missing)
				}
			}
			rh.Effects = append(rh.Effects, re)
		}
		oh := PendingHandler{Handler: rh, Unresolved: unresolvedCalls(fset, h.Unresolved), Unfollowed: h.Unfollowed}
		if start, end, ok := declExtent(pkg, h.Pos); ok {
			oh.Start, oh.End = fset.Position(start).Line, fset.Position(end).Line
		}
		out.Handlers = append(out.Handlers, oh)
	}
	for _, d := range res.Directives {
		rd := &result.Directive{
			Package: pkg.PkgPath,
			Pos:     position(fset, d.Pos, root),
			Verb:    string(d.Verb),
			Kinds:   slices.Clone(d.Kinds),
			Reason:  d.Reason,
			Err:     d.Err,
			Used:    d.Used,
		}
		if dd := d.Decisions; dd != nil {
			var parts []string
			for _, kv := range [][2]string{{"key", dd.Key}, {"enforce", dd.Enforce}, {"ttl", ttl(dd)}, {"partial", dd.Partial}} {
				if kv[1] != "" {
					parts = append(parts, kv[0]+"="+kv[1])
				}
			}
			rd.Declares = strings.Join(parts, " ")
		}
		out.Directives = append(out.Directives, rd)
	}
	return out
}

// hops converts an effect's hops; their files are resolved when the run is joined.
func hops(in []effect.Hop) []result.Hop {
	var out []result.Hop
	for _, h := range in {
		out = append(out, result.Hop{Func: h.Func, At: h.Pos})
	}
	return out
}

// declExtent finds the declaration (or literal) of a handler whose name is at pos.
func declExtent(pkg *packages.Package, pos token.Pos) (start, end token.Pos, ok bool) {
	for _, f := range pkg.Syntax {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ok || n == nil || pos < n.Pos() || pos > n.End() {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Name.Pos() == pos {
					start, end, ok = n.Pos(), n.End(), true
					if n.Doc != nil {
						start = n.Doc.Pos()
					}
				}
			case *ast.FuncLit:
				if n.Pos() == pos {
					start, end, ok = n.Pos(), n.End(), true
				}
			}
			return !ok
		})
	}
	return start, end, ok
}

func ttl(d *directive.Decisions) string {
	if d.TTLWord != "" {
		return d.TTLWord
	}
	if d.TTL > 0 {
		return d.TTL.String()
	}
	return ""
}

// position converts a token position, making File relative to root when it is inside.
func position(fset *token.FileSet, pos token.Pos, root string) result.Position {
	if !pos.IsValid() {
		return result.Position{}
	}
	p := fset.Position(pos)
	return result.Position{Path: p.Filename, File: relative(p.Filename, root), Line: p.Line, Column: p.Column}
}

// atPosition parses a position written as "file:line:col" (token.Position's String, as a
// registration elsewhere in the program is carried: callgraph.Registration.At).
func atPosition(at, root string) result.Position {
	rest, col, ok := splitShortPos(at)
	if !ok {
		return result.Position{Path: at, File: relative(at, root)}
	}
	file, line, ok := splitShortPos(rest)
	if !ok {
		file, line, col = rest, col, 0
	}
	return result.Position{Path: file, File: relative(file, root), Line: line, Column: col}
}

// relative is file relative to root, with forward slashes, when it is inside root (paths
// in machine-readable output are relative to the repository); else file itself.
func relative(file, root string) string {
	if file == "" {
		return ""
	}
	if root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != ".." {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}
