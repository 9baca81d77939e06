package apicheck

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/model"
)

// TestModelNamesResolve fails listing every full name in the built-in models
// that does not name an object of the real packages, or that names it
// differently from how the linter will see it.
func TestModelNamesResolve(t *testing.T) {
	u := loadUniverse(t)
	names := model.Names()
	if len(names) == 0 {
		t.Fatal("model.Names() is empty")
	}
	for _, name := range names {
		if _, err := resolveName(u.real, name); err != nil {
			t.Error(err)
		}
	}
}

// TestStubsCoverModelNames fails listing every model name in a stubbed
// package that the stub does not declare: the analyzer's tests could not
// exercise that part of the model.
func TestStubsCoverModelNames(t *testing.T) {
	u := loadUniverse(t)
	for _, name := range model.Names() {
		if _, _, err := splitPackage(u.stubs, strings.TrimPrefix(receiverOrName(name), "*")); err != nil {
			continue // standard library or not stubbed at all
		}
		if _, err := resolveName(u.stubs, name); err != nil {
			t.Errorf("stub lacks a model name: %v", err)
		}
	}
}

// TestResolveName checks resolveName on each name form, including names that
// look right but are not what (*types.Func).FullName prints.
func TestResolveName(t *testing.T) {
	u := loadUniverse(t)
	tests := []struct {
		name string
		kind string // of the object; "" if the name must not resolve
	}{
		{"github.com/stripe/stripe-go/v82/paymentintent.New", "func"},
		{"(*database/sql.DB).ExecContext", "func"},
		{"(github.com/jackc/pgx/v5.Tx).Exec", "func"},
		{"(*github.com/jackc/pgx/v5/pgxpool.Tx).Exec", "func"},
		{"(github.com/stripe/stripe-go/v82.v1PaymentIntentService).Create", "func"},
		{"(github.com/stripe/stripe-go/v82/paymentintent.Client).New", "func"},
		{"(*github.com/hibiken/asynq.ServeMux).HandleFunc", "func"},
		{"(github.com/hibiken/asynq.HandlerFunc).ProcessTask", "func"},
		{"(*github.com/riverqueue/river.Client[TTx]).InsertTx", "func"},
		{"(*github.com/riverqueue/river.Client).InsertTx", "func"},
		{"github.com/riverqueue/river.AddWorker", "func"},
		{"net/smtp.SendMail", "func"},
		{"github.com/hibiken/asynq.Handler", "type"},
		{"github.com/riverqueue/river.Job", "type"},
		{"github.com/stripe/stripe-go/v82.Params.IdempotencyKey", "var"},
		{"github.com/riverqueue/river.Job.Args", "var"},
		{"github.com/hibiken/asynq.SkipRetry", "var"},
		{"github.com/wneessen/go-mail.TypeTextPlain", "const"},
		{"math/rand.*", "package"},

		// Pointer receiver written for a value receiver, and the reverse.
		{"(*github.com/stripe/stripe-go/v82.v1PaymentIntentService).Create", ""},
		{"(*github.com/stripe/stripe-go/v82/paymentintent.Client).New", ""},
		{"(github.com/jackc/pgx/v5.Conn).Exec", ""},
		// Promoted members have the full name of the type that declares them.
		{"(*github.com/stripe/stripe-go/v82.PaymentIntentParams).SetIdempotencyKey", ""},
		{"github.com/stripe/stripe-go/v82.PaymentIntentParams.IdempotencyKey", ""},
		{"(github.com/riverqueue/river/rivertype.WorkerMiddleware).IsMiddleware", ""},
		{"github.com/riverqueue/river.Job.Kind", ""},
		// Instantiations, missing objects, unknown packages, bad forms.
		{"github.com/riverqueue/river.AddWorker[T]", ""},
		{"github.com/hibiken/asynq.NoSuchThing", ""},
		{"(*github.com/hibiken/asynq.ServeMux).NoSuchMethod", ""},
		{"example.com/unknown.F", ""},
		{"github.com/stripe/stripe-go/v82.Client.V1PaymentIntents.Create", ""},
		{"github.com/hibiken/asynq.NewTask.X", ""},
		{"(*github.com/hibiken/asynq.ServeMux.HandleFunc", ""},
	}
	for _, tt := range tests {
		obj, err := resolveName(u.real, tt.name)
		switch {
		case tt.kind == "" && err == nil:
			t.Errorf("resolveName(%q) = %v, want an error", tt.name, obj)
		case tt.kind != "" && err != nil:
			t.Errorf("resolveName(%q): %v", tt.name, err)
		case tt.kind != "" && objKind(obj) != tt.kind:
			t.Errorf("resolveName(%q) = %s %v, want a %s", tt.name, objKind(obj), obj, tt.kind)
		}
	}
}

func objKind(obj types.Object) string {
	if _, ok := obj.(*types.PkgName); ok {
		return "package"
	}
	return kindOf(obj)
}

// resolveName returns the object a model's full name denotes in pkgs (by
// import path). The forms are those of go/types: "pkg.Name" for a
// package-level object (generic functions by their origin name), "pkg.*" for
// any function of a package (returned as a *types.PkgName),
// "pkg.Type.Field" for a field the struct declares itself, and "(pkg.Type).M"
// or "(*pkg.Type).M" for a method exactly as (*types.Func).FullName prints
// it; a generic receiver may carry its type parameters ("(*pkg.T[X]).M").
func resolveName(pkgs map[string]*types.Package, name string) (types.Object, error) {
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
		return nil, fmt.Errorf("%s: %s is a %s, not a type", name, typeName, kindOf(obj))
	}
	if st, ok := tn.Type().Underlying().(*types.Struct); ok {
		if f := fieldNamed(st, field); f != nil {
			return f, nil
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

func resolveMethod(pkgs map[string]*types.Package, name string) (types.Object, error) {
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
	// The linter compares full names, so a receiver of the wrong pointerness
	// or a promoted method would never match a call.
	if got := fn.FullName(); stripTypeArgs(got) != stripTypeArgs(name) {
		return nil, fmt.Errorf("%s: the method's full name is %s", name, got)
	}
	return fn, nil
}

// splitPackage splits s into the longest package path in pkgs that prefixes
// it and the rest; the longest, because paths can contain dots
// ("gopkg.in/yaml.v3").
func splitPackage(pkgs map[string]*types.Package, s string) (*types.Package, string, error) {
	var best *types.Package
	for path, pkg := range pkgs {
		if strings.HasPrefix(s, path+".") && (best == nil || len(path) > len(best.Path())) {
			best = pkg
		}
	}
	if best == nil {
		return nil, "", fmt.Errorf("%s: no loaded package; add its import path to imports.go", s)
	}
	return best, s[len(best.Path())+1:], nil
}

// receiverOrName returns the receiver of a method name, or name itself.
func receiverOrName(name string) string {
	if end := strings.Index(name, ")."); strings.HasPrefix(name, "(") && end > 0 {
		return name[1:end]
	}
	return name
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
