// Package gates finds the claims a function checks with an early return, which guard the
// effects after them as the runtime middleware's claim does: a modelled claim (a Redis
// SETNX), an SQL statement that changes no row the second time, a row locked FOR UPDATE on
// a transaction and written in it, a duplicate-key error taken as done. It also reads what a
// helper's result says of a claim its body makes (ReturnedClaim), for its callers' gates.
//
// Its input is a Reader (the package's def-use index, the models, the file set for
// positions) and, for each body, the keys.Scope it is judged in and a ClaimOf; its output is
// Gate values and effect.Claim values. It reports nothing and keeps nothing between calls.
package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Reader reads the gates of one package's functions.
type Reader struct {
	Defs   *defuse.Index
	Models *model.Entries
	Fset   *token.FileSet
}

func (rd Reader) info() *types.Info { return rd.Defs.Info }

func (rd Reader) shortPos(pos token.Pos) string { return effect.ShortPos(rd.Fset, pos) }

// keys is the judgement of a gate's claim key: the same one the sinks' keys get.
func (rd Reader) keys() keys.Reader { return keys.Reader{Defs: rd.Defs, Models: rd.Models} }

// ClaimOf returns what a function's result says of a claim made in its body (a helper that
// returns `updated bool` from a conditional UPDATE), or nil: the functions of the package
// and, through their facts, of its dependencies.
type ClaimOf func(*types.Func) *effect.Claim

// callee is the function a call calls, or nil (a function value, a conversion).
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}
