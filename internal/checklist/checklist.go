// Package checklist names the four decisions every side-effecting handler needs (the
// idempotent handler checklist): what the key is, where it is enforced, how long
// duplicates can arrive, and what happens after partial side effects. Findings list the
// ones the code leaves open, always in this order.
package checklist

import "slices"

// Decision is one row of the checklist.
type Decision string

// The decisions, as they are named in findings, settings and directives.
const (
	Key         Decision = "key"
	Enforcement Decision = "enforcement"
	TTL         Decision = "ttl"
	Partial     Decision = "partial"
)

// Order lists the decisions in the checklist's order.
var Order = []Decision{Key, Enforcement, TTL, Partial}

// Known reports whether name is a decision.
func Known(name string) bool { return slices.Contains(Order, Decision(name)) }

// Names returns the names of ds.
func Names(ds []Decision) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = string(d)
	}
	return out
}

// Sort orders ds as the checklist does.
func Sort(ds []Decision) {
	slices.SortStableFunc(ds, func(a, b Decision) int { return slices.Index(Order, a) - slices.Index(Order, b) })
}

// Set is a set of decisions, the required ones of a configuration.
type Set map[Decision]bool

// All is the set of every decision.
func All() Set {
	s := Set{}
	for _, d := range Order {
		s[d] = true
	}
	return s
}

// Only returns the decisions of list that are in s, in list's order; a nil s keeps all.
func (s Set) Only(list []Decision) []Decision {
	if s == nil {
		return list
	}
	var out []Decision
	for _, d := range list {
		if s[d] {
			out = append(out, d)
		}
	}
	return out
}
