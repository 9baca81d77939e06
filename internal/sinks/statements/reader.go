// Package statements judges the SQL a sink call runs: the text of a statement (a constant,
// built in view, each text of a list ranged over, the text a prepared statement was prepared
// from), the statements queued on a batch (pgx.Batch, on the batch or by a helper it is
// handed to, PassText at a helper's callers), and the column updates of an ORM (gorm's
// Update with an SQL expression, a record written back after a read-modify-write).
//
// Its input is a Reader (the package's def-use index and the models: append-only tables)
// with the keys.Scope of the call; its output is the call's effect.Effect, made with the caller's
// keys.Make, the worst of the statements it may run.
package statements

import (
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Reader reads the statements of one package's sink calls.
type Reader struct {
	Defs   *defuse.Index
	Models *model.Entries
	// Schema is the project's schema (its tables' unique keys); nil when none is known.
	Schema *schema.Schema
	// Scope is the function whose body holds the call judged: an insert whose unique key
	// takes its values from that function's parameters is decided at its callers (KeyArg).
	Scope keys.Scope
}

func (rd Reader) info() *types.Info { return rd.Defs.Info }

// keys finds a value made anew on every run (a conflict key, a row's values) by the
// judgement of keys: what makes a key unstable makes a row fresh.
func (rd Reader) keys() keys.Reader { return keys.Reader{Defs: rd.Defs, Models: rd.Models} }
