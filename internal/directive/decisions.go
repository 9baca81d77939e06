package directive

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Decisions is what a //idemlint:decisions directive declares for a handler: the answers to
// the checklist's four questions. An empty field is not declared.
//
//	//idemlint:decisions key=OrderID enforce=upsert ttl=72h partial=manual-review -- why
type Decisions struct {
	Key     string        // the payload field (or job ID) that identifies a repeat
	Enforce string        // one of Enforcements
	TTL     time.Duration // how long duplicates can arrive; 0 with TTLWord set for a word
	TTLWord string        // "forever" or "provider" when not a duration
	Partial string        // one of Partials
}

// Undecided is the value of a decision still open ("key=?"): it answers nothing, and it is
// what the suggested skeleton writes, so applying every fix (-fix, golangci-lint --fix)
// leaves a to-do list in the code instead of an error.
const Undecided = "?"

// Enforcements are the values of enforce=: the checklist's five patterns and the runtime
// middleware.
var Enforcements = []string{"upsert", "provider-key", "outbox", "converging", "manual-review", "middleware"}

// Partials are the values of partial=.
var Partials = []string{"outbox", "transactional", "recovery-point", "manual-review"}

// Decisions is the verb of a decisions directive.
const DecisionsVerb Verb = "decisions"

// parseDecisions reads key=value fields.
func parseDecisions(args []string) (*Decisions, string) {
	if len(args) == 0 {
		return nil, "//idemlint:decisions declares at least one of key=, enforce=, ttl=, partial="
	}
	d := &Decisions{}
	seen := map[string]bool{}
	for _, a := range args {
		name, value, ok := strings.Cut(a, "=")
		if !ok || value == "" {
			return nil, fmt.Sprintf("//idemlint:decisions: %q is not name=value", a)
		}
		if seen[name] {
			return nil, fmt.Sprintf("//idemlint:decisions: %s= given twice", name)
		}
		seen[name] = true
		if value == Undecided && oneOf(name, []string{"key", "enforce", "ttl", "partial"}) {
			continue // still open: the skeleton the suggested fix inserts, a to-do in the code
		}
		switch name {
		case "key":
			d.Key = value
		case "enforce":
			if !oneOf(value, Enforcements) {
				return nil, fmt.Sprintf("//idemlint:decisions: enforce=%s is not one of %s", value, strings.Join(Enforcements, ", "))
			}
			d.Enforce = value
		case "ttl":
			if value == "forever" || value == "provider" {
				d.TTLWord = value
				break
			}
			ttl, err := parseTTL(value)
			if err != nil || ttl <= 0 {
				return nil, fmt.Sprintf("//idemlint:decisions: ttl=%s is not a positive duration (72h, 7d), forever or provider", value)
			}
			d.TTL = ttl
		case "partial":
			if !oneOf(value, Partials) {
				return nil, fmt.Sprintf("//idemlint:decisions: partial=%s is not one of %s", value, strings.Join(Partials, ", "))
			}
			d.Partial = value
		default:
			return nil, fmt.Sprintf("//idemlint:decisions: unknown field %s= (known: key, enforce, ttl, partial)", name)
		}
	}
	return d, ""
}

// parseTTL reads a Go duration, or a whole number of days ("7d"), which retention
// decisions are usually made in.
func parseTTL(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, err
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

func oneOf(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// Answers reports whether the declaration answers the named checklist decision.
func (d *Decisions) Answers(decision string) bool {
	if d == nil {
		return false
	}
	switch decision {
	case "key":
		return d.Key != ""
	case "enforcement":
		return d.Enforce != ""
	case "ttl":
		return d.TTL > 0 || d.TTLWord != ""
	case "partial":
		return d.Partial != ""
	}
	return false
}
