// The project's schema: what the unique keys of the table an INSERT (a statement, or an
// ORM's insert of a record) writes say of a repeat.

package statements

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"
	"strconv"
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
	// sample, for an unkeyed insert, is the column that says when the row was taken,
	// left to the clock's default (captured_at DEFAULT now()): the row is an observation,
	// and a repeat takes one more a moment later, as the next scheduled run would; or the
	// column that says when a run began (runColumn): the row records the run that makes
	// it, and a repeat is one more run, recorded as truly.
	sample string
	table  *schema.Table
	// fresh names the generated columns of the table's keys, for the message.
	fresh []string
	// keyArgs, for an enforced key whose values are parameters of the function the insert
	// is in (or fields of one), names them ("1.ID", "2": effect.Effect.KeyArgFields): the
	// callers decide whether the job's values or new ones reach the key.
	keyArgs []string
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
	var stable, clocked []string
	refs := map[string]string{} // column -> the parameter (and field) its value is
	if _, binds, ok := sqlstmt.InsertBinds(text); ok {
		for _, b := range binds {
			if b.Param > len(args) {
				continue
			}
			switch rd.keys().UnstableSource(args[b.Param-1]) {
			case "time.Now":
				clocked = append(clocked, strings.ToLower(b.Column))
			case "":
				col := strings.ToLower(b.Column)
				stable = append(stable, col)
				if ref, ok := rd.paramRef(args[b.Param-1], rd.Scope); ok {
					refs[col] = ref
				}
			}
		}
	}
	clocked = append(clocked, sqlstmt.InsertClocked(text)...)
	v = judgeKeys(t, schema.NormColumns(cols), stable, clocked)
	if v.enforced != nil {
		for _, c := range v.enforced.Columns {
			if ref, ok := refs[c]; ok && !slices.Contains(v.keyArgs, ref) {
				v.keyArgs = append(v.keyArgs, ref)
			}
		}
	}
	return v, true
}

// replacingInsert says why an INSERT into a ClickHouse ReplacingMergeTree converges, or "":
// the insert writes every column of the table's sorting key (schema.Table.Replacing), none
// from a random or clock source, so a repeat adds rows the table merges into the first
// run's (queries with FINAL see one at once).
func (rd Reader) replacingInsert(text string, args []ast.Expr) string {
	if rd.Schema.Len() == 0 {
		return ""
	}
	tname, cols, ok := sqlstmt.InsertColumns(text)
	if !ok {
		return ""
	}
	t := rd.Schema.Table(tname)
	if t == nil || t.Replacing == nil || !t.Replacing.Covers(schema.NormColumns(cols)) {
		return ""
	}
	if _, binds, ok := sqlstmt.InsertBinds(text); ok {
		for _, b := range binds {
			if b.Param <= len(args) && slices.Contains(t.Replacing.Columns, strings.ToLower(b.Column)) && rd.keys().UnstableSource(args[b.Param-1]) != "" {
				return ""
			}
		}
	}
	k := t.Replacing
	return "INSERT into " + t.Name + " converges: its " + k.Name + " keeps one row per sorting key (" + strings.Join(k.Columns, ", ") + ", " + k.At.String() + ")"
}

