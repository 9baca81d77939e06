package pkgout

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/link"
)

// Implementations answers, for the inventory, whether anything in the program can be
// behind an interface: the types it converts to interfaces (and pointers to them), with or
// without effects. An interface call a handler makes that its package resolved to nothing
// and that no such type implements is a hole in what the handler is known to do (an
// implementation made by reflection, a plugin, code outside the module): the inventory
// marks the handler partial. A call some type implements was followed, or leads to no
// effect.
type Implementations struct{ *link.Implementations }

// NewImplementations collects the converted types of the summaries of every package the
// last round analysed; nil when the analysis made no program summaries.
func NewImplementations(sums []link.Package) *Implementations {
	if len(sums) == 0 {
		return nil
	}
	return &Implementations{link.NewImplementations(sums)}
}

// unresolvedCalls writes a handler's unresolved interface calls without go/types, for partial.
func unresolvedCalls(fset *token.FileSet, calls []callgraph.OpenCall) []link.Call {
	var out []link.Call
	for _, o := range calls {
		out = append(out, link.CallOf(fset, o, methodName(o.Method)))
	}
	return out
}

// partial says which interfaces of the handler's own module it calls with nothing in the
// program behind them, or "" (none, or no program to judge by).
func (im *Implementations) partial(module string, calls []link.Call) string {
	if im == nil || module == "" {
		return ""
	}
	var names []string
	for _, o := range calls {
		if o.Pkg == "" || !inModulePath(o.Pkg, module) || im.Any(o.Recv) {
			continue
		}
		if !slices.Contains(names, o.Name) {
			names = append(names, o.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "calls " + strings.Join(names, ", ") + " with no implementation in the program: what runs there is not known"
}

// unfollowed says which function values the handler calls with nothing in view behind
// them, or "" (none).
func unfollowed(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return "calls " + strings.Join(values, ", ") + ", a function value nothing in view fills: its effects are not followed"
}

// joinPartial joins the reasons a handler is partial.
func joinPartial(reasons ...string) string {
	var out []string
	for _, r := range reasons {
		if r != "" {
			out = append(out, r)
		}
	}
	return strings.Join(out, "; ")
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
