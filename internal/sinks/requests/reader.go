// Package requests reads the HTTP requests a sink call sends: the method and the
// Idempotency-Key header of a net/http request, the header a request builder's chain sets
// (resty), the method a helper's caller passes (PassMethod), and the POSTs whose repeat
// changes nothing (Reads: a read endpoint the models name, a token grant, a JSON-RPC read,
// a GraphQL query).
//
// Its input is a Reader (the package's def-use index and the models) with the keys.Scope of the
// call; its output is the call's effect.Effect, made with the caller's keys.Make, or a
// yes/no for the questions the dispatcher asks on its own (Reads, TokenRequest).
package requests

import (
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Reader reads the requests of one package's sink calls.
type Reader struct {
	Defs   *defuse.Index
	Models *model.Entries
}

func (rd Reader) info() *types.Info { return rd.Defs.Info }

// keys judges a header's value: the same judgement as every other key's.
func (rd Reader) keys() keys.Reader { return keys.Reader{Defs: rd.Defs, Models: rd.Models} }
