package pkgout

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/result"
)

// Joiner joins the outputs of a run's packages into its result.Run. A file that belongs
// to a package and to its test variant is analysed twice; the joiner keeps one copy of each
// finding, handler and directive, keyed by position.
type Joiner struct {
	run  *result.Run
	root string

	// files maps a package name and a file's base name to the files it can denote, to
	// resolve the "file.go:line" of a chain's hops (facts carry no full paths).
	files map[string]map[string][]string

	// impls judges the interface calls handlers left unresolved (nil: no program summaries).
	impls *Implementations

	findings   map[string]bool
	handlers   map[string]bool
	directives map[string]*result.Directive
	extents    []extent // handler declarations, to attach the directives inside them
}

// extent is the source range of a handler's declaration, doc comment included.
type extent struct {
	path       string
	start, end int // lines
	h          *result.FoundHandler
}

// NewJoiner returns a joiner that adds to run: root is what positions are relative to, all
// every package of the program (the files a chain's hops may name), and impls what
// judges the handlers partial (nil: no program summaries).
func NewJoiner(run *result.Run, root string, all []*packages.Package, impls *Implementations) *Joiner {
	c := &Joiner{run: run, root: root, impls: impls}
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
	return c
}

// Action converts a root action's diagnostics and result (Convert) and adds them.
func (c *Joiner) Action(pkg *packages.Package, diags []analysis.Diagnostic, res *analyzer.Result) {
	c.Add(pkg.Name, Convert(pkg, diags, res, c.root, c.run.Disabled))
}

// Add joins a package's output to the run: each finding, handler and directive once (a
// file of a package and of its test variant is analysed twice), the chains' hops resolved
// to the program's files, the handlers judged partial against the program's types.
func (c *Joiner) Add(pkgName string, out *Output) {
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
		rh.Partial = joinPartial(c.impls.partial(out.Module, oh.Unresolved), unfollowed(oh.Unfollowed))
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

// resolve sets the file of each of a chain's hops ("file.go:line") when exactly one loaded
// file can be meant. The call to hop i is in the function of hop i-1 (the handler, for the
// first hop), so the package to look in is that function's.
func (c *Joiner) resolve(handlerPkg string, hops []result.Hop) {
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

// Finish attaches directives to the handlers whose declarations contain them and sorts.
func (c *Joiner) Finish() {
	c.run.Sort()
	for _, d := range c.run.Directives {
		for _, e := range c.extents {
			if d.Pos.Path == e.path && e.start <= d.Pos.Line && d.Pos.Line <= e.end {
				e.h.Directives = append(e.h.Directives, d)
			}
		}
	}
}
