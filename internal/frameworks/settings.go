package frameworks

import (
	"go/ast"
	"go/constant"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
)

// Retries are the retry settings one package gives jobs.
type Retries struct {
	Own []JobRetry // the largest count per job, sorted: exported as a RetryFact
	// CustomSchedule: the package sets its own retry delays; horizons are not judged.
	CustomSchedule bool
	// Unique are the River args types ("pkg/path.Type", sorted) whose InsertOpts method
	// returns UniqueOpts with ByArgs: true: River inserts no second job with the same
	// args while one is kept (exported in the RetryFact).
	Unique []string
	// UniqueActive are the River args types whose UniqueOpts are by args only while an
	// earlier job is active: a ByState that leaves out completed (sorted; exported in the
	// RetryFact). A repeat of the producer after the first job completed inserts another.
	UniqueActive []string
}

// Imports reports whether pkg imports asynq or River, and whether it imports the runtime
// middleware: only such packages pay for the walks of this package.
func Imports(pkg *types.Package) (framework, middleware bool) {
	for _, imp := range pkg.Imports() {
		switch path := model.Normalize(imp.Path()); {
		case path == AsynqPath || path == RiverPath:
			framework = true
		case model.InMiddleware(path):
			middleware = true
		}
	}
	return framework, middleware
}

// CollectRetries reads a package's retry settings: asynq.MaxRetry(n) given to NewTask or
// Enqueue with a task type in view, River InsertOpts{MaxAttempts: n} returned by an args
// type's InsertOpts method or given to Insert, and River Config{MaxAttempts: n}.
func CollectRetries(defs *defuse.Index, files []*ast.File) Retries {
	c := collector{defs: defs, best: map[[3]string]int{}, asynqSet: map[string]bool{}, decls: map[*types.Func]*ast.FuncDecl{}}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				if fn, ok := defs.Info.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, c.visit)
	}
	for k, n := range c.best {
		if k[2] == "unset" && k[0] == Asynq && c.asynqSet[k[1]] {
			continue // NewTask leaves it, an Enqueue of the task type here sets it
		}
		c.rs.Own = append(c.rs.Own, JobRetry{Framework: k[0], Job: k[1], Count: n, Unset: k[2] == "unset", ArgsDefault: k[2] == "args"})
	}
	sortRetries(c.rs.Own)
	sort.Strings(c.rs.Unique)
	sort.Strings(c.rs.UniqueActive)
	return c.rs
}

type collector struct {
	defs *defuse.Index
	// best is the largest count per framework, job and kind of record ("": set at a site,
	// "args": the River args type's InsertOpts, "unset": a site that sets none).
	best map[[3]string]int
	// asynqSet holds the task types an Enqueue here gives MaxRetry.
	asynqSet map[string]bool
	// decls are the package's functions (not methods), for options a helper returns.
	decls map[*types.Func]*ast.FuncDecl
	rs    Retries
}

func (c *collector) record(framework, job string, n int) { c.recordAs(framework, job, "", n) }

func (c *collector) recordAs(framework, job, kind string, n int) {
	k := [3]string{framework, job, kind}
	if old, ok := c.best[k]; !ok || n > old {
		c.best[k] = n
	}
}

func (c *collector) visit(x ast.Node) bool {
	info := c.defs.Info
	switch x := x.(type) {
	case *ast.CallExpr:
		c.call(x)
	case *ast.FuncDecl:
		// func (A) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: n} }
		if x.Recv == nil || x.Name.Name != "InsertOpts" || x.Body == nil {
			return true
		}
		fn, _ := info.Defs[x.Name].(*types.Func)
		if fn == nil {
			return true
		}
		job := TypeName(fn.Signature().Recv().Type())
		unique, active := false, false
		ast.Inspect(x.Body, func(y ast.Node) bool {
			if lit, ok := y.(*ast.CompositeLit); ok {
				if n, ok := c.maxAttempts(lit); ok && job != "" {
					c.recordAs(River, job, "args", n)
				}
				switch c.uniqueByArgs(lit) {
				case uniqueKept:
					unique = true
				case uniqueWhileActive:
					active = true
				}
			}
			return true
		})
		switch {
		case job == "":
		case unique:
			c.rs.Unique = append(c.rs.Unique, job)
		case active:
			c.rs.UniqueActive = append(c.rs.UniqueActive, job)
		}
	case *ast.CompositeLit:
		switch TypeName(info.TypeOf(x)) {
		case RiverPath + ".Config":
			if n, ok := c.intField(x, "MaxAttempts"); ok {
				c.record(River, "", n)
			}
			if _, ok := defuse.FieldValue(x, "RetryPolicy"); ok {
				c.rs.CustomSchedule = true
			}
		case AsynqPath + ".Config":
			if _, ok := defuse.FieldValue(x, "RetryDelayFunc"); ok {
				c.rs.CustomSchedule = true
			}
		case RiverPath + ".InsertManyParams":
			// river.InsertManyParams{Args: A{}, InsertOpts: &river.InsertOpts{...}}
			args, _ := defuse.FieldValue(x, "Args")
			if job := TypeName(info.TypeOf(args)); job != "" {
				opts, _ := defuse.FieldValue(x, "InsertOpts")
				c.riverSite(job, opts)
			}
		}
	}
	return true
}

