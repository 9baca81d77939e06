package defuse_test

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/testpkg"
)

const src = `package p

func mark(x string) string { return x }
func fill(p *string)        {}

type opts struct{}

func (*opts) Add(string) {}

func chain() string {
	a := mark("x")
	b := a
	c := b
	d := c
	e := d
	f := e
	return f
}

func loop() string {
	a := "x"
	b := a
	a = b
	return a
}

func filled() string {
	var s string
	fill(&s)
	return s
}

func fillAll(p *[]string) {}

func ranged() string {
	var rows []string
	fillAll(&rows)
	last := ""
	for _, r := range rows {
		last = r
	}
	return last
}

func called() *opts {
	o := &opts{}
	o.Add("k")
	return o
}
`

// returned is the expression of the function's return statement.
func returned(fd *ast.FuncDecl) ast.Expr {
	r := fd.Body.List[len(fd.Body.List)-1].(*ast.ReturnStmt)
	return r.Results[0]
}

func TestFind(t *testing.T) {
	p := testpkg.Check(t, "p", src)
	ix := defuse.Build(p.Pkg, p.Info, []*ast.File{p.File})
	callOf := func(name string) func(ast.Node) bool {
		return func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return false
			}
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
				return id.Name == name
			}
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
				return sel.Sel.Name == name
			}
			return false
		}
	}
	for _, tc := range []struct {
		fn, call string
		follow   defuse.Follow
		want     bool
	}{
		// f <- e <- d <- c <- b <- a <- mark(): six assignments, beyond MaxDepth.
		{"chain", "mark", 0, false},
		{"loop", "mark", 0, false}, // a cycle of assignments ends
		{"filled", "fill", 0, false},
		{"filled", "fill", defuse.Fills, true},
		{"ranged", "fillAll", defuse.Fills, false}, // r's value is rows' element, not followed
		{"ranged", "fillAll", defuse.Fills | defuse.Ranged, true},
		{"called", "Add", 0, false},
		{"called", "Add", defuse.Calls, true},
	} {
		got := ix.Find(returned(p.Func(t, tc.fn)), tc.follow, callOf(tc.call))
		if got != tc.want {
			t.Errorf("%s: Find(%s, follow %d) = %v, want %v", tc.fn, tc.call, tc.follow, got, tc.want)
		}
	}
	// Within the depth limit, a definition is followed.
	d := p.Func(t, "chain").Body.List[3].(*ast.AssignStmt).Rhs[0] // d := c: c <- b <- a <- mark()
	if !ix.Find(d, 0, callOf("mark")) {
		t.Errorf("chain: mark() three assignments away from c was not found")
	}
}

func TestConstString(t *testing.T) {
	p := testpkg.Check(t, "p", src)
	ix := defuse.Build(p.Pkg, p.Info, []*ast.File{p.File})
	// loop's a is assigned twice: no single definition, so no constant.
	if got := ix.ConstString(returned(p.Func(t, "loop"))); got != "" {
		t.Errorf("ConstString of a variable assigned twice = %q, want none", got)
	}
	c := p.Func(t, "chain").Body.List[0].(*ast.AssignStmt).Rhs[0].(*ast.CallExpr).Args[0]
	if got := ix.ConstString(c); got != "x" {
		t.Errorf("ConstString(\"x\") = %q", got)
	}
}

const chainSrc = `package p

type q struct{}

func (q) Where(string) q { return q{} }
func (q) Model(any) q    { return q{} }
func (q) Update() q      { return q{} }

var db q

func direct() q { return db.Model(nil).Where("a").Update() }

func viaVar() q {
	w := db.Model(nil).Where("a")
	return w.Where("b").Update()
}

func twice() q {
	w := db.Where("a")
	w = db.Where("b")
	return w.Update()
}
`

// ChainCalls walks a builder's receiver chain from the call under the last one, through a
// variable assigned once, and stops at a variable assigned twice.
func TestChainCalls(t *testing.T) {
	p := testpkg.Check(t, "p", chainSrc)
	ix := defuse.Build(p.Pkg, p.Info, []*ast.File{p.File})
	for fn, want := range map[string]string{"direct": "Where Model", "viaVar": "Where Where Model", "twice": ""} {
		update := returned(p.Func(t, fn)).(*ast.CallExpr)
		var got []string
		ix.ChainCalls(update.Fun.(*ast.SelectorExpr).X, func(_ *ast.CallExpr, name string) { got = append(got, name) })
		if strings.Join(got, " ") != want {
			t.Errorf("%s: ChainCalls = %q, want %q", fn, got, want)
		}
	}
}

// TestReturned checks the results of every return of a body, those of its literals left
// out, and a bare return that stops the reading.
func TestReturned(t *testing.T) {
	p := testpkg.Check(t, "p", `package p

func pick(a bool) int {
	f := func() int { return 3 }
	if a {
		return 1
	}
	_ = f
	return 2
}

func named() (n int) {
	n = 1
	return
}
`)
	for _, d := range p.File.Decls {
		fd := d.(*ast.FuncDecl)
		results, ok := defuse.Returned(fd.Body)
		var got []string
		for _, r := range results {
			got = append(got, types.ExprString(r))
		}
		want, wantOK := map[string]string{"pick": "1 2", "named": ""}[fd.Name.Name], fd.Name.Name == "pick"
		if strings.Join(got, " ") != want || ok != wantOK {
			t.Errorf("Returned(%s) = %q, %v; want %q, %v", fd.Name.Name, got, ok, want, wantOK)
		}
	}
}
