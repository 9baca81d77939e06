package model

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
)

// Packages indexes type-checked packages by normalized import path (see Normalize), for
// Resolve.
type Packages map[string]*types.Package

// Add adds pkg and, transitively, every package it imports.
func (ps Packages) Add(pkg *types.Package) {
	key := Normalize(pkg.Path())
	if _, seen := ps[key]; seen {
		return
	}
	ps[key] = pkg
	for _, imp := range pkg.Imports() {
		ps.Add(imp)
	}
}

// Resolve returns the object a model's full name denotes among pkgs. The forms are those of
// go/types: "pkg.Name" for a package-level object (generic functions by their origin name),
// "pkg.*" for any function of a package (returned as a *types.PkgName), "pkg.Type.Field"
// for a field the struct declares itself, and "(pkg.Type).M" or "(*pkg.Type).M" for a
// method exactly as (*types.Func).FullName prints it; a generic receiver may carry its type
// parameters ("(*pkg.T[X]).M"). Major-version suffixes match loosely, as everywhere.
func Resolve(pkgs Packages, name string) (types.Object, error) {
	if strings.HasPrefix(name, "(") {
		return resolveMethod(pkgs, name)
	}
	pkg, rest, err := splitPackage(pkgs, name)
	if err != nil {
		return nil, err
	}
	if rest == "*" {
		return types.NewPkgName(token.NoPos, nil, pkg.Name(), pkg), nil
	}
	typeName, field, isField := strings.Cut(rest, ".")
	obj := pkg.Scope().Lookup(typeName)
	if obj == nil {
		return nil, fmt.Errorf("%s: package %s has no %s", name, pkg.Path(), typeName)
	}
	if !isField {
		return obj, nil
	}
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return nil, fmt.Errorf("%s: %s is not a type", name, typeName)
	}
	if st, ok := tn.Type().Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Name() == field {
				return st.Field(i), nil
			}
		}
	}
	switch found, index, _ := types.LookupFieldOrMethod(tn.Type(), true, pkg, field); {
	case found == nil:
		return nil, fmt.Errorf("%s: type %s has no field %s", name, typeName, field)
	case len(index) > 1:
		return nil, fmt.Errorf("%s: %s is promoted from an embedded field; name the type that declares it", name, field)
	default:
		return nil, fmt.Errorf("%s: %s is a method; write (%s).%s or (*%s).%s", name, field, pkg.Path()+"."+typeName, field, pkg.Path()+"."+typeName, field)
	}
}

func resolveMethod(pkgs Packages, name string) (types.Object, error) {
	end := strings.Index(name, ").")
	if end < 0 {
		return nil, fmt.Errorf("%s: want (pkg.Type).Method or (*pkg.Type).Method", name)
	}
	recv, method := name[1:end], name[end+2:]
	pkg, typeName, err := splitPackage(pkgs, stripTypeArgs(strings.TrimPrefix(recv, "*")))
	if err != nil {
		return nil, err
	}
	tn, ok := pkg.Scope().Lookup(typeName).(*types.TypeName)
	if !ok {
		return nil, fmt.Errorf("%s: package %s has no type %s", name, pkg.Path(), typeName)
	}
	obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, pkg, method)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil, fmt.Errorf("%s: type %s has no method %s", name, typeName, method)
	}
	// The analyzer compares full names, so a receiver of the wrong pointerness or a
	// promoted method would never match a call.
	if got := fn.FullName(); stripTypeArgs(Normalize(got)) != stripTypeArgs(Normalize(name)) {
		return nil, fmt.Errorf("%s: the method's full name is %s", name, got)
	}
	return fn, nil
}

// splitPackage splits s into the longest package path in pkgs that prefixes it and the
// rest; the longest, because paths can contain dots ("gopkg.in/yaml.v3").
func splitPackage(pkgs Packages, s string) (*types.Package, string, error) {
	ns := Normalize(s)
	var best *types.Package
	bestLen := 0
	for path, pkg := range pkgs {
		if strings.HasPrefix(ns, path+".") && len(path) > bestLen {
			best, bestLen = pkg, len(path)
		}
	}
	if best == nil {
		return nil, "", fmt.Errorf("%s: package not loaded", s)
	}
	return best, ns[bestLen+1:], nil
}

// stripTypeArgs removes bracketed type parameter or argument lists.
func stripTypeArgs(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
