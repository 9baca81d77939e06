package decisions

import (
	"go/token"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/effect"
)

func hops(names ...string) []effect.Hop {
	var out []effect.Hop
	for i, n := range names {
		out = append(out, effect.Hop{Func: n, Pos: "f.go:" + string(rune('1'+i))})
	}
	return out
}

// A handler's other sinks are counted in full and listed up to maxRelated, in the order
// given (by position), the last entry saying how many are not listed.
func TestOthersRelatedCap(t *testing.T) {
	f := openEffect{Effect: effect.Effect{Kind: effect.HTTPWrite, Detail: "POST", Chain: hops("p.a", "Do")}}
	for i := range 7 {
		f.Others = append(f.Others, callgraph.Reached{Pos: token.Pos(10 + i), Effect: effect.Effect{Kind: effect.HTTPWrite, Detail: "POST", Chain: hops("p.b", "Do")}})
	}
	rel := othersRelated("H", f)
	if len(rel) != maxRelated || rel[0].Pos != 10 || rel[maxRelated-1].Pos != 14 {
		t.Fatalf("related = %+v: want %d, from the first by position", rel, maxRelated)
	}
	if !strings.HasSuffix(rel[maxRelated-1].Message, "; 2 more not listed") || strings.Contains(rel[0].Message, "not listed") {
		t.Errorf("the last listed entry must say how many are left out: %q", rel[maxRelated-1].Message)
	}
	if got := notes("H", f, nil); got != " and 7 more http.write sinks" {
		t.Errorf("notes = %q", got)
	}
	if got := rel[0].Message; got != "also http.write: POST (H -> p.b -> Do)" {
		t.Errorf("message = %q", got)
	}
}

// The shared function is the outermost one every chain to the sink runs through; a chain
// that shares only the sink call names the function holding it, unless it may be cut.
func TestSharedFunc(t *testing.T) {
	for _, tc := range []struct {
		own    []effect.Hop
		others [][]effect.Hop
		want   string
	}{
		{hops("p.handle", "p.insert", "Exec"), [][]effect.Hop{hops("p.handle", "p.insert", "Exec")}, "p.handle"},
		{hops("p.handle", "p.insert", "Exec"), [][]effect.Hop{hops("p.other", "p.insert", "Exec"), hops("p.handle", "p.insert", "Exec")}, "p.insert"},
		{hops("Exec"), [][]effect.Hop{hops("p.H", "Exec")}, "H"},
		{hops("p.a", "p.b", "p.c", "p.d", "p.e", "Exec"), [][]effect.Hop{hops("p.x", "Exec")}, ""},
	} {
		var shared []sharer
		for _, c := range tc.others {
			shared = append(shared, sharer{name: "G", chain: c})
		}
		if got := sharedFunc("H", tc.own, shared); got != tc.want {
			t.Errorf("sharedFunc(%v, %v) = %q, want %q", tc.own, tc.others, got, tc.want)
		}
	}
}
