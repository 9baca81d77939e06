package apicheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"
)

// partialInterfaces are stub interfaces allowed to declare only some of the
// real interface's methods, each with the reason.
var partialInterfaces = map[string]string{
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver.Conn": "the connection handlers hold; the stub declares the " +
		"queries, batches and inserts the models and tests name, the real one also server version, contributors and stats",
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver.Rows": "the stub declares iteration and scanning; the real one " +
		"also column types and totals",
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver.Batch": "the stub declares appending and sending; the real one " +
		"also column access over the library's column package",
	"github.com/riverqueue/river/riverdriver.Driver": "only a constraint and parameter type in river's signatures; " +
		"the full interface drags in the driver executor API, and no checked code implements it",
	"github.com/riverqueue/river/riverdriver.ExecutorTx": "mentioned only by Driver's methods; " +
		"the real one embeds the whole Executor interface",
	"github.com/redis/go-redis/v9.Cmder": "named only by cmdable's func type; the real interface has unexported " +
		"methods over go-redis's internal packages, which no checked code implements",
	"github.com/redis/go-redis/v9.UniversalClient": "the client interface handlers hold; the real one has the whole " +
		"command set, the stub the commands the models and tests name",
	"github.com/redis/go-redis/v9.Cmdable":          "embeds the stub's command groups; the real one embeds twenty of them",
	"github.com/redis/go-redis/v9.GenericCmdable":   "declares the commands the tests call (Del) out of dozens",
	"github.com/redis/go-redis/v9.StringCmdable":    "declares the commands the models name (INCR, SETNX ...) out of dozens",
	"github.com/redis/go-redis/v9.HashCmdable":      "declares the commands the models name (HINCRBY, HSETNX ...) out of dozens",
	"github.com/redis/go-redis/v9.ListCmdable":      "declares the commands the models name (LPUSH, RPUSH ...) out of dozens",
	"github.com/redis/go-redis/v9.SortedSetCmdable": "declares the command the models name (ZINCRBY) out of dozens",
	"github.com/redis/go-redis/v9.StreamCmdable":    "declares the commands the models name (XADD, XREADGROUP, XACK, XCLAIM, XAUTOCLAIM) out of dozens",
	"github.com/redis/go-redis/v9.SetCmdable":       "declares the command the models name (SADD) out of dozens",
	"github.com/redis/go-redis/v9.PubSubCmdable":    "declares the commands the models name (PUBLISH, SPUBLISH) out of a handful",
	"github.com/redis/rueidis.Client": "the client handlers hold; the stub declares the builder, Do and Receive the " +
		"models and tests name, the real one also client-side caching, streaming replies and dedicated connections",
	"github.com/valkey-io/valkey-go.Client": "the client handlers hold; the stub declares the builder, Do and Receive the " +
		"models and tests name, the real one also client-side caching, streaming replies and dedicated connections",
	"github.com/nats-io/nats.go.JetStream": "the legacy JetStream API; the stub declares the publishes, " +
		"subscriptions and the pull subscription the models and tests name, the real one also async publishing",
	"github.com/nats-io/nats.go.JetStreamContext": "embeds the stub's JetStream; the real one also embeds the " +
		"stream, key-value and object store managers, which no model names",
	"github.com/aws/aws-sdk-go/service/sqs/sqsiface.SQSAPI": "the interface v1 code holds the SQS client as; the stub " +
		"declares the sends and receives the model and tests name, the real one every SQS operation in three forms",
	"github.com/labstack/echo/v4.Context": "an echo handler's parameter, by which a webhook's HTTP handler is " +
		"known; the stub declares the request accessor the tests call, the real one some forty methods",
	"github.com/apache/pulsar-client-go/pulsar.Consumer": "the consumer handlers hold; the stub declares the " +
		"receives and acknowledgements the model and tests name, the real one also seeks, unsubscribes and reconsumes",
	"github.com/apache/pulsar-client-go/pulsar.Message": "the received message; the stub declares the accessors the " +
		"tests read, the real one also schema, replication and encryption details",
	"github.com/apache/pulsar-client-go/pulsar.MessageID": "the stub declares the accessors the tests read " +
		"(a sequence id made from the entry id), the real one also batch and partition indexes",
	"github.com/apache/pulsar-client-go/pulsar.Producer": "the stub declares the sends the model names, the real " +
		"one also FlushWithCtx and LastSequenceID",
	"entgo.io/ent.Mutation": "only the parameter type of Mutator.Mutate, which the ent model names; " +
		"the real interface has some twenty field and edge methods the test client need not implement",
}

