package driver

import (
	"reflect"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Only the causes of a package's errors are reported: the go command's and the syntax
// errors (one per line) over every type error, the imports that did not load over the type
// errors that follow from them, and every error of a package with none of those.
func TestCauses(t *testing.T) {
	parse := func(pos, msg string) packages.Error {
		return packages.Error{Pos: pos, Msg: msg, Kind: packages.ParseError}
	}
	typ := func(pos, msg string) packages.Error {
		return packages.Error{Pos: pos, Msg: msg, Kind: packages.TypeError}
	}
	list := packages.Error{Pos: "a.go:3:2", Msg: "no required module provides package x", Kind: packages.ListError}
	imp := typ("a.go:3:2", `could not import x (invalid package name: "")`)
	for _, c := range []struct {
		name     string
		in, want []packages.Error
	}{
		{"type errors alone", []packages.Error{typ("a.go:5:1", "undefined: y"), typ("a.go:6:1", "undefined: z")},
			[]packages.Error{typ("a.go:5:1", "undefined: y"), typ("a.go:6:1", "undefined: z")}},
		{"syntax", []packages.Error{parse("a.go:9:58", "missing ','"), parse("a.go:10:2", "expected operand"), parse("a.go:10:2", "missing ','"),
			parse("a.go:10:12", "missing ','"), typ("a.go:10:9", "undefined: err"), typ("", "missing return")},
			[]packages.Error{parse("a.go:9:58", "missing ','"), parse("a.go:10:2", "expected operand")}},
		{"go command", []packages.Error{list, imp, typ("a.go:7:1", "undefined: x")}, []packages.Error{list}},
		{"import that did not load", []packages.Error{imp, typ("a.go:7:1", "undefined: x"), typ("b.go:2:1", "undefined: x")}, []packages.Error{imp}},
	} {
		if got := causes(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", c.name, got, c.want)
		}
	}
}
