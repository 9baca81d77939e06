// The unique-constraint pattern as a claim. An INSERT that a unique key of the schema turns
// away on a repeat (its values the job's: the finding "fails on a repeat") fails the second
// time with a duplicate-key error. A function that leaves when that error is set (`if err
// != nil { return err }`) goes on past the check only on the run that inserted the row:
// what it does after the check runs once per key, as after a Redis SETNX. The INSERT stays
// reported (the repeat fails until the job is dead, unless the error is taken as done);
// what follows it is claimed.
//
// Not for an INSERT on a transaction: until it commits, a crash undoes the row, and the
// effects after the check run again on the redelivery.

package callgraph

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks"
)

// markErrorLeaves marks the sites of n whose call's error makes n leave: the call's last
// result assigned to a variable (err := f(), x, err = f(), or in an if's init) that the
// next statement tests with `if err != nil` whose body ends in a return. Site.leaveFrom
// and leaveTo are the region after that if, to the end of its block. sites are the
// positions of n's sites (Node.sitePositions).
func (b *builder) markErrorLeaves(n *Node, sites map[token.Pos]bool) {
	if n.Body == nil || len(n.Sites) == 0 {
		return
	}
	type region struct{ from, to token.Pos }
	leaves := map[token.Pos]region{}
	check := func(as *ast.AssignStmt, ifs *ast.IfStmt, end token.Pos) {
		c, ok := oneCall(as.Rhs)
		if !ok || !sites[c.Pos()] || len(as.Lhs) == 0 || len(ifs.Body.List) == 0 {
			return
		}
		if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
			return
		}
		id, ok := ast.Unparen(as.Lhs[len(as.Lhs)-1]).(*ast.Ident)
		if !ok {
			return
		}
		v := b.in.Info.ObjectOf(id)
		if op, tested := b.errorTest(ifs.Cond); op != token.NEQ || v == nil || tested != v {
			return
		}
		leaves[c.Pos()] = region{ifs.End(), end}
	}
	block := func(list []ast.Stmt, end token.Pos) {
		for i, st := range list {
			if ifs, ok := st.(*ast.IfStmt); ok {
				if as, ok := ifs.Init.(*ast.AssignStmt); ok {
					check(as, ifs, end)
				}
			}
			if as, ok := st.(*ast.AssignStmt); ok && i+1 < len(list) {
				if ifs, ok := list[i+1].(*ast.IfStmt); ok && ifs.Init == nil {
					check(as, ifs, end)
				}
			}
		}
	}
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // a node of its own
		case *ast.BlockStmt:
			block(x.List, x.Rbrace)
		case *ast.CaseClause:
			block(x.Body, x.End())
		case *ast.CommClause:
			block(x.Body, x.End())
		}
		return true
	})
	for i := range n.Sites {
		if r, ok := leaves[n.Sites[i].Pos]; ok {
			n.Sites[i].leaveFrom, n.Sites[i].leaveTo = r.from, r.to
		}
	}
}

// insertClaims returns the gates the INSERTs of n's sites make whose unique key turns a
// repeat away and whose error makes n leave (Site.leaveFrom): each guards the sites after
// its check, to the end of the check's block.
func (sv *solver) insertClaims(n *Node) []*sinks.Gate {
	var gates []*sinks.Gate
	for i := range n.Sites {
		s := &n.Sites[i]
		if s.leaveFrom == token.NoPos {
			continue
		}
		for _, e := range sv.siteEffects(s) {
			if e.Kind != effect.SQLWrite || !strings.Contains(e.Detail, effect.KeyTurnsAway) {
				continue // cheap first: through is what evaluate spends its time in
			}
			if e, keep := sv.through(n, s, e); keep && failsOnRepeat(e) {
				gates = append(gates, &sinks.Gate{
					Start: s.leaveFrom,
					End:   s.leaveTo,
					What:  "INSERT at " + effect.ShortPos(sv.in.Fset, s.Pos) + ", which fails on a repeat,",
				})
				break
			}
		}
	}
	return gates
}

// failsOnRepeat reports whether e is an INSERT a unique key turns away on a repeat, its key
// values decided, not made on a transaction.
func failsOnRepeat(e effect.Effect) bool {
	return e.Kind == effect.SQLWrite && e.State == effect.Unprotected && e.KeyArg == 0 && e.Tx != effect.TxIn &&
		strings.Contains(e.Detail, effect.KeyTurnsAway)
}

// guardedBy applies to e, an effect of site s, the INSERT claims (insertClaims) that cover s.
func guardedBy(claims []*sinks.Gate, s *Site, e effect.Effect) effect.Effect {
	for _, gt := range claims {
		if gt.Covers(s.Pos) {
			e = gt.Guard(e)
		}
	}
	return e
}
