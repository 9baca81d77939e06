package rounds

import (
	"maps"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

// The dependencies analysed once are those of the standard library and of versioned
// modules that import only such packages: not a root, not the main module's or a locally
// replaced module's packages, and not a standard package compiled for a root's test, which
// imports that root's test variant.
func TestDependencies(t *testing.T) {
	main := &packages.Module{Path: "example.com/svc", Main: true}
	versioned := &packages.Module{Path: "example.com/lib", Version: "v1.2.0"}
	local := &packages.Module{Path: "example.com/local", Version: "v0.0.0", Replace: &packages.Module{Path: "../local"}}
	strs := &packages.Package{ID: "strings"}
	lib := &packages.Package{ID: "example.com/lib", Module: versioned, Imports: map[string]*packages.Package{"strings": strs}}
	loc := &packages.Package{ID: "example.com/local", Module: local, Imports: map[string]*packages.Package{"strings": strs}}
	abovelocal := &packages.Package{ID: "example.com/lib/uses", Module: versioned, Imports: map[string]*packages.Package{"example.com/local": loc}}
	under := &packages.Package{ID: "bufio [bufio.test]", Imports: map[string]*packages.Package{"strings": strs}}
	sysinfo := &packages.Package{ID: "internal/sysinfo [bufio.test]", Imports: map[string]*packages.Package{"bufio": under}}
	svc := &packages.Package{ID: "example.com/svc", Module: main, Imports: map[string]*packages.Package{
		"example.com/lib": lib, "example.com/lib/uses": abovelocal, "internal/sysinfo": sysinfo}}
	got := slices.Sorted(maps.Keys(Dependencies([]*packages.Package{svc, under})))
	if want := []string{"example.com/lib", "strings"}; !slices.Equal(got, want) {
		t.Errorf("dependencies %v, want %v", got, want)
	}
}
