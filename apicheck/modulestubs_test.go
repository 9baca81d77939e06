package apicheck

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// The driver's test modules (testdata/modules) replace a library by a stub module of their
// own (asynqstub, kafkastub, amqpstub, ...): each of its packages must match the real
// package of the same import path as the testdata/src stubs do, or a test module could
// pass on an API the library does not have.
func TestModuleStubsMatchRealAPI(t *testing.T) {
	u := loadUniverse(t)
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "modules", "*", "*stub"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no stub modules found under ../testdata/modules")
	}
	checked := 0
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		mf, err := modfile.ParseLax("go.mod", data, nil)
		if err != nil || mf.Module == nil {
			t.Errorf("%s: go.mod names no module (%v)", dir, err)
			continue
		}
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: dir, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")}, "./...")
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		for _, p := range pkgs {
			for _, e := range p.Errors {
				t.Errorf("%s: %v", dir, e)
			}
			real := u.real[p.PkgPath]
			if real == nil {
				t.Errorf("%s: %s is in no real package apicheck loads: add it to imports.go", dir, p.PkgPath)
				continue
			}
			for _, diff := range compare(p.Types, real, partialInterfaces) {
				t.Errorf("%s: %s", dir, diff)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no stub module package compared")
	}
	t.Logf("compared %d packages of %d stub modules", checked, len(dirs))
}
