package sinks_test

import (
	"go/ast"
	"go/types"
	"sort"
	"testing"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks"
	"github.com/chokaq/idemlint/internal/testpkg"
)

// shapesSrc calls, in a function UseSHAPE for each model.Shape constant SHAPE, a sink of
// that shape (modelled in shapesModels) in the way its reader must see as an effect: with
// no key, no conflict handling, a write's text. The sinks are the package's own functions
// and methods, so that the test needs no stub of a library.
const shapesSrc = `package p

import "strings"

type DB struct{}
type Batch struct{}
type Stmt struct{}
type Request struct{ Method, URL string }
type Params struct{ Amount int64; IdempotencyKey string }
type Option struct{}
type Query struct{}
type UpdateItemInput struct{ Table, UpdateExpression string }
type Expression struct{ SQL string }

func (*DB) Exec(query string, args ...any) error      { return nil }
func (*DB) Query(query string, args ...any) error     { return nil }
func (*DB) SendBatch(b *Batch) error                  { return nil }
func (*DB) CopyFrom(table string, rows [][]any) error { return nil }
func (*DB) Prepare(query string) *Stmt                { return nil }
func (*Stmt) Exec(args ...any) error                  { return nil }
func (*DB) Model(v any) *Query                        { return nil }
func (*Query) Create(v any) error                     { return nil }
func (*Query) Update(column string, value any) error  { return nil }
func Expr(sql string, args ...any) Expression         { return Expression{sql} }

func Do(req *Request) error                           { return nil }
func Post(url string, body string) error              { return nil }
func PostForm(url string, form map[string][]string) error { return nil }
func SendMail(to, body string) error                  { return nil }
func Charge(p *Params) error                          { return nil }
func Enqueue(task string, opts ...Option) error       { return nil }
func TaskID(id string) Option                         { return Option{} }
func PostJSON(url, body, key string) error            { return nil }
func PutObject(bucket, name, body string) error       { return nil }
func NewID() string                                   { return "" }
func UpdateItem(in *UpdateItemInput) error            { return nil }

// UserUpdate is a builder the library "generates" (a generated: entry over package strings).
type UserUpdate struct{ b strings.Builder }

func (u *UserUpdate) AddBalance(n int) *UserUpdate { return u }

func UseSQLExec(db *DB, id string)    { db.Exec("INSERT INTO orders (id) VALUES ($1)", id) }
func UseSQLQuery(db *DB, id string)   { db.Query("INSERT INTO orders (id) VALUES ($1) RETURNING id", id) }
func UseSQLBatch(db *DB)              { db.SendBatch(&Batch{}) }
func UseSQLCopy(db *DB)               { db.CopyFrom("orders", nil) }
func UseSQLPrepared(db *DB, id string) { db.Prepare("INSERT INTO orders (id) VALUES ($1)").Exec(id) }
func UseHTTPDo(id string)             { Do(&Request{Method: "POST", URL: "https://api.example.com/orders"}) }
func UseHTTPPost(id string)           { Post("https://api.example.com/orders", id) }
func UseHTTPForm(id string)           { PostForm("https://api.example.com/orders", map[string][]string{"id": {id}}) }
func UseSend(id string)               { SendMail("ops@example.com", id) }
func UseProviderParams(id string)     { Charge(&Params{Amount: 100}) }
func UseOptions(id string)            { Enqueue("email:" + id) }
func UseKeyArg(id string)             { PostJSON("https://api.example.com/orders", id, "") }
func UseNameArg(id string)            { PutObject("exports", "export-"+NewID(), id) }
func UseBuilder(db *DB, id string)    { db.Model(id).Create(id) }
func UseRelative(u *UserUpdate)       { u.AddBalance(5) }
func UseUpdateExpression(id string)   { UpdateItem(&UpdateItemInput{Table: id, UpdateExpression: "ADD visits :one"}) }
func UseUpdateValues(db *DB, id string) { db.Model(id).Update("balance", Expr("balance + ?", 5)) }
`

