// Package conflicts checks the conflict targets of the package's INSERT statements against
// the project's schema. PostgreSQL and SQLite infer the key ON CONFLICT (columns) means from
// the table's unique constraints and indexes, and reject the statement when none has exactly
// those columns ("there is no unique or exclusion constraint matching the ON CONFLICT
// specification"): the upsert a handler relies on for idempotency then fails on its first
// run, where no test without a database sees it. The statements read are the string
// constants the package spells (a literal, or a concatenation of constants with at least one
// literal part); a constant declared in another package is checked there.
package conflicts

import (
	"go/ast"
	"go/constant"
	"go/token"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/rules"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// Check is the conflicts check.
var Check = checks.Check{
	Name:       "conflicts",
	Doc:        "Reports ON CONFLICT targets that match no unique key of the project's schema: the database rejects the INSERT on every run.",
	Categories: []rules.Category{rules.SQLConflict},
	Run:        func(in *checks.Input) checks.Output { return checks.Output{Verdicts: Mismatches(in)} },
}

// Mismatches returns a verdict for each INSERT text of the package whose ON CONFLICT target
// names no key of a table the schema declares, in source order. With no schema there is
// nothing to match against, and nothing is reported.
func Mismatches(in *checks.Input) []checks.Verdict {
	s := in.Config.Schema
	if s.Len() == 0 {
		return nil
	}
	var out []checks.Verdict
	for _, f := range in.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			tv, ok := in.Info.Types[e]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
				return true
			}
			// The outermost constant expression is the statement; its parts are not.
			parts := operands(e)
			if !slices.ContainsFunc(parts, spellsConflict) {
				return false
			}
			text := constant.StringVal(tv.Value)
			ct, ok := sqlstmt.Conflict(text)
			if !ok {
				return false
			}
			if msg := judge(s, ct); msg != "" {
				out = append(out, checks.Verdict{Pos: position(in, parts, ct.Offset), Category: rules.SQLConflict, Message: msg})
			}
			return false
		})
	}
	return out
}

// operands flattens a concatenation of string constants into its parts, in order.
func operands(e ast.Expr) []ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return operands(x.X)
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return append(operands(x.X), operands(x.Y)...)
		}
	}
	return []ast.Expr{e}
}

// spellsConflict reports whether a part is a literal that says "conflict": a named constant
// that does is reported where it is declared.
func spellsConflict(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING && strings.Contains(strings.ToLower(lit.Value), "conflict")
}

// position is where offset off of the statement is in the source: in the literal part that
// holds it when that literal has no escapes (so its bytes are the text's), else the
// statement's start.
func position(in *checks.Input, parts []ast.Expr, off int) token.Pos {
	start := 0
	for _, p := range parts {
		v := in.Info.Types[p].Value
		if v == nil {
			break
		}
		n := len(constant.StringVal(v))
		if off < start+n {
			lit, ok := p.(*ast.BasicLit)
			if ok && !strings.ContainsAny(lit.Value, "\\\r") {
				return lit.Pos() + 1 + token.Pos(off-start)
			}
			break
		}
		start += n
	}
	return parts[0].Pos()
}

// judge is the message for a conflict target that matches no key of its table; "" when it
// matches one, or when the schema does not declare the table or the target is not read.
func judge(s *schema.Schema, ct sqlstmt.ConflictTarget) string {
	t := s.Table(ct.Table)
	if t == nil {
		return ""
	}
	if ct.Constraint != "" {
		return onConstraint(t, ct.Constraint)
	}
	cols, ok := schema.TargetColumns(ct.Columns)
	if !ok {
		return "" // a template's verb or a bind: not the target the database sees
	}
	target := "ON CONFLICT (" + strings.Join(ct.Columns, ", ") + ")"
	var partial *schema.Key
	for i, k := range t.Keys {
		if k.Matches(cols, ct.Where) {
			return ""
		}
		if partial == nil && k.Matches(cols, true) {
			partial = &t.Keys[i]
		}
	}
	if partial != nil {
		return target + " matches only the partial unique index " + partial.Describe() + " of " + t.Name +
			", which the database infers only from a target with its predicate: the INSERT is rejected on every run; write " +
			target + " WHERE " + partial.Partial
	}
	return target + " matches no unique key of " + t.Name + ": the database rejects the INSERT on every run (there is no unique or exclusion constraint matching the ON CONFLICT specification); " +
		keysText(t) + "; make the target one of them, or add a unique index on (" + strings.Join(ct.Columns, ", ") + ")"
}

// onConstraint is the message for ON CONFLICT ON CONSTRAINT name that names no constraint
// of t, or a unique index (which is no constraint).
func onConstraint(t *schema.Table, name string) string {
	if slices.ContainsFunc(t.Exclusions, func(x string) bool { return strings.EqualFold(x, name) }) {
		return ""
	}
	target := "ON CONFLICT ON CONSTRAINT " + name
	for _, k := range t.Keys {
		if !strings.EqualFold(k.Name, name) {
			continue
		}
		if !k.Index {
			return ""
		}
		return target + " names the unique index " + k.Describe() + ", which is no constraint: the database rejects the INSERT on every run; write ON CONFLICT (" +
			strings.Join(k.Columns, ", ") + ")"
	}
	return target + " names no constraint of " + t.Name + ": the database rejects the INSERT on every run; " + keysText(t)
}

// keysText lists the table's keys for a message.
func keysText(t *schema.Table) string {
	if len(t.Keys) == 0 {
		return t.Name + " declares no unique key (" + t.At.String() + ")"
	}
	keys := make([]string, len(t.Keys))
	for i, k := range t.Keys {
		keys[i] = k.Describe()
	}
	return "its keys are " + strings.Join(keys, ", ")
}
