// The input of the params readers: the package's def-use index and the models.

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
