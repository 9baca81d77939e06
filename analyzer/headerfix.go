package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/chokaq/idemlint/internal/effect"
)

// headerFix proposes, for an HTTP POST or PATCH sent without an Idempotency-Key header in
// this package, the line that sets one, when a stable key is already in scope at the call:
// a string variable or parameter named like an ID or a key (orderID, eventID, key). Only
// then is the fix mechanical; choosing a key is a business decision the tool does not make.
func (a *analysis_) headerFix(h *node, e effect.Effect) *analysis.SuggestedFix {
	if e.Kind != effect.HTTPWrite || e.State != effect.Unprotected || !strings.HasPrefix(e.Detail, "HTTP ") {
		return nil
	}
	// Walk the in-package chain to the function that makes the call.
	o := h.from[e.Kind]
	for depth := 0; o.via != nil && depth < effect.MaxChain; depth++ {
		o = o.via.from[e.Kind]
	}
	file := a.fileAt(o.pos)
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, o.pos, o.pos)
	var call *ast.CallExpr
	var stmt ast.Stmt
	for i, p := range path {
		if c, ok := p.(*ast.CallExpr); ok && call == nil && c.Pos() == o.pos {
			call = c
		}
		if _, ok := p.(*ast.BlockStmt); ok && i > 0 && call != nil {
			stmt, _ = path[i-1].(ast.Stmt)
			break
		}
	}
	if call == nil || stmt == nil || len(call.Args) == 0 {
		return nil
	}
	req, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	key := a.keyInScope(stmt.Pos(), req.Name)
	if key == "" {
		return nil
	}
	col := a.pass.Fset.Position(stmt.Pos()).Column
	text := req.Name + `.Header.Set("Idempotency-Key", ` + key + ")\n" + strings.Repeat("\t", col-1)
	return &analysis.SuggestedFix{
		Message:   "Set an Idempotency-Key header from " + key,
		TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(text)}},
	}
}

// keyInScope returns the innermost string variable in scope at pos, declared before it,
// whose name ends in "id" or "key" and whose value is not random or from the clock.
func (a *analysis_) keyInScope(pos token.Pos, exclude string) string {
	inner := a.pass.Pkg.Scope().Innermost(pos)
	for s := inner; s != nil && s != a.pass.Pkg.Scope(); s = s.Parent() {
		best := ""
		bestPos := token.NoPos
		for _, name := range s.Names() {
			v, ok := s.Lookup(name).(*types.Var)
			if !ok || name == exclude || v.Pos() >= pos || !isString(v.Type()) {
				continue
			}
			lower := strings.ToLower(name)
			if !strings.HasSuffix(lower, "id") && !strings.HasSuffix(lower, "key") {
				continue
			}
			if a.varUnstable(v) {
				continue
			}
			if v.Pos() > bestPos {
				best, bestPos = name, v.Pos()
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// varUnstable reports whether a variable is assigned from a random or clock source.
func (a *analysis_) varUnstable(v *types.Var) bool {
	for _, d := range a.defs[v] {
		if d != nil && a.unstableSource(d, 0) != "" {
			return true
		}
	}
	return false
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// fileAt returns the package file containing pos.
func (a *analysis_) fileAt(pos token.Pos) *ast.File {
	for _, f := range a.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}
