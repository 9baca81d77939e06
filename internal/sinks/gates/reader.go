// The input of every reader of gates: the package's def-use index, the models, the file set
// for positions.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Reader reads the gates of one package's functions.
type Reader struct {
	Defs   *defuse.Index
	Models *model.Entries
	Fset   *token.FileSet
	// Schema is the project's schema (nil: none), by which a claim's WHERE is known to
	// pick one row or several.
	Schema *schema.Schema
}

func (rd Reader) info() *types.Info { return rd.Defs.Info }

func (rd Reader) shortPos(pos token.Pos) string { return effect.ShortPos(rd.Fset, pos) }

// keys is the judgement of a gate's claim key: the same one the sinks' keys get.
func (rd Reader) keys() keys.Reader { return keys.Reader{Defs: rd.Defs, Models: rd.Models} }

// ClaimOf returns what a function's result says of a claim made in its body (a helper that
// returns `updated bool` from a conditional UPDATE), or nil: the functions of the package
// and, through their facts, of its dependencies.
type ClaimOf func(*types.Func) *effect.Claim

// isBuiltin reports whether call calls the builtin function name (len, append, make).
func (rd Reader) isBuiltin(call *ast.CallExpr, name string) bool {
	id, _ := ast.Unparen(call.Fun).(*ast.Ident)
	b, ok := rd.info().Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// callee is the function a call calls, or nil (a function value, a conversion).
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}
