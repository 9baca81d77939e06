// Branches a constant answer closes. A function of the package every return of which is
// the same constant bool (func isPermanent(src *Source, err error) bool { return false },
// a predicate left to be written) answers every call the same way: the body of `if
// isPermanent(src, err) { ... }` never runs, nor does what follows `if !isPermanent(src,
// err) { return }`. The calls there bring no effects. A function declared in a file with a
// build constraint may have another body under other tags, and is not read.

package callgraph

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
)

// markDead marks the sites of n that a constant answer never lets run (Site.dead).
func (b *builder) markDead(n *Node) {
	if n.Body == nil || len(n.Sites) == 0 {
		return
	}
	var dead [][2]token.Pos
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // a node of its own
		case *ast.BlockStmt:
			for i, st := range x.List {
				ifs, ok := st.(*ast.IfStmt)
				if !ok {
					continue
				}
				answer, known := b.constantAnswer(ifs.Cond)
				switch {
				case !known:
				case !answer:
					dead = append(dead, [2]token.Pos{ifs.Body.Pos(), ifs.Body.End()})
				case ifs.Else != nil:
					dead = append(dead, [2]token.Pos{ifs.Else.Pos(), ifs.Else.End()})
				case len(ifs.Body.List) > 0 && defuse.EndsBlock(ifs.Body.List[len(ifs.Body.List)-1]) && i+1 < len(x.List):
					// if !isPermanent(...) { return }: nothing after it in the block runs.
					dead = append(dead, [2]token.Pos{x.List[i+1].Pos(), x.Rbrace})
				}
			}
		}
		return true
	})
	for i := range n.Sites {
		for _, d := range dead {
			if p := n.Sites[i].Pos; p >= d[0] && p < d[1] {
				n.Sites[i].dead = true
			}
		}
	}
}

// constantAnswer returns the value cond always has, when it is a call of a function of the
// package that returns the same constant bool on every return, or its negation.
func (b *builder) constantAnswer(cond ast.Expr) (value, known bool) {
	cond = ast.Unparen(cond)
	if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		v, known := b.constantAnswer(u.X)
		return !v, known
	}
	call, ok := cond.(*ast.CallExpr)
	if !ok {
		return false, false
	}
	fn, ok := typeutil.Callee(b.in.Info, call).(*types.Func)
	if !ok || fn.Pkg() != b.in.Pkg || fn.Signature().Results().Len() != 1 {
		return false, false
	}
	decl := b.in.Judge.Defs.Decl(fn)
	if decl == nil || b.constrained(decl.Pos()) {
		return false, false
	}
	results, same := defuse.Returned(decl.Body)
	var answer constant.Value
	for _, r := range results {
		v := b.in.Info.Types[r].Value
		if v == nil || v.Kind() != constant.Bool || answer != nil && constant.BoolVal(v) != constant.BoolVal(answer) {
			same = false
			break
		}
		answer = v
	}
	if !same || answer == nil {
		return false, false
	}
	return constant.BoolVal(answer), true
}

// constrained reports whether the file holding pos has a build constraint.
func (b *builder) constrained(pos token.Pos) bool {
	for _, f := range b.in.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			for _, cg := range f.Comments {
				if cg.Pos() > f.Package {
					break
				}
				for _, c := range cg.List {
					if strings.HasPrefix(c.Text, "//go:build") || strings.HasPrefix(c.Text, "// +build") {
						return true
					}
				}
			}
			return buildSuffix(b.in.Fset.Position(f.FileStart).Filename)
		}
	}
	return false
}

// buildSuffix reports whether a Go file's name ends in an operating system or architecture
// (x_linux.go, x_arm64.go), which constrains it as a build tag does.
func buildSuffix(filename string) bool {
	name := strings.TrimSuffix(filename[strings.LastIndexAny(filename, `/\`)+1:], ".go")
	parts := strings.Split(name, "_")
	for _, p := range parts[1:] {
		if knownOS[p] || knownArch[p] {
			return true
		}
	}
	return false
}

var (
	knownOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
		"illumos": true, "ios": true, "js": true, "linux": true, "netbsd": true, "openbsd": true, "plan9": true,
		"solaris": true, "wasip1": true, "windows": true, "unix": true}
	knownArch = map[string]bool{"386": true, "amd64": true, "arm": true, "arm64": true, "loong64": true,
		"mips": true, "mipsle": true, "mips64": true, "mips64le": true, "ppc64": true, "ppc64le": true,
		"riscv64": true, "s390x": true, "wasm": true}
)
