// Package params reads the params a provider call is given (Stripe's, AWS's): a key field in
// the params literal, nested structs and every element of a batch, a key setter called on
// the params variable or the field assigned, a condition field that fails on a repeat
// (attribute_not_exists), and a DynamoDB update expression, an effect only when it adds to
// what is stored.
//
// Its input is a Reader (the package's def-use index and the models: key fields, condition
// fields, key setters) with the keys.Scope of the call; its output is the call's effect.Effect,
// made with the caller's keys.Make, each key found judged by package keys.
package params

import (
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Reader reads the params of one package's provider calls.
type Reader struct {
	Defs   *defuse.Index
	Models *model.Entries
}

func (rd Reader) info() *types.Info { return rd.Defs.Info }

// keys judges each key found on the params: the same judgement as every other key's.
func (rd Reader) keys() keys.Reader { return keys.Reader{Defs: rd.Defs, Models: rd.Models} }
