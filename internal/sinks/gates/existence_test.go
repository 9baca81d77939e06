package gates

import (
	"go/constant"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/effect"
)

// TestExistenceNames checks which method names read as a lookup or as a check of a key
// seen before, and their twins that are neither.
func TestExistenceNames(t *testing.T) {
	for name, want := range map[string]bool{
		"GetByOrderID": true, "Find": true, "LookupUser": true, "FetchPayment": true,
		"Getter": false, "Finalize": false, "Create": false, "Reader": false,
	} {
		if got := lookupName(name); got != want {
			t.Errorf("lookupName(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{
		"Exists": true, "PaymentExists": true, "HasPayment": true, "IsProcessed": true,
		"WasHandled": true, "Seen": true, "IsDuplicate": true, "IsExist": true,
		"HashKey": false, "Hashed": false, "Valid": false, "IsReady": false,
	} {
		if got := checkName(name); got != want {
			t.Errorf("checkName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestEqualConstants checks that constants of different kinds are unequal rather than a
// panic (constant.Compare panics on a bool against a string), and that numbers of different
// kinds still compare.
func TestEqualConstants(t *testing.T) {
	for _, c := range []struct {
		a, b constant.Value
		want bool
	}{
		{constant.MakeString("presentation"), constant.MakeBool(false), false},
		{constant.MakeBool(false), constant.MakeString(""), false},
		{constant.MakeString("done"), constant.MakeString("done"), true},
		{constant.MakeInt64(2), constant.MakeFloat64(2), true},
		{constant.MakeInt64(2), constant.MakeString("2"), false},
		{constant.MakeUnknown(), constant.MakeUnknown(), false},
		{nil, constant.MakeBool(true), false},
	} {
		if got := equalConstants(c.a, c.b); got != c.want {
			t.Errorf("equalConstants(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestLookupGuard checks what a read before the write says of the effect it guards: not
// reported, and, unlike a claim, no "at most once": a crash before the record repeats it.
func TestLookupGuard(t *testing.T) {
	e := effect.Effect{Kind: effect.HTTPWrite, State: effect.Unprotected, Detail: "HTTP POST"}
	lookup := (&Gate{What: "existence check GetByJobID at jobs.go:69", Lookup: true}).Guard(e)
	claim := (&Gate{What: "Redis SETNX gate at h.go:11"}).Guard(e)
	if lookup.State != effect.Claimed || claim.State != effect.Claimed {
		t.Fatalf("states %v and %v, want both claimed", lookup.State, claim.State)
	}
	if !strings.Contains(lookup.Detail, effect.CheckedFirst) || strings.Contains(lookup.Detail, "at most once") {
		t.Errorf("lookup: %q", lookup.Detail)
	}
	if strings.Contains(claim.Detail, effect.CheckedFirst) || !strings.Contains(claim.Detail, "at most once") {
		t.Errorf("claim: %q", claim.Detail)
	}
}