// judgeKeys is what the keys of table t say of an insert that writes the columns cols, of
// which stable receive values the job carries and clocked the time of the insert
// (time.Now()).
func judgeKeys(t *schema.Table, cols, stable, clocked []string) keyVerdict {
	v := keyVerdict{table: t}
	v.unkeyed = true
	for i := range t.Keys {
		k := &t.Keys[i]
		if v.enforced == nil && k.Covers(stable) && partialHolds(k.Partial, cols) {
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
	if v.unkeyed {
		v.sample = cmp.Or(sampleColumn(t, cols), runColumn(t, cols, clocked))
	}
	return v
}

// sampleColumns name a column that says when a row was taken. A table with one, set by the
// clock, may record observations (a stock level, a delivery quote, a keyword's frequency, a
// score), a row per look by design, where a second look is true. created_at and
// recorded_at say only when a row was written, of any table, and are not among them.
var sampleColumns = []string{"captured_at", "observed_at", "measured_at", "sampled_at", "checked_at",
	"scraped_at", "polled_at", "snapshot_at", "analyzed_at", "analysed_at"}

// observationWords, in a table's name, say that it keeps observations: without one (or a
// unique key on the time taken), captured_at may be when a payment was captured or a lead
// came in, and a second row is a business duplicate.
var observationWords = []string{"snapshot", "histor", "sample", "observation", "measurement", "metric",
	"stats", "statistic", "reading", "analys", "telemetry"}

// sampleColumn returns the column of t that says when its row was taken and that an insert
// of the columns cols leaves to a clock default, or "", when t keeps observations: its name
// says so (observationWords), or a unique key holds that time (UNIQUE (product_id, region,
// captured_at): one row per look).
func sampleColumn(t *schema.Table, cols []string) string {
	named := false
	for _, w := range observationWords {
		named = named || strings.Contains(t.Name, w)
	}
	for _, c := range sampleColumns {
		if def, ok := t.Fresh[c]; !ok || !schema.ClockDefault(def) || slices.Contains(cols, c) {
			continue
		}
		if named || slices.ContainsFunc(t.Keys, func(k schema.Key) bool { return slices.Contains(k.Columns, c) }) {
			return c
		}
	}
	return ""
}

// runColumn returns "started_at" when t is a table of runs (its name's last word is "runs":
// sync_runs, strategy_evaluation_runs) whose started_at an insert of the columns cols
// leaves to a clock default, or sets to the time of the insert (clocked: now() in the
// statement, time.Now() in Go). The row says the run began when it was written, so it
// records the run of the code that writes it, not one it asks for (a queued pipeline_runs
// row, picked up later, has no start yet). A repeat is a second run, and its row is as true
// as the first; the built-in append_only tables (job_runs, ...) are judged so by name alone.
func runColumn(t *schema.Table, cols, clocked []string) string {
	if t.Name != "runs" && !strings.HasSuffix(t.Name, "_runs") {
		return ""
	}
	const started = "started_at"
	if def, ok := t.Fresh[started]; ok && schema.ClockDefault(def) && !slices.Contains(cols, started) || slices.Contains(clocked, started) {
		return started
	}
	return ""
}

// partialHolds reports whether every row an insert of the columns cols adds falls under a
// partial key's predicate (pred; "" for a key on every row): a conjunction of col IS NULL
// tests of columns the insert does not set (deleted_at IS NULL). Any other predicate
// (status = 'pending') depends on values the insert may not give, so the key cannot be
// said to turn a repeat away.
func partialHolds(pred string, cols []string) bool {
	if pred == "" {
		return true
	}
	nulls, ok := sqlstmt.NullTests(pred)
	if !ok {
		return false
	}
	for _, c := range nulls {
		if slices.Contains(cols, c) {
			return false
		}
	}
	return true
}

// Record judges an ORM insert of a record (what: "GORM Create of Order") into table t, the
// schema's, that sets the columns cols to values; guarded: its chain makes it an upsert. It
// returns nil where the schema changes nothing and the builder's own verdict stands.
func (rd Reader) Record(mk keys.Make, what string, t *schema.Table, cols []string, values map[string]ast.Expr, guarded bool) *effect.Effect {
	var stable, clocked []string
	for _, c := range cols {
		switch rd.keys().UnstableSource(values[c]) {
		case "time.Now":
			clocked = append(clocked, c)
		case "":
			stable = append(stable, c)
		}
	}
	v := judgeKeys(t, cols, stable, clocked)
	if v.enforced != nil {
		for _, c := range v.enforced.Columns {
			if ref, ok := rd.paramRef(values[c], rd.Scope); ok && !slices.Contains(v.keyArgs, ref) {
				v.keyArgs = append(v.keyArgs, ref)
			}
		}
	}
	switch {
	case v.sample != "":
		return nil
	case guarded && v.unkeyed:
		return mk(effect.Unprotected, what+" with conflict handling absorbs nothing: "+v.unkeyedText()+", so the conflict never happens and a repeat inserts another row")
	case guarded:
		return nil
	case v.enforced != nil:
		e := mk(effect.Unprotected, what+": "+v.enforcedText())
		if len(v.keyArgs) > 0 {
			e.KeyArg, e.KeyArgFields, e.KeyArgFresh = 1, strings.Join(v.keyArgs, ","), what+": "+v.freshText()
		}
		return e
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

// freshText is the problem of an insert whose enforced key's values a caller makes anew.
func (v keyVerdict) freshText() string {
	return "INSERT without conflict handling into " + v.table.Name + ": a new row on every run, its unique key " + v.enforced.Describe() + " given values made anew"
}

// enforcedText is the problem of an insert a unique key turns away on a repeat.
func (v keyVerdict) enforcedText() string {
	k := v.enforced
	// "INSERT without conflict handling" lets a check that takes the duplicate-key error as
	// done protect it (gates.Gate.Guard).
	return "INSERT without conflict handling into " + v.table.Name + effect.KeyTurnsAway + k.Describe() +
		" already holds the first run's row, so a redelivery gets a duplicate-key error every time and the job retries until it is dead; take that error as done, or add ON CONFLICT (" +
		strings.Join(k.Columns, ", ") + ") DO NOTHING"
}

// paramRef names the parameter of sc's function that e is, or the field of one it selects
// (p, p.ID: "1", "1.ID", by the parameter's index), as effect.Effect.KeyArgFields holds it.
func (rd Reader) paramRef(e ast.Expr, sc keys.Scope) (string, bool) {
	e = ast.Unparen(e)
	field := ""
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if s, ok := rd.info().Selections[sel]; !ok || s.Kind() != types.FieldVal {
			return "", false
		}
		field, e = sel.Sel.Name, ast.Unparen(sel.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return "", false
	}
	v, _ := rd.info().Uses[id].(*types.Var)
	i := keys.ParamIndex(sc, v)
	if v == nil || i == 0 {
		return "", false
	}
	ref := strconv.Itoa(i - 1)
	if field != "" {
		ref += "." + field
	}
	return ref, true
}

// PassKeyArg decides, at a call of a function whose insert's unique key takes its values
// from its parameters (e.KeyArg), what the caller (in scope sc) passes there: values made
// anew (uuid.New) make the insert add a row on every run; the caller's own parameters pass
// the question on; anything else the job carries keeps the verdict that a repeat fails on
// the key. args are the call's arguments in parameter order (nil for a function value, whose
// callers are not in view: the verdict stands); callee names the hop.
func (rd Reader) PassKeyArg(args []ast.Expr, callee string, e effect.Effect, sc keys.Scope) effect.Effect {
	refs, fresh := strings.Split(e.KeyArgFields, ","), e.KeyArgFresh
	e.KeyArg, e.KeyArgFields, e.KeyArgFresh = 0, "", ""
	if args == nil {
		return e
	}
	var values []ast.Expr
	for _, ref := range refs {
		p, field, _ := strings.Cut(ref, ".")
		i, err := strconv.Atoi(p)
		if err != nil || i >= len(args) {
			return e
		}
		value := args[i]
		if field != "" {
			if value = rd.Defs.StructField(value, field); value == nil {
				return e // the field's value is not in view: the verdict stands
			}
		}
		values = append(values, value)
	}
	var next []string
	for _, value := range values {
		if src := rd.keys().UnstableSource(value); src != "" {
			// Unprotected again if a dropped error made it safe (callgraph's dropFailure).
			e.State, e.Detail = effect.Unprotected, fresh+" ("+callee+" is given one made from "+src+")"
			return e
		}
		if ref, ok := rd.paramRef(value, sc); ok && !slices.Contains(next, ref) {
			next = append(next, ref)
		}
	}
	if len(next) > 0 {
		e.KeyArg, e.KeyArgFields, e.KeyArgFresh = 1, strings.Join(next, ","), fresh
	}
	return e
}
