package defuse_test

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/testpkg"
)

const valueSrc = `package p

type cmd struct{}

func (cmd) Val() bool { return true }

func claim() cmd         { return cmd{} }
func wrap(b bool) bool   { return b }

type store struct{ stmt string }

var s store

func setup() { s.stmt = "INSERT" }

func direct() bool {
	ok := claim().Val()
	return ok
}

func wrapped() bool {
	ok := wrap(claim().Val())
	return ok
}

func field() string { return s.stmt }

func twice() bool {
	ok := claim().Val()
	ok = false
	return ok
}
`

// Value follows one value: the claim a variable holds through its definition and the
// command whose Val() it reads, not a claim somewhere inside another call; Fields follows a
// field assigned once; At replaces the index's definitions.
func TestFindValue(t *testing.T) {
	p := testpkg.Check(t, "p", valueSrc)
	ix := defuse.Build(p.Pkg, p.Info, []*ast.File{p.File})
	isClaim := func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := c.Fun.(*ast.Ident)
		return ok && id.Name == "claim"
	}
	val := defuse.Through(func(e ast.Expr) []ast.Expr {
		if c, ok := e.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Val" {
				return []ast.Expr{sel.X}
			}
		}
		return nil
	})
	for _, tc := range []struct {
		fn   string
		want bool
	}{
		{"direct", true},
		{"wrapped", false}, // a claim inside another call's argument is not this value
		{"twice", false},   // assigned twice: no one value
	} {
		if got := ix.Find(returned(p.Func(t, tc.fn)), defuse.Value, isClaim, val); got != tc.want {
			t.Errorf("%s: Find(Value) = %v, want %v", tc.fn, got, tc.want)
		}
	}
	// Without Value, every node of the definition is looked at.
	if !ix.Find(returned(p.Func(t, "wrapped")), 0, isClaim) {
		t.Errorf("Find without Value missed the claim inside wrapped's argument")
	}
	// At: the definition in view, here none.
	if ix.Find(returned(p.Func(t, "direct")), defuse.Value, isClaim, val, defuse.At(func(*types.Var) ast.Expr { return nil })) {
		t.Errorf("Find(Value, At none) followed the index's definition")
	}
	isText := func(n ast.Node) bool {
		l, ok := n.(*ast.BasicLit)
		return ok && l.Value == `"INSERT"`
	}
	if ix.Find(returned(p.Func(t, "field")), defuse.Value, isText) {
		t.Errorf("Find(Value) followed a field without Fields")
	}
	if !ix.Find(returned(p.Func(t, "field")), defuse.Value|defuse.Fields, isText) {
		t.Errorf("Find(Value|Fields) did not follow the field assigned once")
	}
}