// TestStubsMatchRealAPI fails listing every way a stub differs from the real
// package with the same import path.
func TestStubsMatchRealAPI(t *testing.T) {
	u := loadUniverse(t)
	if len(u.stubs) == 0 {
		t.Fatal("no stub packages found under ../testdata/src")
	}
	paths := make([]string, 0, len(u.stubs))
	for p := range u.stubs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		for _, diff := range compare(u.stubs[p], u.real[p], partialInterfaces) {
			t.Error(diff)
		}
	}
	t.Logf("compared %d stub packages: %s", len(paths), strings.Join(paths, " "))

	// An exemption for a name that is no longer a stub interface would hide
	// nothing, but would mislead whoever reads the list.
	for id := range partialInterfaces {
		obj, err := resolveName(u.stubs, id)
		if err != nil || !types.IsInterface(obj.Type()) {
			t.Errorf("partialInterfaces: %s is not a stub interface", id)
		}
	}
}

// compare returns every difference between stub and real: each of stub's
// exported objects (and each unexported type with exported methods) must
// exist in real with the same kind and type; see compareType for types.
func compare(stub, real *types.Package, partial map[string]string) []string {
	var out []string
	report := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }

	if stub.Name() != real.Name() {
		report("stub package %s is named %s, real %s", stub.Path(), stub.Name(), real.Name())
	}
	for _, name := range stub.Scope().Names() {
		so := stub.Scope().Lookup(name)
		if tn, ok := so.(*types.TypeName); !so.Exported() && !(ok && hasExportedMethods(tn)) {
			continue
		}
		id := stub.Path() + "." + name
		ro := real.Scope().Lookup(name)
		if ro == nil {
			report("stub %s: not in the real package", id)
			continue
		}
		if sk, rk := kindOf(so), kindOf(ro); sk != rk {
			report("stub %s: is a %s, real is a %s", id, sk, rk)
			continue
		}
		switch so := so.(type) {
		case *types.Func:
			if s, r := funcString(so), funcString(ro.(*types.Func)); s != r {
				report("stub %s: signature %s differs from real %s", id, s, r)
			}
		case *types.Var:
			if s, r := typeString(so.Type()), typeString(ro.Type()); s != r {
				report("stub %s: type %s differs from real %s", id, s, r)
			}
		case *types.Const:
			rc := ro.(*types.Const)
			if s, r := typeString(so.Type()), typeString(rc.Type()); s != r {
				report("stub %s: type %s differs from real %s", id, s, r)
			} else if s, r := so.Val().ExactString(), rc.Val().ExactString(); s != r {
				report("stub %s: value %s differs from real %s", id, s, r)
			}
		case *types.TypeName:
			compareType(report, id, so, ro.(*types.TypeName), partial[id] != "")
		}
	}
	return out
}

