package apicheck

import (
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"entgo.io/ent/entc/gen"
	entload "entgo.io/ent/entc/load"
	"entgo.io/ent/schema/field"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/driver"
	"github.com/chokaq/idemlint/internal/model"
)

// entHandlers uses the generated client the way job handlers do. expectedEnt says which
// of them the ent model must flag, and with what.
const entHandlers = `package handlers

import (
	"context"

	"entgo.io/ent/dialect/sql"
	"github.com/hibiken/asynq"

	"ENTPKG"
)

var client *ent.Client

func Create(ctx context.Context, t *asynq.Task) error {
	return client.User.Create().SetEmail(t.Type()).Exec(ctx)
}

func CreateBulk(ctx context.Context, t *asynq.Task) error {
	return client.User.CreateBulk(client.User.Create().SetEmail(t.Type())).Exec(ctx)
}

func Upsert(ctx context.Context, t *asynq.Task) error {
	return client.User.Create().SetEmail(t.Type()).OnConflict(sql.ConflictColumns("email"), sql.ResolveWithNewValues()).Exec(ctx)
}

func UpsertColumns(ctx context.Context, t *asynq.Task) error {
	_, err := client.User.Create().SetEmail(t.Type()).OnConflictColumns("email").UpdateNewValues().ID(ctx)
	return err
}

func UpsertBulk(ctx context.Context, t *asynq.Task) error {
	return client.User.CreateBulk(client.User.Create().SetEmail(t.Type())).OnConflictColumns("email").DoNothing().Exec(ctx)
}

func UpsertAdd(ctx context.Context, t *asynq.Task) error {
	return client.User.Create().SetEmail(t.Type()).OnConflictColumns("email").AddBalance(5).Exec(ctx)
}

func UpsertUpdateFunc(ctx context.Context, t *asynq.Task) error {
	return client.User.Create().SetEmail(t.Type()).OnConflictColumns("email").Update(func(u *ent.UserUpsert) {
		u.AddBalance(5)
	}).Exec(ctx)
}

func UpdateMany(ctx context.Context, t *asynq.Task) error {
	_, err := client.User.Update().SetBalance(5).Save(ctx)
	return err
}

func UpdateSet(ctx context.Context, t *asynq.Task) error {
	return client.User.UpdateOneID(1).SetBalance(5).Exec(ctx)
}

func UpdateAdd(ctx context.Context, t *asynq.Task) error {
	return client.User.UpdateOneID(1).AddBalance(5).Exec(ctx)
}

func UpdateVersioned(ctx context.Context, t *asynq.Task) error {
	return client.User.UpdateOneID(1).SetBalance(5).AddVersion(1).Exec(ctx)
}

func Delete(ctx context.Context, t *asynq.Task) error {
	return client.User.DeleteOneID(1).Exec(ctx)
}
`

var expectedEnt = map[string]string{
	"Create":           "ent Create (INSERT) without conflict handling",
	"CreateBulk":       "ent Create (INSERT) without conflict handling",
	"UpsertAdd":        "ent relative update AddBalance adds to the stored value: not safe to repeat",
	"UpdateAdd":        "ent relative update AddBalance adds to the stored value: not safe to repeat",
	"UpsertUpdateFunc": "ent relative update AddBalance adds to the stored value: not safe to repeat",
}

