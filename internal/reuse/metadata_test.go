package reuse

import (
	"strings"
	"testing"
)

// goHeader covers what go list reads of a file and nothing below it.
func TestGoHeader(t *testing.T) {
	const src = "//go:build linux\n\n// Package p does.\npackage p\n\nimport (\n\t\"fmt\"\n)\n\nfunc F() { fmt.Println() }\n"
	base := goHeader([]byte(src))
	for _, c := range []struct {
		old, new string
		same     bool
	}{
		{"fmt.Println()", "fmt.Println(1)", true},
		{"func F()", "// F prints.\nfunc F()", true},
		{"linux", "darwin", false},
		{"package p", "package q", false},
		{"\"fmt\"", "\"os\"", false},
		{"func F()", "//go:embed x.txt\nvar x string\n\nfunc F()", false},
	} {
		edited := strings.Replace(src, c.old, c.new, 1)
		if got := goHeader([]byte(edited)) == base; got != c.same {
			t.Errorf("%q -> %q: header unchanged = %v, want %v", c.old, c.new, got, c.same)
		}
	}
}
