package sinks_test

import (
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks"
	"github.com/chokaq/idemlint/internal/testpkg"
)

// The key judgement, with no pass: a package whose Charge is a keyed sink and whose
// functions call it with keys of every kind. Each function's first call of Charge is
// judged in the function's own scope.
const src = `package p

import "time"

func Charge(key string) error { return nil }

var region = "eu"

func Stable(orderID string)   { Charge("charge:" + orderID) }
func Clock(orderID string)    { Charge(orderID + time.Now().String()) }
func Constant(orderID string) { Charge("charge") }
func Config(orderID string)   { k := "charge:" + region; Charge(k) }
func Local(orderID string)    { k := orderID; Charge(k) }
func Empty(orderID string)    { Charge("") }
`

const models = `library: p
sinks:
  - func: "p.Charge"
    kind: payment
    shape: key.arg
    arg: 0
unstable:
  - "time.Now"
`

func TestJudgeKeys(t *testing.T) {
	p := testpkg.Check(t, "p", src)
	f, info, fset := p.File, p.Info, p.Fset
	lib, err := model.Parse("models.yml", []byte(models))
	if err != nil {
		t.Fatal(err)
	}
	j := &sinks.Judge{Defs: defuse.Build(p.Pkg, info, []*ast.File{f}), Models: model.NewEntries(model.Compile([]model.Library{lib})), Fset: fset}

	want := map[string]struct {
		state  effect.State
		detail string
	}{
		"Stable":   {effect.Protected, "payment with an idempotency key"},
		"Clock":    {effect.UnstableKey, "payment with a key that changes on every retry (made from time.Now)"},
		"Constant": {effect.UnstableKey, "payment with a constant key: every job shares it, so the second job is taken for a duplicate"},
		"Config":   {effect.UnstableKey, "payment with a key made from nothing the job carries (no parameter of Config reaches it)"},
		"Local":    {effect.Protected, "payment with an idempotency key"},
		"Empty":    {effect.Unprotected, "payment without an idempotency key"},
	}
	seen := 0
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Name.Name == "Charge" {
			continue
		}
		fn := info.Defs[fd.Name].(*types.Func)
		sc := sinks.Scope{Name: fd.Name.Name, Func: fn, Params: map[*types.Var]bool{}}
		for i := 0; i < fn.Signature().Params().Len(); i++ {
			sc.Params[fn.Signature().Params().At(i)] = true
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			callee, _ := typeutil.Callee(info, call).(*types.Func)
			if callee == nil || callee.Name() != "Charge" {
				return true
			}
			seen++
			e := j.Eval(call, j.Models.Of(callee).Sink, callee, sc)
			w := want[fd.Name.Name]
			if e == nil || e.State != w.state || e.Detail != w.detail {
				t.Errorf("%s: got %+v, want state %v, detail %q", fd.Name.Name, e, w.state, w.detail)
			}
			if fd.Name.Name == "Stable" && e != nil && e.KeyParams != 1 {
				t.Errorf("Stable: key made from parameter 0, got KeyParams %b", e.KeyParams)
			}
			return false
		})
	}
	if seen != len(want) {
		t.Errorf("judged %d calls, want %d", seen, len(want))
	}
}
