package driver

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/result"
)

// converter turns each root action's diagnostics and analyzer.Result into result values.
// A file that belongs to a package and to its test variant is analysed twice; the converter
// keeps one copy of each finding, handler and directive, keyed by position.
type converter struct {
	run  *result.Run
	root string

	// files maps a package name and a file's base name to the files it can denote, to
	// resolve the "file.go:line" of a chain's hops (facts carry no full paths).
	files map[string]map[string][]string

	// impls judges the interface calls handlers left unresolved (nil: no program summaries).
	impls *implementations

	findings   map[string]bool
	handlers   map[string]bool
	directives map[string]*result.Directive
	extents    []extent // handler declarations, to attach the directives inside them
}

// extent is the source range of a handler's declaration, doc comment included.
type extent struct {
	path       string
	start, end int // lines
	h          *result.Handler
}

func (c *converter) index(all []*packages.Package) {
	c.files = map[string]map[string][]string{}
	c.findings = map[string]bool{}
	c.handlers = map[string]bool{}
	c.directives = map[string]*result.Directive{}
	for _, p := range all {
		byBase := c.files[p.Name]
		if byBase == nil {
			byBase = map[string][]string{}
			c.files[p.Name] = byBase
		}
		for _, f := range p.CompiledGoFiles {
			base := filepath.Base(f)
			if !slices.Contains(byBase[base], f) {
				byBase[base] = append(byBase[base], f)
			}
		}
	}
}

// pkgOutput is what one package's analysis adds to the run, before the findings, handlers
// and directives of every package are joined: positions resolved, chains' hops not yet
// resolved to files (that takes the whole program's files) and handlers not yet judged
// partial (that takes the whole program's types). The cache stores it (reuse.go).
type pkgOutput struct {
	Module     string              `json:"module,omitempty"` // the package's module path
	Findings   []*result.Finding   `json:"findings,omitempty"`
	Handlers   []outHandler        `json:"handlers,omitempty"`
	Directives []*result.Directive `json:"directives,omitempty"`
}

// outHandler is a handler before it is joined: its unresolved interface calls, and the
// lines of its declaration (0 when not found), to attach the directives inside it.
type outHandler struct {
	Handler    *result.Handler `json:"handler"`
	Unresolved []link.Call     `json:"unresolved,omitempty"`
	Start      int             `json:"start,omitempty"`
	End        int             `json:"end,omitempty"`
}

// convertPackage turns a package's diagnostics and analyzer.Result into result values.
func convertPackage(pkg *packages.Package, diags []analysis.Diagnostic, res *analyzer.Result, root string, disabled []string) *pkgOutput {
	fset := pkg.Fset
	out := &pkgOutput{}
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
			break
		}
		out.Findings = append(out.Findings, f)
	}
	if res == nil {
		return out
	}
	for _, h := range res.Handlers {
		rh := &result.Handler{
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
				if af.Handler == h && af.Effect.Kind == e.Kind {
					re.Reported = true
					re.Missing = slices.Clone(af.Missing)
				}
			}
			rh.Effects = append(rh.Effects, re)
		}
		oh := outHandler{Handler: rh, Unresolved: unresolvedCalls(fset, h.Unresolved)}
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

func (c *converter) action(pkg *packages.Package, diags []analysis.Diagnostic, res *analyzer.Result) {
	c.add(pkg.Name, convertPackage(pkg, diags, res, c.root, c.run.Disabled))
}

// add joins a package's output to the run: each finding, handler and directive once (a
// file of a package and of its test variant is analysed twice), the chains' hops resolved
// to the program's files, the handlers judged partial against the program's types.
func (c *converter) add(pkgName string, out *pkgOutput) {
	for _, f := range out.Findings {
		c.resolve(pkgName, f.Chain)
		f.Fingerprint = f.ComputeFingerprint()
		key := fmt.Sprintf("%s\x00%d\x00%d\x00%s", f.Pos.Path, f.Pos.Line, f.Pos.Column, f.Message)
		if !c.findings[key] {
			c.findings[key] = true
			c.run.Findings = append(c.run.Findings, f)
		}
	}
	for _, oh := range out.Handlers {
		rh := oh.Handler
		key := rh.Pos.String() + "\x00" + rh.Name
		if c.handlers[key] {
			continue
		}
		c.handlers[key] = true
		rh.Partial = c.impls.partial(out.Module, oh.Unresolved)
		for i := range rh.Effects {
			c.resolve(pkgName, rh.Effects[i].Chain)
		}
		c.run.Handlers = append(c.run.Handlers, rh)
		if oh.Start > 0 {
			c.extents = append(c.extents, extent{path: rh.Pos.Path, start: oh.Start, end: oh.End, h: rh})
		}
	}
	for _, rd := range out.Directives {
		key := rd.Pos.String()
		if old, ok := c.directives[key]; ok {
			old.Used = old.Used || rd.Used // used in the package or in its test variant
			continue
		}
		c.directives[key] = rd
		c.run.Directives = append(c.run.Directives, rd)
	}
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

// resolve sets the file of each of a chain's hops ("file.go:line") when exactly one loaded
// file can be meant. The call to hop i is in the function of hop i-1 (the handler, for the
// first hop), so the package to look in is that function's.
func (c *converter) resolve(handlerPkg string, hops []result.Hop) {
	in := handlerPkg
	for i := range hops {
		if i > 0 {
			if q := qualifier(hops[i-1].Func); q != "" {
				in = q
			}
		}
		hops[i].Pos = nil
		if base, line, ok := splitShortPos(hops[i].At); ok {
			if files := c.files[in][base]; len(files) == 1 {
				p := result.Position{Path: files[0], File: relative(files[0], c.root), Line: line}
				hops[i].Pos = &p
			}
		}
	}
}

// qualifier returns the package name in a hop's function name: "store" for
// "(*store.Store).Add" and "billing.Charge"; "" for names without one ("func literal in F").
func qualifier(fn string) string {
	s := strings.TrimLeft(fn, "(*")
	i := strings.IndexByte(s, '.')
	if i <= 0 || strings.ContainsAny(s[:i], " ()[]") {
		return ""
	}
	return s[:i]
}

func splitShortPos(s string) (base string, line int, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0, false
	}
	line, err := strconv.Atoi(s[i+1:])
	return s[:i], line, err == nil && line > 0
}

// finish attaches directives to the handlers whose declarations contain them and sorts.
func (c *converter) finish() {
	c.run.Sort()
	for _, d := range c.run.Directives {
		for _, e := range c.extents {
			if d.Pos.Path == e.path && e.start <= d.Pos.Line && d.Pos.Line <= e.end {
				e.h.Directives = append(e.h.Directives, d)
			}
		}
	}
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