func (c *collector) call(x *ast.CallExpr) {
	fn, ok := typeutil.Callee(c.defs.Info, x).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return
	}
	if p := model.Normalize(fn.Pkg().Path()); p != AsynqPath && p != RiverPath {
		return
	}
	switch model.Normalize(fn.Origin().FullName()) {
	case AsynqPath + ".NewTask":
		if t := c.defs.ConstString(defuse.ArgAt(x, 0)); t != "" {
			if n, ok := c.maxRetry(x.Args[min(2, len(x.Args)):]); ok {
				c.record(Asynq, t, n)
			} else {
				c.recordAs(Asynq, t, "unset", 0)
			}
		}
	case "(*" + AsynqPath + ".Client).Enqueue", "(*" + AsynqPath + ".Client).EnqueueContext":
		i := 0
		if fn.Name() == "EnqueueContext" {
			i = 1
		}
		if t := c.taskType(defuse.ArgAt(x, i)); t != "" && len(x.Args) > i+1 {
			if n, ok := c.maxRetry(x.Args[i+1:]); ok {
				c.record(Asynq, t, n)
				c.asynqSet[t] = true
			}
		}
	case "(*" + RiverPath + ".Client[TTx]).Insert", "(*" + RiverPath + ".Client[TTx]).InsertTx":
		i := 1
		if fn.Name() == "InsertTx" {
			i = 2
		}
		if job := TypeName(c.defs.Info.TypeOf(defuse.ArgAt(x, i))); job != "" {
			c.riverSite(job, defuse.ArgAt(x, i+1))
		}
	}
}

// riverSite records a River insert of job with options opts (nil: none).
func (c *collector) riverSite(job string, opts ast.Expr) {
	if n, ok := c.maxAttempts(opts); ok {
		c.record(River, job, n)
		return
	}
	c.recordAs(River, job, "unset", 0)
}

// taskType returns the asynq task type of a task expression: asynq.NewTask("t", ...) there
// or assigned to the variable it names.
func (c *collector) taskType(e ast.Expr) string {
	if e == nil {
		return ""
	}
	if v := c.defs.RootVar(e); v != nil {
		e = c.defs.Def(v)
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return ""
	}
	fn, ok := typeutil.Callee(c.defs.Info, call).(*types.Func)
	if !ok || model.Normalize(fn.Origin().FullName()) != AsynqPath+".NewTask" {
		return ""
	}
	return c.defs.ConstString(defuse.ArgAt(call, 0))
}

// maxRetry finds asynq.MaxRetry(n) with a constant n among options.
func (c *collector) maxRetry(opts []ast.Expr) (int, bool) {
	for _, o := range opts {
		call, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			continue
		}
		fn, ok := typeutil.Callee(c.defs.Info, call).(*types.Func)
		if ok && model.Normalize(fn.Origin().FullName()) == AsynqPath+".MaxRetry" {
			if n, ok := c.defs.ConstInt(defuse.ArgAt(call, 0)); ok {
				return max(n, 0), true
			}
		}
	}
	return 0, false
}

// uniqueness is what a River InsertOpts literal says of unique insertion by args.
type uniqueness uint8

const (
	notUnique         uniqueness = iota
	uniqueKept                   // ByArgs, and completed jobs are kept in the check
	uniqueWhileActive            // ByArgs, but a ByState that leaves completed out
)

