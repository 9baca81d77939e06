package model

import (
	"go/types"
	"testing"
)

// BenchmarkIndexSink is the per-callee lookup (the analyzer caches it per pass and function).
func BenchmarkIndexSink(b *testing.B) {
	ix := Compile(Builtin())
	pkg := types.NewPackage("github.com/jackc/pgx/v5/pgxpool", "pgxpool")
	tn := types.NewTypeName(0, pkg, "Pool", nil)
	named := types.NewNamed(tn, types.NewStruct(nil, nil), nil)
	recv := types.NewVar(0, pkg, "p", types.NewPointer(named))
	fn := types.NewFunc(0, pkg, "Exec", types.NewSignatureType(recv, nil, nil, nil, nil, false))
	other := types.NewFunc(0, types.NewPackage("example.com/app", "app"), "Helper", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	b.ReportAllocs()
	for b.Loop() {
		if ix.Lookup(fn).Sink == nil || ix.Lookup(other).Sink != nil {
			b.Fatal("wrong lookup")
		}
	}
}

func BenchmarkCompileBuiltin(b *testing.B) {
	libs := Builtin()
	b.ReportAllocs()
	for b.Loop() {
		Compile(libs)
	}
}
