// A gate, and what it does to the effects it covers: a claim turns a redelivery away, a
// transaction gate makes safe what commits with it, a duplicate check protects its INSERT.

package gates

import (
	"go/token"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
)

// Gate is a claim checked in a function's body. The effects after the check, up to the end
// of the block that holds it, run only when this delivery made the claim.
type Gate struct {
	Start, End token.Pos // the guarded region: from the end of the check to the end of its block
	What       string    // "Redis SETNX gate at h.go:12"
	// Why says why the gate guards nothing (a key that changes on every retry, a constant
	// key); "" when its key is stable.
	Why string
	// Weak says why a gate keyed by the job is weaker than a claim of one row: a
	// conditional UPDATE whose WHERE covers no unique key of its table (the schema's) claims
	// every row it matches, and a row matching it that is added before the redelivery is
	// claimed again. The effect keeps its state, with the reason.
	Weak string
	// OnTx, for a gate read on a database transaction (a conditional UPDATE made on it, a
	// row locked by SELECT ... FOR UPDATE and written on it), holds the calls of the region
	// made on that transaction: the gate guards only them, and only what commits with the
	// transaction (until the commit, a crash undoes the claim, so an external effect made
	// before it runs again). nil for a gate that commits on its own (SETNX, a statement on a
	// pool). For a Lookup gate, the transaction is the one that creates the row the check
	// looks for (createdrow.go): what commits with it is checked first, as the row is.
	OnTx map[token.Pos]bool
	// Duplicate marks the check of a call's unique-violation error taken as success: the
	// INSERT the call makes is the unique-constraint pattern. Start is the call.
	Duplicate bool
	// Lookup marks a read before the write (an existence check by the job's key): it claims
	// nothing, and turns a redelivery away only once what it looks up is written, mostly by
	// the job's last write; a crash before that runs the effects again.
	Lookup bool
}

// claims reports whether the gate claims the job's key on its own: a stable key, a claim of
// one row, not one that holds only on a transaction, not a duplicate check.
func (g *Gate) claims() bool {
	return g.Why == "" && g.Weak == "" && g.OnTx == nil && !g.Duplicate
}

// Covers reports whether pos is in the gate's guarded region.
func (g *Gate) Covers(pos token.Pos) bool {
	if g.OnTx != nil {
		return g.OnTx[pos]
	}
	return g.Start <= pos && pos < g.End
}

// Guard applies the gate to an effect reached after it (or, for a duplicate check, made
// by the call whose error it checks). A stable gate answers the key: the
// effect is Claimed, and enforcement stays open as for the runtime middleware's claim (the
// key is not enforced by the system that owns the effect; a crash between the claim and the
// effect loses it, and the gate turns the redelivery away). A gate whose key is not stable
// leaves the effect as it was, saying why.
func (g *Gate) Guard(e effect.Effect) effect.Effect {
	if g.Duplicate {
		return g.duplicate(e)
	}
	if g.OnTx != nil && !g.Lookup {
		return g.committed(e)
	}
	if g.OnTx != nil && !onTx(e) {
		return e // a check first whose row commits with a transaction: only what commits with it
	}
	if e.State >= effect.Claimed {
		return e
	}
	if g.Weak != "" {
		e.Detail += "; the " + g.What + " is a weaker gate: " + g.Weak
		return e
	}
	if g.Why != "" {
		e.Detail += "; the " + g.What + " guards nothing: " + g.Why
		return e
	}
	e.State = effect.Claimed
	if g.Lookup && g.OnTx != nil {
		e.Detail += "; it commits with the row the " + g.What + " looks for, in one transaction: a redelivery after the commit finds the row, but two deliveries at once both pass the check"
		return e
	}
	if g.Lookup {
		e.Detail += "; the " + g.What + " " + effect.CheckedFirst + ": a crash before that runs this effect again, and two deliveries at once both pass it"
		return e
	}
	e.Detail += "; the " + g.What + " turns a redelivery away, but a crash between the claim and this effect loses it (at most once)"
	return e
}

// committed applies a transaction gate to an effect made on its transaction: what commits
// with it (a write on it, a job inserted through it, a database write whose connection is
// a helper's) is safe; an external effect, which the transaction cannot undo, keeps its
// state.
func (g *Gate) committed(e effect.Effect) effect.Effect {
	if e.State >= effect.Protected {
		return e
	}
	if g.Why != "" {
		e.Detail += "; the " + g.What + " guards nothing: " + g.Why
		return e
	}
	if onTx(e) {
		e.State = effect.Protected
		e.Detail += "; it commits in the transaction of the " + g.What + ": a redelivery after the commit finds the job done, a crash before it leaves nothing"
	}
	return e
}

// onTx reports whether an effect commits with the transaction it was made in: a write on
// it, a job inserted through it, a database write whose connection is a helper's.
func onTx(e effect.Effect) bool {
	return e.Tx == effect.TxIn || (e.Kind == effect.SQLWrite && e.Tx == effect.TxUnknown)
}

// duplicate applies a duplicate check to the effects of the call whose error it checks:
// its INSERT is the unique-constraint pattern, a repeat stops at the key.
func (g *Gate) duplicate(e effect.Effect) effect.Effect {
	if e.Kind != effect.SQLWrite || e.State >= effect.Protected || !strings.Contains(e.Detail, "INSERT without conflict handling") {
		return e
	}
	e.State = effect.Protected
	e.Detail = "INSERT whose unique-violation error is taken as success (" + g.What + "): a repeat stops at the key"
	return e
}