// TestEntGeneratedCode generates a real ent client (entc/gen with the sql/upsert feature)
// for a one-type schema, checks that the ent model's generated-code names match its
// methods, and runs idemlint on handlers that use it. The ent model names generated
// methods, which exist in no library package, so this is where they are proved.
func TestEntGeneratedCode(t *testing.T) {
	// Inside this module, so that the generated code resolves entgo.io/ent from go.mod.
	dir, err := os.MkdirTemp("testdata", "entgen")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	entPkg := "github.com/chokaq/idemlint/apicheck/" + filepath.ToSlash(dir) + "/ent"

	var fields []*entload.Field
	for _, d := range []*field.Descriptor{
		field.String("email").Unique().Descriptor(),
		field.Int("balance").Descriptor(),
		field.Int("version").Descriptor(), // an optimistic-locking counter: AddVersion is no finding
	} {
		f, err := entload.NewField(d)
		if err != nil {
			t.Fatal(err)
		}
		fields = append(fields, f)
	}
	storage, err := gen.NewStorage("sql")
	if err != nil {
		t.Fatal(err)
	}
	g, err := gen.NewGraph(&gen.Config{
		Target:   filepath.Join(dir, "ent"),
		Package:  entPkg,
		Storage:  storage,
		Features: []gen.Feature{gen.FeatureUpsert},
	}, &entload.Schema{Name: "User", Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Gen(); err != nil {
		t.Fatal(err)
	}

	t.Run("names", func(t *testing.T) { checkGeneratedNames(t, "./"+filepath.ToSlash(filepath.Join(dir, "ent"))) })

	handlers := filepath.Join(dir, "handlers")
	if err := os.MkdirAll(handlers, 0o755); err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(entHandlers, "ENTPKG", entPkg, 1)
	if err := os.WriteFile(filepath.Join(handlers, "handlers.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := driver.Run(driver.Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./" + filepath.ToSlash(handlers)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range out.Run.Errors {
		t.Errorf("analysis error: %s: %s", e.Package, e.Message)
	}
	got := map[string]string{}
	for _, f := range out.Run.Findings {
		got[f.Handler] = f.Detail
		t.Logf("%s: %s", f.Handler, f.Message)
	}
	for h, want := range expectedEnt {
		if got[h] != want {
			t.Errorf("handler %s: finding %q, want %q", h, got[h], want)
		}
	}
	for h, detail := range got {
		if _, ok := expectedEnt[h]; !ok {
			t.Errorf("handler %s: unexpected finding %q", h, detail)
		}
	}
}

// checkGeneratedNames fails unless every chain guard name and relative prefix of the
// built-in generated-code models matches a method of the generated package, and no other
// method does.
func checkGeneratedNames(t *testing.T, pattern string) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps}, pattern)
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the generated package: %v %v", err, pkgs)
	}
	pkg := pkgs[0].Types
	ix := model.Compile(model.Builtin())
	guards, relative := map[string]bool{}, map[string]bool{}
	var matched []string
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		for m := range named.Methods() {
			e := ix.Lookup(m)
			switch {
			case e.GuardKind != "":
				guards[m.Name()] = true
			case e.Sink != nil && e.Sink.Shape == model.Relative:
				relative[m.Name()] = true
			default:
				continue
			}
			matched = append(matched, m.FullName())
		}
	}
	sort.Strings(matched)
	t.Logf("generated methods the models match: %s", strings.Join(matched, " "))
	for _, lib := range model.Builtin() {
		for _, g := range lib.Generated {
			for _, n := range g.ChainGuards {
				if !guards[n] {
					t.Errorf("%s: chain guard %s is no method of the generated package", lib.Source, n)
				}
			}
			for _, p := range g.Relative {
				found := false
				for n := range relative {
					found = found || strings.HasPrefix(n, p)
				}
				if !found {
					t.Errorf("%s: no generated method is a relative setter with prefix %s", lib.Source, p)
				}
			}
		}
	}
	// Only the numeric fields' Add setters of the builders are relative, not the
	// mutation's AddBalance (no result) or AddField. (AddVersion is one too; the sink's
	// judgement drops it as an optimistic-locking counter.)
	for n := range relative {
		if n != "AddBalance" && n != "AddVersion" {
			t.Errorf("method %s taken for a relative setter", n)
		}
	}
	if !slices.Contains(matched, "(*"+pkg.Path()+".UserUpdateOne).AddBalance") {
		t.Errorf("(*UserUpdateOne).AddBalance is not a relative setter")
	}
}
