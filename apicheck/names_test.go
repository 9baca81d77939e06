package apicheck

import (
	"fmt"
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
		if u.stubs[model.PackageOf(name)] == nil {
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

// resolveName resolves a model name in packages keyed by exact import path, through the
// analyzer's own resolver (model.Resolve), so this module tests the code that ships.
func resolveName(pkgs map[string]*types.Package, name string) (types.Object, error) {
	// Models match any major version, so the linter keys packages by their path without it;
	// the universe holds two majors of some modules (Pub/Sub v1 and v2): the one the name
	// spells wins.
	want := model.PackageOf(name)
	ps := model.Packages{}
	for _, p := range pkgs {
		k := model.Normalize(p.Path())
		if _, taken := ps[k]; !taken || p.Path() == want {
			ps[k] = p
		}
	}
	return model.Resolve(ps, name)
}

// receiverOrName returns the receiver of a method name, or name itself.
func receiverOrName(name string) string {
	if end := strings.Index(name, ")."); strings.HasPrefix(name, "(") && end > 0 {
		return name[1:end]
	}
	return name
}

// TestHeaderSettersTakeHeaders fails for a header setter whose real signature the analyzer
// cannot read: it takes the header's name and value (two strings) or one map of names to
// values.
func TestHeaderSettersTakeHeaders(t *testing.T) {
	u := loadUniverse(t)
	n := 0
	for _, lib := range model.Builtin() {
		for _, name := range lib.HeaderSetters {
			n++
			obj, err := resolveName(u.real, name)
			if err != nil {
				t.Error(err)
				continue
			}
			params := types.NewSignatureType(nil, nil, nil, obj.Type().(*types.Signature).Params(), nil, false)
			if got := typeString(params); got != "func(string, string)" && got != "func(map[string]string)" {
				t.Errorf("header setter %s is %s, want func(string, string) or func(map[string]string)", name, got)
			}
		}
	}
	if n == 0 {
		t.Error("no built-in model lists header_setters")
	}
}

// TestTextFieldsAreStrings fails for a condition field or an update.expression sink's field
// that is not a string or *string in the real package: the analyzer reads its text.
func TestTextFieldsAreStrings(t *testing.T) {
	u := loadUniverse(t)
	var fields []string
	for _, lib := range model.Builtin() {
		for _, c := range lib.ConditionFields {
			fields = append(fields, c.Field)
		}
		for _, s := range lib.Sinks {
			if s.Field != "" {
				fields = append(fields, s.Field)
			}
		}
	}
	if len(fields) == 0 {
		t.Fatal("no built-in model has condition_fields or an update.expression sink")
	}
	for _, name := range fields {
		obj, err := resolveName(u.real, name)
		if err != nil {
			t.Error(err)
			continue
		}
		if got := typeString(obj.Type()); got != "string" && got != "*string" {
			t.Errorf("%s has type %s, want string or *string", name, got)
		}
	}
}

// TestTopicArgsNameTopics fails for a sink or registration whose topic_arg is not, in the
// real package, a string (a subject, a task type pattern) or a message of the library's
// package that a function of that package makes from a string first argument (asynq's
// *Task, made by NewTask(typename string, ...)): the analyzer reads the topic there.
func TestTopicArgsNameTopics(t *testing.T) {
	u := loadUniverse(t)
	type named struct {
		name      string
		index     int
		typeTopic bool   // topic_type: the value's dynamic type names the topic
		field     string // topic_field: of each element of a batch
	}
	var args []named
	for _, lib := range model.Builtin() {
		for _, s := range lib.Sinks {
			if s.Topic > 0 {
				args = append(args, named{s.Func, s.Topic - 1, s.TopicType, s.TopicField})
			}
		}
		for _, r := range lib.Registrations {
			if r.Topic > 0 {
				args = append(args, named{r.Func, r.Topic - 1, false, ""})
			}
		}
	}
	if len(args) == 0 {
		t.Fatal("no built-in model names a topic_arg")
	}
	for _, a := range args {
		obj, err := resolveName(u.real, a.name)
		if err != nil {
			t.Error(err)
			continue
		}
		params := obj.Type().(*types.Signature).Params()
		if a.index >= params.Len() {
			t.Errorf("%s: topic_arg %d, but it has %d parameters", a.name, a.index, params.Len())
			continue
		}
		pt := params.At(a.index).Type()
		if a.typeTopic {
			if err := typeTopicArg(pt, a.field); err != nil {
				t.Errorf("%s: topic_arg %d with topic_type: %v", a.name, a.index, err)
			}
			continue
		}
		if typeString(pt) == "string" {
			continue
		}
		if !madeFromString(obj.Pkg(), pt) {
			t.Errorf("%s: topic_arg %d is %s, neither a string nor a message its package makes from a string", a.name, a.index, typeString(pt))
		}
	}
}

// typeTopicArg checks a topic_type argument: its dynamic type names the topic (a River
// job's args type), so its static type must be an interface the args types implement; with
// a field, it is a slice of structs whose field of that name is such an interface.
func typeTopicArg(t types.Type, field string) error {
	if field != "" {
		sl, ok := t.Underlying().(*types.Slice)
		if !ok {
			return fmt.Errorf("topic_field %s needs a slice, the parameter is %s", field, typeString(t))
		}
		elem := sl.Elem()
		if p, ok := elem.Underlying().(*types.Pointer); ok {
			elem = p.Elem()
		}
		st, ok := elem.Underlying().(*types.Struct)
		if !ok {
			return fmt.Errorf("topic_field %s needs a slice of structs, the parameter is %s", field, typeString(t))
		}
		var found types.Type
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Name() == field {
				found = st.Field(i).Type()
			}
		}
		if found == nil {
			return fmt.Errorf("%s has no field %s", typeString(elem), field)
		}
		t = found
	}
	if !types.IsInterface(t) {
		return fmt.Errorf("%s is not an interface, so its value's type cannot vary by job", typeString(t))
	}
	return nil
}

// madeFromString reports whether a function of pkg returns t and takes a string first.
func madeFromString(pkg *types.Package, t types.Type) bool {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() > 0 && typeString(sig.Params().At(0).Type()) == "string" &&
			sig.Results().Len() > 0 && types.Identical(sig.Results().At(0).Type(), t) {
			return true
		}
	}
	return false
}

