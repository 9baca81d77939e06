package model

import (
	"embed"
	"path"
	"sort"
	"sync"
)

// builtinFS holds the built-in models, one YAML file per library (see docs/models.md).
//
//go:embed builtin/*.yml
var builtinFS embed.FS

var (
	builtinOnce sync.Once
	builtin     []Library
)

// Builtin returns the models idemlint ships with, one Library per file, in file-name order.
// The files are part of the binary and checked by tests, so an error here is a bug.
func Builtin() []Library {
	builtinOnce.Do(func() {
		entries, err := builtinFS.ReadDir("builtin")
		if err != nil {
			panic(err)
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			name := path.Join("builtin", e.Name())
			data, err := builtinFS.ReadFile(name)
			if err != nil {
				panic(err)
			}
			lib, err := Parse(name, data)
			if err != nil {
				panic("idemlint: built-in model " + err.Error())
			}
			builtin = append(builtin, lib)
		}
	})
	return builtin
}

// Names returns every full name the built-in models reference, sorted.
func Names() []string { return NamesOf(Builtin()) }
