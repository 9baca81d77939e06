package driver

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/callgraph"
)

// implementations answers, for the inventory, whether anything in the program can be
// behind an interface: the types it converts to interfaces (and pointers to them), with or
// without effects. An interface call a handler makes that its package resolved to nothing
// and that no such type implements is a hole in what the handler is known to do (an
// implementation made by reflection, a plugin, code outside the module): the inventory
// marks the handler partial. A call some type implements was followed, or leads to no
// effect.
type implementations struct {
	converted []types.Type
	memo      map[*types.Interface]bool
}

// newImplementations collects the converted types of every package the last round
// analysed; nil when the analysis made no program summaries.
func newImplementations(graph *checker.Graph) *implementations {
	im := &implementations{memo: map[*types.Interface]bool{}}
	seen := map[*types.Named]bool{}
	summaries := false
	for act := range graph.All() {
		res, _ := act.Result.(*analyzer.Result)
		if act.Err != nil || res == nil || res.Program == nil {
			continue
		}
		summaries = true
		for _, t := range res.Program.Converted {
			if !seen[t] {
				seen[t] = true
				im.converted = append(im.converted, t, types.NewPointer(t))
			}
		}
	}
	if !summaries {
		return nil
	}
	return im
}

// any reports whether a type the program converts implements iface.
func (im *implementations) any(iface *types.Interface) bool {
	if v, ok := im.memo[iface]; ok {
		return v
	}
	v := slices.ContainsFunc(im.converted, func(t types.Type) bool { return types.Implements(t, iface) })
	im.memo[iface] = v
	return v
}

// partial says which interfaces of the handler's own module it calls with nothing in the
// program behind them, or "" (none, or no program to judge by).
func (im *implementations) partial(pkg *packages.Package, calls []callgraph.OpenCall) string {
	if im == nil || pkg.Module == nil || pkg.Module.Path == "" {
		return ""
	}
	var names []string
	for _, o := range calls {
		mp := o.Method.Pkg()
		if mp == nil || !inModulePath(mp.Path(), pkg.Module.Path) || im.any(o.Recv) {
			continue
		}
		name := methodName(o.Method)
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "calls " + strings.Join(names, ", ") + " with no implementation in the program: what runs there is not known"
}

// methodName is "(pkg.Iface).Method" for an interface method.
func methodName(m *types.Func) string {
	recv := m.Signature().Recv()
	if recv == nil {
		return m.Name()
	}
	t := types.TypeString(recv.Type(), func(p *types.Package) string { return p.Name() })
	return "(" + t + ")." + m.Name()
}

func inModulePath(path, module string) bool {
	return path == module || strings.HasPrefix(path, module+"/")
}
