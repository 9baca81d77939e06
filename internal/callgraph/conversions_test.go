package callgraph_test

import (
	"go/ast"
	"slices"
	"testing"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/testpkg"
)

const conversionsSrc = `package p

type Store interface{ Save() error }

type pg struct{}

func (*pg) Save() error { return nil }

type mem struct{}

func (mem) Save() error { return nil }

type viaAssign struct{}

func (viaAssign) Save() error { return nil }

type never struct{}

func (never) Save() error { return nil }

func newPG() (*pg, error)            { return &pg{}, nil }
func newMem() (mem, error)           { return mem{}, nil }
func newAssigned() (viaAssign, bool) { return viaAssign{}, true }
func newNever() (*never, error)      { return &never{}, nil }

// Open returns a constructor's results as its own: the *pg is converted to Store.
func Open() (Store, error) { return newPG() }

// Default declares interface-typed variables from a constructor's results.
func Default() Store {
	var s, _ = newMem()
	var t Store
	var ok bool
	t, ok = newAssigned()
	_ = ok
	var u Store
	u, _ = s, ok
	_ = u
	return t
}

// Concrete keeps its *never concrete: nothing converts it.
func Concrete() (*never, error) { return newNever() }

// asserted is only checked to implement Store at compile time: the blank variable keeps no
// value, so no *asserted is ever behind a Store.
type asserted struct{}

func (*asserted) Save() error { return nil }

var _ Store = (*asserted)(nil)
var _, _ Store = (*asserted)(nil), &asserted{}
`

// Values of a call that returns several count when they land in interface-typed results or
// variables (return newPG(); t, ok = newAssigned()): rapid type analysis must see the
// implementations constructors return, or the program-wide link misses them.
func TestConversionsOfTuples(t *testing.T) {
	p := testpkg.Check(t, "p", conversionsSrc)
	var got []string
	for _, n := range callgraph.Conversions(p.Info, []*ast.File{p.File}) {
		got = append(got, n.Obj().Name())
	}
	slices.Sort(got)
	want := []string{"mem", "pg", "viaAssign"}
	if !slices.Equal(got, want) {
		t.Errorf("converted %q, want %q", got, want)
	}
}