const shapesModels = `library: p
sinks:
  - func: "(*p.DB).Exec"
    kind: sql.write
    shape: sql.exec
    arg: 0
  - func: "(*p.DB).Query"
    kind: sql.write
    shape: sql.query
    arg: 0
  - func: "(*p.DB).SendBatch"
    kind: sql.write
    shape: sql.batch
    arg: 0
  - func: "(*p.DB).CopyFrom"
    kind: sql.write
    shape: sql.copy
  - func: "(*p.Stmt).Exec"
    kind: sql.write
    shape: sql.prepared
  - func: "p.Do"
    kind: http.write
    shape: http.do
    arg: 0
  - func: "p.Post"
    kind: http.write
    shape: http.post
    arg: 1
    url_arg: 0
  - func: "p.PostForm"
    kind: http.write
    shape: http.form
    arg: 1
    url_arg: 0
  - func: "p.SendMail"
    kind: email.send
    shape: send
  - func: "p.Charge"
    kind: payment
    shape: provider.params
    arg: 0
  - func: "p.Enqueue"
    kind: publish
    shape: options
  - func: "p.PostJSON"
    kind: http.write
    shape: key.arg
    arg: 2
  - func: "p.PutObject"
    kind: store.write
    shape: name.arg
    arg: 1
  - func: "(*p.Query).Create"
    kind: sql.write
    shape: builder
  - func: "p.UpdateItem"
    kind: store.write
    shape: update.expression
    arg: 0
    field: "p.UpdateItemInput.UpdateExpression"
  - func: "(*p.Query).Update"
    kind: sql.write
    shape: update.values
    arg: 0
key_fields: ["p.Params.IdempotencyKey"]
key_options: ["p.TaskID"]
unstable: ["p.NewID"]
sql_exprs: ["p.Expr"]
generated:
  - imports: strings
    kind: sql.write
    relative: [Add]
`

// Every model.Shape has a reader in the sinks stage: for each shape constant SHAPE (read
// from the model package's types, so a new one needs no list here), the call in UseSHAPE of
// shapesSrc is of a sink the model entries give that shape, and Judge.Eval makes of it an
// unprotected effect of the sink's kind. A shape without a case here, or whose reader
// Eval does not dispatch to (nil, the answer for a call without effect), fails by name.
func TestEveryShapeHasAReader(t *testing.T) {
	p := testpkg.Check(t, "p", shapesSrc)
	lib, err := model.Parse("shapes.yml", []byte(shapesModels))
	if err != nil {
		t.Fatal(err)
	}
	j := &sinks.Judge{Defs: defuse.Build(p.Pkg, p.Info, []*ast.File{p.File}), Models: model.NewEntries(model.Compile([]model.Library{lib})), Fset: p.Fset}

	consts := testpkg.Constants(t, "github.com/chokaq/idemlint/internal/model", "Shape")
	names := make([]string, 0, len(consts))
	for name := range consts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		shape := model.Shape(consts[name])
		var decl *ast.FuncDecl
		for _, d := range p.File.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Use"+name {
				decl = fd
			}
		}
		if decl == nil {
			t.Errorf("shape %s: shapesSrc has no function Use%s calling a sink of the shape (and shapesModels no sink entry of it): add them, with the shape's reader in Judge.Eval", name, name)
			continue
		}
		fn := p.Info.Defs[decl.Name].(*types.Func)
		sc := sinks.Scope{Name: decl.Name.Name, Func: fn, Params: map[*types.Var]bool{}}
		for v := range fn.Signature().Params().Variables() {
			sc.Params[v] = true
		}
		var call *ast.CallExpr
		var sink *model.Sink
		var callee *types.Func
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || sink != nil {
				return sink == nil
			}
			if f, _ := typeutil.Callee(p.Info, c).(*types.Func); f != nil {
				if e := j.Models.Of(f); e.Sink != nil {
					call, sink, callee = c, e.Sink, f
				}
			}
			return sink == nil
		})
		switch {
		case sink == nil:
			t.Errorf("shape %s: Use%s calls no modelled sink", name, name)
			continue
		case sink.Shape != shape:
			t.Errorf("shape %s: Use%s calls %s, a sink of shape %d", name, name, callee.FullName(), sink.Shape)
			continue
		}
		e := j.Eval(call, sink, callee, sc)
		switch {
		case e == nil:
			t.Errorf("shape %s: Judge.Eval of %s in Use%s gives no effect: is the shape's reader missing from Judge.Eval?", name, callee.FullName(), name)
		case e.Kind != sink.Kind || e.State != effect.Unprotected:
			t.Errorf("shape %s: Judge.Eval of %s in Use%s = %s %v (%s), want an unprotected %s", name, callee.FullName(), name, e.Kind, e.State, e.Detail, sink.Kind)
		default:
			t.Logf("shape %s: %s", name, e.Detail)
		}
	}
}
