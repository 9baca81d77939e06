package effect

import (
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
)

// FuncName renders fn as a hop's name, "pkg.F" or "(*pkg.T).M"; with from set, names in from
// are not qualified (messages about the package being analysed).
func FuncName(fn *types.Func, from *types.Package) string {
	qual := func(p *types.Package) string {
		if p == from {
			return ""
		}
		return p.Name()
	}
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		ptr := ""
		if p, ok := t.(*types.Pointer); ok {
			ptr, t = "*", p.Elem()
		}
		name := types.TypeString(t, qual)
		if named, ok := t.(*types.Named); ok {
			// Drop type arguments: (*Worker[T]).Work reads better as (*Worker).Work.
			name = types.TypeString(named.Origin(), qual)
			if i := strings.IndexByte(name, '['); i >= 0 {
				name = name[:i]
			}
		}
		return "(" + ptr + name + ")." + fn.Name()
	}
	if q := qual(fn.Pkg()); q != "" {
		return q + "." + fn.Name()
	}
	return fn.Name()
}

// ShortPos renders pos as a hop's position, "file.go:line": facts must not carry token.Pos.
func ShortPos(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}
