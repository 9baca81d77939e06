package callgraph

import (
	"go/token"
	"testing"
)

// Positions of two files compare by file name, then offset, whatever order the files were
// added to the file set in (the loader parses a package's files concurrently).
func TestComparePos(t *testing.T) {
	fset := token.NewFileSet()
	b := fset.AddFile("pkg/b.go", -1, 100) // added first: its token.Pos values are lower
	a := fset.AddFile("pkg/a.go", -1, 100)
	if b.Pos(10) >= a.Pos(10) {
		t.Fatal("the file set did not give the first file the lower positions")
	}
	for _, tc := range []struct {
		x, y token.Pos
		want int
	}{
		{a.Pos(50), b.Pos(10), -1}, // a.go sorts first although its positions are higher
		{b.Pos(10), a.Pos(50), 1},
		{a.Pos(10), a.Pos(50), -1},
		{a.Pos(50), a.Pos(50), 0},
	} {
		if got := ComparePos(fset, tc.x, tc.y); got != tc.want {
			t.Errorf("ComparePos(%s, %s) = %d, want %d", fset.Position(tc.x), fset.Position(tc.y), got, tc.want)
		}
	}
}
