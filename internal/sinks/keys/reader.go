// What every reader of a sink call is given: the Scope, Make, and this package's Reader.

package keys

import (
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// Reader judges keys in one package: its def-use index, to follow a key to what it was
// built from, and the models, which name the random and clock sources and the key options.
type Reader struct {
	Defs   *defuse.Index
	Models *model.Entries
}

func (r Reader) info() *types.Info { return r.Defs.Info }

// Scope is the function whose body holds the calls being judged.
type Scope struct {
	Name string // as in messages: "HandleOrder", "func literal in HandleOrder"
	// Func is the declared function (nil for a literal): a key or HTTP method taken from
	// its string parameters is checked at its callers.
	Func *types.Func
	// Params are the parameters of the function and of the functions enclosing it: job
	// data reaches a sink through them.
	Params map[*types.Var]bool
	// Built says what a function called in the scope returns of an HTTP request it builds
	// (a newRequest helper: effect.Request), or nil; nil when no call is followed.
	Built func(*types.Func) *effect.Request
	// Guarded says whether a function called in the scope returns a query builder its chain
	// guards (effect.Fact.Guards); nil when no call is followed.
	Guarded func(*types.Func) bool
}

// ParamIndex returns 1 + the index of v among the parameters of sc's declared function (the
// first 255), or 0: the form Effect.MethodParam, RequestParam and TextParam record it in, 0 meaning none.
func ParamIndex(sc Scope, v *types.Var) int {
	if sc.Func == nil {
		return 0
	}
	params := sc.Func.Signature().Params()
	for i := 0; i < params.Len() && i < 255; i++ {
		if params.At(i) == v {
			return i + 1
		}
	}
	return 0
}

// Make makes the effect of the call being judged with a state and a detail; the dispatcher
// that calls a reader fills in the rest (kind, transaction, the call's hop), which no reader
// needs to know.
type Make func(effect.State, string) *effect.Effect
