// The project's schema: what the unique keys of the table an INSERT (a statement, or an
// ORM's insert of a record) writes say of a repeat.

package statements

import (
	"go/ast"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// keyVerdict is what the schema says of an INSERT into a table it declares.
type keyVerdict struct {
	// enforced is a unique key whose every column the insert binds to a value the job
	// carries (a placeholder whose argument is not made anew on every run): a repeat
	// inserts nothing and fails on the key.
	enforced *schema.Key
	// unkeyed: no key of the table can ever conflict with an earlier run's row, since each
	// has a column the insert leaves to a default made anew (id serial) or the table has no
	// unique key: a repeat adds a row, and conflict handling has nothing to absorb.
	unkeyed bool
	table   *schema.Table
	// fresh names the generated columns of the table's keys, for the message.
	fresh []string
}

// insertKeys judges an INSERT text by the schema's keys of its table; ok is false when
// the schema does not declare the table or the statement's columns are not known.
func (rd Reader) insertKeys(text string, args []ast.Expr) (v keyVerdict, ok bool) {
	if rd.Schema.Len() == 0 {
		return v, false
	}
	tname, cols, ok := sqlstmt.InsertColumns(text)
	if !ok {
		return v, false
	}
	t := rd.Schema.Table(tname)
	if t == nil {
		return v, false
	}
	var stable []string
	if _, binds, ok := sqlstmt.InsertBinds(text); ok {
		for _, b := range binds {
			if b.Param <= len(args) && rd.keys().UnstableSource(args[b.Param-1]) == "" {
				stable = append(stable, strings.ToLower(b.Column))
			}
		}
	}
	return judgeKeys(t, schema.NormColumns(cols), stable), true
}

// judgeKeys is what the keys of table t say of an insert that writes the columns cols, of
// which stable receive values the job carries.
func judgeKeys(t *schema.Table, cols, stable []string) keyVerdict {
	v := keyVerdict{table: t}
	v.unkeyed = true
	for i := range t.Keys {
		k := &t.Keys[i]
		if v.enforced == nil && k.Covers(stable) {
			v.enforced = k
		}
		freshCol := ""
		for _, c := range k.Columns {
			if _, generated := t.Fresh[c]; generated && !slices.Contains(cols, c) {
				freshCol = c
			}
		}
		if freshCol == "" {
			v.unkeyed = false
		} else if !slices.Contains(v.fresh, freshCol) {
			v.fresh = append(v.fresh, freshCol)
		}
	}
	return v
}

// Record judges an ORM insert of a record (what: "GORM Create of Order") into table t, the
// schema's, that sets the columns cols, of which stable from values the job carries;
// guarded: its chain makes it an upsert. It returns nil where the schema changes nothing
// and the builder's own verdict stands.
func (rd Reader) Record(mk keys.Make, what string, t *schema.Table, cols, stable []string, guarded bool) *effect.Effect {
	v := judgeKeys(t, cols, stable)
	switch {
	case guarded && v.unkeyed:
		return mk(effect.Unprotected, what+" with conflict handling absorbs nothing: "+v.unkeyedText()+", so the conflict never happens and a repeat inserts another row")
	case guarded:
		return nil
	case v.enforced != nil:
		return mk(effect.Unprotected, what+": "+v.enforcedText())
	case v.unkeyed:
		return mk(effect.Unprotected, what+" adds a row to "+t.Name+" on every run: "+v.unkeyedText())
	}
	return nil
}

// unkeyedText is the evidence for a table no key of which a repeat can conflict on.
func (v keyVerdict) unkeyedText() string {
	if len(v.table.Keys) == 0 {
		return v.table.Name + " declares no unique key (" + v.table.At.String() + ")"
	}
	return v.table.Name + " has no unique key besides " + strings.Join(v.fresh, ", ") + ", made anew on every insert (" + v.table.At.String() + ")"
}

// enforcedText is the problem of an insert a unique key turns away on a repeat.
func (v keyVerdict) enforcedText() string {
	k := v.enforced
	// "INSERT without conflict handling" lets a check that takes the duplicate-key error as
	// done protect it (gates.Gate.Guard).
	return "INSERT without conflict handling into " + v.table.Name + " fails on a repeat: the unique key " + k.Describe() +
		" already holds the first run's row, so a redelivery gets a duplicate-key error every time and the job retries until it is dead; take that error as done, or add ON CONFLICT (" +
		strings.Join(k.Columns, ", ") + ") DO NOTHING"
}
