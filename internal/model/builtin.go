package model

import (
	"embed"
	"path"
	"runtime"
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
// The files are part of the binary and checked by tests, so an error here is a bug. Every
// run reads them, a warm one too: they are decoded on every CPU, each file once (parseBuiltin).
func Builtin() []Library {
	builtinOnce.Do(func() {
		entries, err := builtinFS.ReadDir("builtin")
		if err != nil {
			panic(err)
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		libs := make([]Library, len(entries))
		work := make(chan int)
		var wg sync.WaitGroup
		for range min(runtime.GOMAXPROCS(0), len(entries)) {
			wg.Go(func() {
				for i := range work {
					libs[i] = parseBuiltin(path.Join("builtin", entries[i].Name()))
				}
			})
		}
		for i := range entries {
			work <- i
		}
		close(work)
		wg.Wait()
		builtin = libs
	})
	return builtin
}

// parseBuiltin is Parse for a built-in model file, which models something and has no
// error: it decodes the file once, where Parse also parses it into a syntax tree for the
// places of errors. A file with a problem is read by Parse, for the message.
func parseBuiltin(name string) Library {
	data, err := builtinFS.ReadFile(name)
	if err != nil {
		panic(err)
	}
	var f File
	if err := decode(data, &f); err == nil {
		if lib, problems := f.library(); len(problems) == 0 {
			lib.Source = name
			return lib
		}
	}
	if _, err := Parse(name, data); err != nil {
		panic("idemlint: built-in model " + err.Error())
	}
	panic("idemlint: built-in model " + name + " does not decode the way Parse reads it")
}

// Names returns every full name the built-in models reference, sorted (apicheck checks each
// against the real libraries).
func Names() []string { return NamesOf(Builtin()) }