// compareType compares a type's parameters and underlying type: the fields a
// stub struct declares must exist with the same type; a stub interface must
// have exactly the real method set (so "implements" answers the same) unless
// it is partial; anything else must match as a whole. Methods the stub
// declares must be declared on the real type too, with the same receiver,
// because the linter matches them by full name.
func compareType(report func(string, ...any), id string, so, ro *types.TypeName, partial bool) {
	if so.IsAlias() {
		if s, r := typeString(types.Unalias(so.Type())), typeString(types.Unalias(ro.Type())); s != r {
			report("stub %s: aliases %s, real aliases %s", id, s, r)
		}
		return
	}
	sn, rn := so.Type().(*types.Named), ro.Type().(*types.Named)
	if s, r := tparamString(sn.TypeParams()), tparamString(rn.TypeParams()); s != r {
		report("stub %s: type parameters %s differ from real %s", id, s, r)
	}

	switch su := sn.Underlying().(type) {
	case *types.Struct:
		ru, ok := rn.Underlying().(*types.Struct)
		if !ok {
			report("stub %s: is a struct, real is %s", id, typeString(rn.Underlying()))
			break
		}
		for i := range su.NumFields() {
			f := su.Field(i)
			if !f.Exported() {
				continue
			}
			rf := fieldNamed(ru, f.Name())
			switch {
			case rf == nil:
				report("stub %s: field %s not in the real struct", id, f.Name())
			case f.Embedded() != rf.Embedded():
				report("stub %s: field %s embedded=%t, real embedded=%t", id, f.Name(), f.Embedded(), rf.Embedded())
			case typeString(f.Type()) != typeString(rf.Type()):
				report("stub %s: field %s has type %s, real %s", id, f.Name(), typeString(f.Type()), typeString(rf.Type()))
			}
		}
	case *types.Interface:
		ri, ok := rn.Underlying().(*types.Interface)
		if !ok {
			report("stub %s: is an interface, real is %s", id, typeString(rn.Underlying()))
			break
		}
		if !su.IsMethodSet() || !ri.IsMethodSet() { // constraint with type terms
			if s, r := typeString(su), typeString(ri); s != r {
				report("stub %s: constraint %s differs from real %s", id, s, r)
			}
			break
		}
		for i := range su.NumMethods() {
			m := su.Method(i)
			rm := methodNamed(ri, m.Name())
			if rm == nil {
				report("stub %s: method %s not in the real interface", id, m.Name())
			} else if s, r := funcString(m), funcString(rm); s != r {
				report("stub %s: method %s has signature %s, real %s", id, m.Name(), s, r)
			}
		}
		if partial {
			break
		}
		for i := range ri.NumMethods() {
			if rm := ri.Method(i); methodNamed(su, rm.Name()) == nil {
				report("stub %s: lacks method %s%s of the real interface", id, rm.Name(), funcString(rm)[len("func"):])
			}
		}
	default:
		if s, r := typeString(su), typeString(rn.Underlying()); s != r {
			report("stub %s: underlying type %s differs from real %s", id, s, r)
		}
	}

	for i := range sn.NumMethods() {
		m := sn.Method(i)
		if !m.Exported() {
			continue
		}
		var rm *types.Func
		for j := range rn.NumMethods() {
			if rn.Method(j).Name() == m.Name() {
				rm = rn.Method(j)
			}
		}
		if rm == nil {
			if obj, _, _ := types.LookupFieldOrMethod(rn, true, rn.Obj().Pkg(), m.Name()); obj != nil {
				report("stub %s: real %s is not declared on the type but promoted (%s)", m.FullName(), m.Name(), objString(obj))
			} else {
				report("stub %s: no such method on the real type", m.FullName())
			}
			continue
		}
		if m.FullName() != rm.FullName() {
			report("stub %s: real method is %s", m.FullName(), rm.FullName())
		}
		if s, r := funcString(m), funcString(rm); s != r {
			report("stub %s: signature %s differs from real %s", m.FullName(), s, r)
		}
	}
}

func hasExportedMethods(tn *types.TypeName) bool {
	if n, ok := tn.Type().(*types.Named); ok {
		for i := range n.NumMethods() {
			if n.Method(i).Exported() {
				return true
			}
		}
	}
	return false
}

func kindOf(obj types.Object) string {
	switch obj := obj.(type) {
	case *types.Func:
		return "func"
	case *types.Var:
		return "var"
	case *types.Const:
		return "const"
	case *types.TypeName:
		if obj.IsAlias() {
			return "type alias"
		}
		return "type"
	}
	return fmt.Sprintf("%T", obj)
}

func fieldNamed(s *types.Struct, name string) *types.Var {
	for i := range s.NumFields() {
		if s.Field(i).Name() == name {
			return s.Field(i)
		}
	}
	return nil
}

func methodNamed(iface *types.Interface, name string) *types.Func {
	for i := range iface.NumMethods() {
		if iface.Method(i).Name() == name {
			return iface.Method(i)
		}
	}
	return nil
}

func objString(obj types.Object) string {
	if f, ok := obj.(*types.Func); ok {
		return f.FullName()
	}
	return types.ObjectString(obj, qualifier)
}

// qualifier prints full package paths, so that a stub and a real type print
// the same exactly when they have the same import path and name.
func qualifier(p *types.Package) string { return p.Path() }