// uniqueByArgs reads lit, a river.InsertOpts literal whose UniqueOpts is a river.UniqueOpts
// literal with ByArgs: true (a constant), or a call of a function of the package whose
// every return is one (archiveUniqueOpts()): uniqueKept when every such ByState, when it
// is given, keeps completed jobs; uniqueWhileActive when one leaves them out (a uniqueness
// that ends when the first job completes lets a producer's redelivery insert its job
// again); notUnique otherwise.
func (c *collector) uniqueByArgs(lit *ast.CompositeLit) uniqueness {
	if TypeName(c.defs.Info.TypeOf(lit)) != RiverPath+".InsertOpts" {
		return notUnique
	}
	v, ok := defuse.FieldValue(lit, "UniqueOpts")
	if !ok {
		return notUnique
	}
	lits := c.returnedLits(v)
	out := uniqueKept
	for _, u := range lits {
		by, ok := defuse.FieldValue(u, "ByArgs")
		if !ok {
			return notUnique
		}
		if tv := c.defs.Info.Types[by]; tv.Value == nil || tv.Value.ExactString() != "true" {
			return notUnique
		}
		if states, ok := defuse.FieldValue(u, "ByState"); ok && !c.keepsCompleted(states) {
			out = uniqueWhileActive
		}
	}
	if len(lits) == 0 {
		return notUnique
	}
	return out
}

// returnedLits returns the composite literals e is: e itself, or the results of every
// return of the package's function e calls; nil when any is something else.
func (c *collector) returnedLits(e ast.Expr) []*ast.CompositeLit {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.CompositeLit); ok {
		return []*ast.CompositeLit{lit}
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn, _ := typeutil.Callee(c.defs.Info, call).(*types.Func)
	decl := c.decls[fn]
	if fn == nil || decl == nil || decl.Body == nil {
		return nil
	}
	var lits []*ast.CompositeLit
	ok = true
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			var lit *ast.CompositeLit
			if len(x.Results) == 1 {
				lit, _ = ast.Unparen(x.Results[0]).(*ast.CompositeLit)
			}
			ok = ok && lit != nil
			lits = append(lits, lit)
		}
		return true
	})
	if !ok {
		return nil
	}
	return lits
}

// keepsCompleted reports whether a ByState value is a literal list that holds
// rivertype.JobStateCompleted.
func (c *collector) keepsCompleted(states ast.Expr) bool {
	lit, ok := ast.Unparen(states).(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, elt := range lit.Elts {
		if tv := c.defs.Info.Types[elt]; tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == "completed" {
			return true
		}
	}
	return false
}

// maxAttempts reads MaxAttempts from a river.InsertOpts literal (or its address).
func (c *collector) maxAttempts(e ast.Expr) (int, bool) {
	if e == nil {
		return 0, false
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok || TypeName(c.defs.Info.TypeOf(lit)) != RiverPath+".InsertOpts" {
		return 0, false
	}
	return c.intField(lit, "MaxAttempts")
}

func (c *collector) intField(lit *ast.CompositeLit, name string) (int, bool) {
	v, ok := defuse.FieldValue(lit, name)
	if !ok {
		return 0, false
	}
	n, ok := c.defs.ConstInt(v)
	return n, ok && n > 0
}

// TypeName renders a (pointer to a) named type as "pkg/path.Type", major versions removed.
func TypeName(t types.Type) string {
	if t == nil {
		return ""
	}
	named, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	return model.Normalize(named.Obj().Pkg().Path()) + "." + named.Obj().Name()
}

// FrameworkOf names the framework whose jobs a middleware type serves: asynq for
// *idempotency.Middleware[*asynq.Task] and asynq.MiddlewareFunc, river for River's types.
func FrameworkOf(t types.Type) string { return frameworkOf(t, 0) }

func frameworkOf(t types.Type, depth int) string {
	named, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
	if !ok || depth > 2 {
		return ""
	}
	if p := named.Obj().Pkg(); p != nil {
		path := model.Normalize(p.Path())
		switch {
		case path == AsynqPath:
			return Asynq
		case path == RiverPath || strings.HasPrefix(path, RiverPath+"/"):
			return River
		}
	}
	for i := 0; i < named.TypeArgs().Len(); i++ {
		if f := frameworkOf(named.TypeArgs().At(i), depth+1); f != "" {
			return f
		}
	}
	return ""
}