// TestGateResultsMatch fails for a gate whose duplicate_field is not a bool field of the
// struct its real function's first result points to (River's JobInsertResult), or whose
// tx_arg is past its parameters: the analyzer reads the claim's failure there.
func TestGateResultsMatch(t *testing.T) {
	u := loadUniverse(t)
	checked := 0
	for _, lib := range model.Builtin() {
		for _, g := range lib.Gates {
			if g.DuplicateField == "" && g.TxArg == 0 {
				continue
			}
			checked++
			obj, err := resolveName(u.real, g.Func)
			if err != nil {
				t.Error(err)
				continue
			}
			sig := obj.Type().(*types.Signature)
			if g.TxArg > sig.Params().Len() {
				t.Errorf("%s: tx_arg %d, but it has %d parameters", g.Func, g.TxArg-1, sig.Params().Len())
			}
			if g.DuplicateField == "" {
				continue
			}
			if sig.Results().Len() == 0 {
				t.Errorf("%s: duplicate_field %s, but it has no result", g.Func, g.DuplicateField)
				continue
			}
			rt := sig.Results().At(0).Type()
			if p, ok := rt.(*types.Pointer); ok {
				rt = p.Elem()
			}
			st, ok := rt.Underlying().(*types.Struct)
			if !ok {
				t.Errorf("%s: duplicate_field %s, but its first result is %s, not a struct", g.Func, g.DuplicateField, typeString(sig.Results().At(0).Type()))
				continue
			}
			found := false
			for i := range st.NumFields() {
				if f := st.Field(i); f.Name() == g.DuplicateField {
					found = true
					if typeString(f.Type()) != "bool" {
						t.Errorf("%s: duplicate_field %s is %s, want bool", g.Func, g.DuplicateField, typeString(f.Type()))
					}
				}
			}
			if !found {
				t.Errorf("%s: its first result has no field %s", g.Func, g.DuplicateField)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no built-in gate has a duplicate_field or a tx_arg")
	}
}