// typeString prints t for comparison, without parameter names (which stubs
// may change) and with the predeclared alias any spelled as interface{}, so
// the two spellings compare equal.
func typeString(t types.Type) string { return types.TypeString(anon(t), qualifier) }

// funcString prints a function's type parameters and signature, but not its
// receiver, which the callers compare by full name.
func funcString(f *types.Func) string {
	sig := f.Type().(*types.Signature)
	return "func" + tparamString(sig.TypeParams()) + strings.TrimPrefix(typeString(sig), "func")
}

// tparamString prints a type parameter list with constraints, "" if empty.
func tparamString(list *types.TypeParamList) string {
	if list.Len() == 0 {
		return ""
	}
	var parts []string
	for i := range list.Len() {
		tp := list.At(i)
		parts = append(parts, tp.Obj().Name()+" "+typeString(tp.Constraint()))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// anon rebuilds the function types in t with unnamed parameters and without
// type parameters (funcString prints those). Named types are left alone: they
// print by name.
func anon(t types.Type) types.Type {
	switch t := t.(type) {
	case *types.Alias:
		if t.Obj().Pkg() == nil { // any
			return anon(types.Unalias(t))
		}
	case *types.Signature:
		tuple := func(vars *types.Tuple) *types.Tuple {
			var out []*types.Var
			for v := range vars.Variables() {
				out = append(out, types.NewParam(token.NoPos, nil, "", anon(v.Type())))
			}
			return types.NewTuple(out...)
		}
		return types.NewSignatureType(nil, nil, nil, tuple(t.Params()), tuple(t.Results()), t.Variadic())
	case *types.Interface:
		// The universe's empty interface prints as "any" even when not
		// reached through the alias; a fresh one prints as interface{}.
		if t.Empty() && t.IsMethodSet() {
			return types.NewInterfaceType(nil, nil)
		}
	case *types.Pointer:
		return types.NewPointer(anon(t.Elem()))
	case *types.Slice:
		return types.NewSlice(anon(t.Elem()))
	case *types.Array:
		return types.NewArray(anon(t.Elem()), t.Len())
	case *types.Map:
		return types.NewMap(anon(t.Key()), anon(t.Elem()))
	case *types.Chan:
		return types.NewChan(t.Dir(), anon(t.Elem()))
	}
	return t
}

// TestCompareReportsMismatches runs compare on two small packages with the
// same path, so that the check itself is tested against each kind of
// difference, and against differences it must ignore (parameter names, any
// versus interface{}, extra real fields and methods).
func TestCompareReportsMismatches(t *testing.T) {
	const stubSrc = `package p
type H interface{ Do(int) error }
type F func(x int) error
type S struct{ A int; B string; C any }
func (s *S) M(a int) {}
func (s S) N() {}
func G[T any](x T) T { return x }
func Missing() {}
var V int
type Partial interface{ A() }
type E struct{ S }
func Same(a int, f func(ctx int) error, xs ...any) (n int, err error) { return 0, nil }
`
	const realSrc = `package p
type H interface{ Do(int) error; Undo() }
type F func(string) error
type S struct{ A int; B int; C interface{}; D bool }
func (s S) M(a int) {}
func (s S) N() {}
func (s S) Extra() {}
func G[T comparable](x T) T { return x }
const V = 1
type Partial interface{ A(); B() }
type E struct{ *S }
func Same(int, func(int) error, ...interface{}) (int, error) { return 0, nil }
`
	check := func(src string) *types.Package {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := new(types.Config).Check("example.com/p", fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return pkg
	}
	got := compare(check(stubSrc), check(realSrc), map[string]string{"example.com/p.Partial": "test"})
	want := []string{
		"stub example.com/p.E: field S has type example.com/p.S, real *example.com/p.S",
		"stub example.com/p.F: underlying type func(int) error differs from real func(string) error",
		"stub example.com/p.G: signature func[T interface{}](T) T differs from real func[T comparable](T) T",
		"stub example.com/p.H: lacks method Undo() of the real interface",
		"stub example.com/p.Missing: not in the real package",
		"stub example.com/p.S: field B has type string, real int",
		"stub (*example.com/p.S).M: real method is (example.com/p.S).M",
		"stub example.com/p.V: is a var, real is a const",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("compare reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
