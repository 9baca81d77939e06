package model

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/testpkg"
)

// unnamedShapes are the shapes a model file cannot name, with the reason: the loader makes
// them from another role.
var unnamedShapes = map[Shape]string{
	Relative: "made from a generated: entry's relative prefixes (ent's Add<Field> setters), never written in a sink entry",
}

// userShapes are the shapes no built-in model uses, with the model file under testdata/src
// that does (relative to it) and the reason.
var userShapes = map[Shape]struct{ file, reason string }{
	KeyArg: {"usermodels/.idemlint.yml", "for an application's own client that takes the key as an argument " +
		"(the worked example of docs/models.md); no modelled library has such an API"},
}

// shapeConstants returns every Shape constant model.go declares, by name, read from the
// package's types: a constant added to the enumeration is in it without a list to update.
func shapeConstants(t *testing.T) map[Shape]string {
	t.Helper()
	out := map[Shape]string{}
	for name, v := range testpkg.Constants(t, "github.com/chokaq/idemlint/internal/model", "Shape") {
		out[Shape(v)] = name
	}
	return out
}

// Every model.Shape has a YAML name (shapeNames), and every YAML name is a declared shape.
// A shape with no name can be used by no model file: it needs one, or an entry in
// unnamedShapes saying what makes it instead.
func TestEveryShapeHasAName(t *testing.T) {
	consts := shapeConstants(t)
	named := map[Shape]string{}
	for yaml, s := range shapeNames {
		if _, ok := consts[s]; !ok {
			t.Errorf("shapeNames: %q is shape %d, which model.go does not declare", yaml, s)
		}
		named[s] = yaml
	}
	for _, s := range sortedShapes(consts) {
		name := consts[s]
		_, unnamed := unnamedShapes[s]
		switch yaml, ok := named[s]; {
		case !ok && !unnamed:
			t.Errorf("shape %s has no YAML name: add it to shapeNames in model.go (and to docs/models.md's table of shapes)", name)
		case ok && unnamed:
			t.Errorf("shape %s has the YAML name %q: remove it from unnamedShapes", name, yaml)
		}
	}
	for s := range unnamedShapes {
		if _, ok := consts[s]; !ok {
			t.Errorf("unnamedShapes: shape %d is not declared", s)
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "models.md"))
	if err != nil {
		t.Fatal(err)
	}
	for yaml := range shapeNames {
		if !strings.Contains(string(doc), "\n| `"+yaml+"` |") {
			t.Errorf("shape %q has no row in docs/models.md's table of shapes", yaml)
		}
	}
}

// Every shape is used by at least one built-in model, so that the analyzer's tests of the
// models (testdata/src/models) exercise its reader with a real library's API: a sink entry
// of the shape, or for Relative a generated: entry with relative setters. A shape for
// applications' own clients is used by a model file of the tests instead (userShapes).
func TestEveryShapeIsUsed(t *testing.T) {
	consts := shapeConstants(t)
	used := map[Shape][]string{}
	for _, lib := range Builtin() {
		for _, s := range lib.Sinks {
			used[s.Shape] = append(used[s.Shape], lib.Source)
		}
		for _, g := range lib.Generated {
			if len(g.Relative) > 0 {
				used[Relative] = append(used[Relative], lib.Source)
			}
		}
	}
	for _, s := range sortedShapes(consts) {
		name := consts[s]
		user, isUser := userShapes[s]
		switch {
		case len(used[s]) == 0 && !isUser:
			t.Errorf("shape %s is used by no built-in model (internal/model/builtin): write the entry that needs it, with its testdata", name)
		case len(used[s]) > 0 && isUser:
			t.Errorf("shape %s is used by %v: remove it from userShapes", name, used[s])
		case isUser:
			lib, err := LoadFile(filepath.Join("..", "..", "testdata", "src", filepath.FromSlash(user.file)))
			if err != nil {
				t.Errorf("userShapes: shape %s: %v", name, err)
				continue
			}
			found := false
			for _, sk := range lib.Sinks {
				found = found || sk.Shape == s
			}
			if !found {
				t.Errorf("userShapes: shape %s: testdata/src/%s has no sink of the shape", name, user.file)
			}
		}
	}
}

func sortedShapes(m map[Shape]string) []Shape {
	out := make([]Shape, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
