package keys

// Problem says why a key does not identify the job, or that it does.
type Problem uint8

// The problems a key may have; Stable is none.
const (
	Stable     Problem = iota // made from the job, not random, not a constant
	Unstable                  // made from a random or clock source: changes on every retry
	Constant                  // the same for every job
	NotFromJob                // made from configuration or package state, no parameter
)

// Verdict is the judgement of a key (or of the parts that together make one).
type Verdict struct {
	Problem Problem
	Source  string // for Unstable: the random or clock source ("uuid.NewString")
	In      string // the function whose parameters were looked for, for NotFromJob
}

// sharedKey is what a constant key does to the jobs that share it.
const sharedKey = "every job shares it, so the second job is taken for a duplicate"

// Because says why the key does not identify the job, as a predicate of "the key": "changes
// on every retry (made from uuid.NewString)". constant is what a constant key does ("" for
// the usual sentence).
func (v Verdict) Because(constant string) string {
	if constant == "" {
		constant = sharedKey
	}
	switch v.Problem {
	case Unstable:
		return "changes on every retry (made from " + v.Source + ")"
	case Constant:
		return "is a constant: " + constant
	case NotFromJob:
		return "is made from " + v.nothing()
	}
	return ""
}

func (v Verdict) nothing() string {
	return "nothing the job carries (no parameter of " + v.In + " reaches it)"
}

// headerText is Because for the Idempotency-Key header, whose messages read "Idempotency-Key
// header made from nothing ...".
func (v Verdict) headerText() string {
	if v.Problem == NotFromJob {
		return "made from " + v.nothing()
	}
	return v.Because("")
}

// withKeyText is the judgement for a sink's "<what> with a key ..." messages.
func (v Verdict) withKeyText() string {
	switch v.Problem {
	case Unstable:
		return " with a key that " + v.Because("")
	case Constant:
		return " with a constant key: " + sharedKey
	}
	return " with a key made from " + v.nothing()
}
