package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// The ttl decision asks how long completions are kept. A completion that expires while the
// framework can still deliver the job again lets that delivery run it a second time, so an
// explicit middleware retention is compared with the retry horizon the code gives the jobs
// it serves: how long after the first attempt the last retry can start.
//
// The horizons are those of the frameworks' default retry schedules, taken from their
// sources; the jitter is left out (asynq only adds to its delays, River's ±10% is taken at
// its low end), so a reported retention is shorter than every possible schedule. A project
// with its own delay function (asynq Config.RetryDelayFunc, River Config.RetryPolicy) is
// not judged: its schedule is code, not a number.
const (
	asynqPath = "github.com/hibiken/asynq"
	riverPath = "github.com/riverqueue/river"
)

// asynqHorizon is the shortest time asynq's DefaultRetryDelayFunc spreads n retries over:
// retry k (from 0) waits k⁴ + 15 + rand(30)·(k+1) seconds.
func asynqHorizon(n int) time.Duration {
	var s float64
	for k := 0; k < n; k++ {
		f := float64(k)
		s += f*f*f*f + 15
	}
	return time.Duration(s * float64(time.Second))
}

// riverHorizon is the shortest time River's default retry policy spreads a job of m
// attempts over: after its e-th error the job waits e⁴ seconds, ±10%.
func riverHorizon(m int) time.Duration {
	var s float64
	for e := 1; e < m; e++ {
		f := float64(e)
		s += 0.9 * f * f * f * f
	}
	return time.Duration(s * float64(time.Second))
}

// retrySettings are the retry counts the package and its dependencies give jobs.
type retrySettings struct {
	own  []effect.JobRetry // set in this package: exported as a fact
	jobs []effect.JobRetry // own and the dependencies', read on first use (jobsInView)
	read bool
	// customSchedule: the package sets its own retry delays; horizons are not judged.
	customSchedule bool
}

// collectRetries reads the package's retry settings: asynq.MaxRetry(n) given to NewTask or
// Enqueue with a task type in view, River InsertOpts{MaxAttempts: n} returned by an args
// type's InsertOpts method or given to Insert, and River Config{MaxAttempts: n}.
func (a *analysis_) collectRetries() retrySettings {
	info := a.pass.TypesInfo
	var rs retrySettings
	best := map[[2]string]int{}
	record := func(framework, job string, n int) {
		k := [2]string{framework, job}
		if old, ok := best[k]; !ok || n > old {
			best[k] = n
		}
	}
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.CallExpr:
				fn, ok := typeutil.Callee(info, x).(*types.Func)
				if !ok || fn.Pkg() == nil {
					return true
				}
				if p := model.Normalize(fn.Pkg().Path()); p != asynqPath && p != riverPath {
					return true
				}
				switch model.Normalize(fn.Origin().FullName()) {
				case asynqPath + ".NewTask":
					if t := a.constString(argAt(x, 0)); t != "" && len(x.Args) > 2 {
						if n, ok := a.maxRetry(x.Args[2:]); ok {
							record("asynq", t, n)
						}
					}
				case "(*" + asynqPath + ".Client).Enqueue", "(*" + asynqPath + ".Client).EnqueueContext":
					i := 0
					if fn.Name() == "EnqueueContext" {
						i = 1
					}
					if t := a.taskType(argAt(x, i)); t != "" && len(x.Args) > i+1 {
						if n, ok := a.maxRetry(x.Args[i+1:]); ok {
							record("asynq", t, n)
						}
					}
				case "(*" + riverPath + ".Client[TTx]).Insert", "(*" + riverPath + ".Client[TTx]).InsertTx":
					i := 1
					if fn.Name() == "InsertTx" {
						i = 2
					}
					if n, ok := a.maxAttempts(argAt(x, i+1)); ok {
						if job := typeName(info.TypeOf(argAt(x, i))); job != "" {
							record("river", job, n)
						}
					}
				}
			case *ast.FuncDecl:
				// func (A) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: n} }
				if x.Recv == nil || x.Name.Name != "InsertOpts" || x.Body == nil {
					return true
				}
				fn, _ := info.Defs[x.Name].(*types.Func)
				if fn == nil {
					return true
				}
				job := typeName(fn.Signature().Recv().Type())
				ast.Inspect(x.Body, func(y ast.Node) bool {
					if lit, ok := y.(*ast.CompositeLit); ok {
						if n, ok := a.maxAttempts(lit); ok && job != "" {
							record("river", job, n)
						}
					}
					return true
				})
			case *ast.CompositeLit:
				switch typeName(info.TypeOf(x)) {
				case riverPath + ".Config":
					if n, ok := a.intField(x, "MaxAttempts"); ok {
						record("river", "", n)
					}
					if _, ok := fieldValue(x, "RetryPolicy"); ok {
						rs.customSchedule = true
					}
				case asynqPath + ".Config":
					if _, ok := fieldValue(x, "RetryDelayFunc"); ok {
						rs.customSchedule = true
					}
				}
			}
			return true
		})
	}
	for k, n := range best {
		rs.own = append(rs.own, effect.JobRetry{Framework: k[0], Job: k[1], Count: n})
	}
	sortRetries(rs.own)
	return rs
}

// retries exports the package's retry settings and checks its middleware retentions
// against them and those of its dependencies. Only packages that import a framework or the
// middleware pay for the walk.
func (a *analysis_) retries() {
	rs := &a.retrySet
	framework, middleware := false, false
	for _, imp := range a.pass.Pkg.Imports() {
		switch path := model.Normalize(imp.Path()); {
		case path == asynqPath || path == riverPath:
			framework = true
		case inMiddleware(path):
			middleware = true
		}
	}
	if framework {
		*rs = a.collectRetries()
		if len(rs.own) > 0 {
			a.pass.ExportPackageFact(&effect.RetryFact{Jobs: rs.own})
		}
	}
	if middleware {
		if jobs := a.jobsInView(); len(jobs) > 0 {
			a.checkRetention(jobs)
		}
	}
}

// jobsInView returns the retry settings of the package and its dependencies; none when the
// package sets its own retry schedule.
func (a *analysis_) jobsInView() []effect.JobRetry {
	rs := &a.retrySet
	if rs.read {
		return rs.jobs
	}
	rs.read = true
	if rs.customSchedule {
		return nil
	}
	rs.jobs = append(rs.jobs, rs.own...)
	for _, pf := range a.pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*effect.RetryFact); ok && pf.Package != a.pass.Pkg {
			rs.jobs = append(rs.jobs, f.Jobs...)
		}
	}
	return rs.jobs
}

// checkDeclaredTTL reports a //idemlint:decisions ttl= shorter than the retry horizon of the
// handler's own job: the asynq task type it is registered for in this package, or its River
// args type (else the River client default).
func (a *analysis_) checkDeclaredTTL(h handlerNode, ttl time.Duration) {
	framework, job := a.jobOf(h)
	if framework == "" {
		return
	}
	// The job's own setting, else (River) the client's default; the largest where packages
	// disagree.
	var own, fallback effect.JobRetry
	for _, j := range a.jobsInView() {
		switch {
		case j.Framework != framework:
		case j.Job == job && j.Count > own.Count:
			own = j
		case framework == "river" && j.Job == "" && j.Count > fallback.Count:
			fallback = j
		}
	}
	worst := own
	if worst.Count == 0 {
		worst = fallback
	}
	horizon := asynqHorizon(worst.Count)
	if framework == "river" {
		horizon = riverHorizon(worst.Count)
	}
	if horizon == 0 || ttl >= horizon {
		return
	}
	a.pass.Report(analysis.Diagnostic{
		Pos:      h.decisions.Pos,
		Category: "decisions",
		URL:      categoryURL("decisions"),
		Message: fmt.Sprintf("//idemlint:decisions ttl=%s contradicts the code: %s's retries span at least %s (%s)",
			human(ttl), h.name, human(horizon), retrySource(worst)),
	})
}

// muxRegistration reports whether call registers an asynq handler for a task type
// (ServeMux.Handle or HandleFunc), and which of the two; only asynq's own functions pay
// for the full name.
func (a *analysis_) muxRegistration(call *ast.CallExpr) (ok, handleFunc bool) {
	fn, isFn := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
	if !isFn || fn.Pkg() == nil || model.Normalize(fn.Pkg().Path()) != asynqPath {
		return false, false
	}
	switch model.Normalize(fn.Origin().FullName()) {
	case "(*" + asynqPath + ".ServeMux).Handle":
		return true, false
	case "(*" + asynqPath + ".ServeMux).HandleFunc":
		return true, true
	}
	return false, false
}

// jobOf names the job a handler runs: an asynq task type from its registration here, or a
// River args type from its *river.Job[T] parameter.
func (a *analysis_) jobOf(h handlerNode) (string, string) {
	if h.regCall != nil {
		if ok, _ := a.muxRegistration(h.regCall); ok {
			if t := a.constString(argAt(h.regCall, 0)); t != "" {
				return "asynq", t
			}
		}
	}
	sig := a.signature(h.node)
	if sig == nil {
		return "", ""
	}
	for i := 0; i < sig.Params().Len(); i++ {
		named, ok := types.Unalias(deref(sig.Params().At(i).Type())).(*types.Named)
		if ok && named.TypeArgs().Len() == 1 && typeName(named) == riverPath+".Job" {
			return "river", typeName(named.TypeArgs().At(0))
		}
	}
	return "", ""
}

// retrySource says where a horizon comes from, for messages.
func retrySource(j effect.JobRetry) string {
	switch {
	case j.Framework == "asynq":
		return fmt.Sprintf("asynq task %q, MaxRetry(%d)", j.Job, j.Count)
	case j.Job == "":
		return fmt.Sprintf("River Config.MaxAttempts %d", j.Count)
	}
	return fmt.Sprintf("River job %s, MaxAttempts %d", shortType(j.Job), j.Count)
}

func sortRetries(js []effect.JobRetry) {
	sort.Slice(js, func(i, j int) bool {
		if js[i].Framework != js[j].Framework {
			return js[i].Framework < js[j].Framework
		}
		return js[i].Job < js[j].Job
	})
}

// taskType returns the asynq task type of a task expression: asynq.NewTask("t", ...) there
// or assigned to the variable it names.
func (a *analysis_) taskType(e ast.Expr) string {
	if e == nil {
		return ""
	}
	if v := rootVar(a.pass.TypesInfo, e); v != nil {
		e = a.def(v)
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return ""
	}
	fn, ok := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
	if !ok || model.Normalize(fn.Origin().FullName()) != asynqPath+".NewTask" {
		return ""
	}
	return a.constString(argAt(call, 0))
}

// maxRetry finds asynq.MaxRetry(n) with a constant n among options.
func (a *analysis_) maxRetry(opts []ast.Expr) (int, bool) {
	for _, o := range opts {
		call, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			continue
		}
		fn, ok := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
		if ok && model.Normalize(fn.Origin().FullName()) == asynqPath+".MaxRetry" {
			if n, ok := a.constInt(argAt(call, 0)); ok {
				return max(n, 0), true
			}
		}
	}
	return 0, false
}

// maxAttempts reads MaxAttempts from a river.InsertOpts literal (or its address).
func (a *analysis_) maxAttempts(e ast.Expr) (int, bool) {
	if e == nil {
		return 0, false
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok || typeName(a.pass.TypesInfo.TypeOf(lit)) != riverPath+".InsertOpts" {
		return 0, false
	}
	return a.intField(lit, "MaxAttempts")
}

func (a *analysis_) intField(lit *ast.CompositeLit, name string) (int, bool) {
	v, ok := fieldValue(lit, name)
	if !ok {
		return 0, false
	}
	n, ok := a.constInt(v)
	return n, ok && n > 0
}

func fieldValue(lit *ast.CompositeLit, name string) (ast.Expr, bool) {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value, true
			}
		}
	}
	return nil, false
}

func (a *analysis_) constInt(e ast.Expr) (int, bool) {
	if e == nil {
		return 0, false
	}
	tv, ok := a.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(tv.Value)
	return int(n), exact
}

// typeName renders a (pointer to a) named type as "pkg/path.Type", major versions removed.
func typeName(t types.Type) string {
	if t == nil {
		return ""
	}
	named, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	return model.Normalize(named.Obj().Pkg().Path()) + "." + named.Obj().Name()
}

// checkRetention reports each explicit, constant middleware retention (WithRetention(d))
// shorter than the retry horizon of a job the middleware serves: the asynq task types it
// wraps at their registration (mux.Handle("t", idemasynq.Handler(mw, h))), else every job
// of its framework with a retry setting in view.
func (a *analysis_) checkRetention(jobs []effect.JobRetry) {
	if a.required != nil && !a.required["ttl"] {
		return
	}
	for _, f := range a.pass.Files {
		var stack []ast.Node
		ast.Inspect(f, func(x ast.Node) bool {
			if x == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, x)
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Origin().FullName() != model.MiddlewarePath+".WithRetention" {
				return true
			}
			d, ok := a.constInt(argAt(call, 0))
			if !ok || d <= 0 {
				return true
			}
			framework, tasks := a.servedJobs(stack)
			if framework == "" {
				return true
			}
			a.compareRetention(call.Pos(), time.Duration(d), framework, tasks, jobs)
			return true
		})
	}
}

// servedJobs finds, from the path to a WithRetention call, the framework of the middleware
// it configures (the constructor's job type: *asynq.Task, River's JobRow) and, for asynq,
// the task types the middleware value is registered for when all its uses are such
// registrations (nil: any).
func (a *analysis_) servedJobs(stack []ast.Node) (string, map[string]bool) {
	info := a.pass.TypesInfo
	for i := len(stack) - 2; i >= 0; i-- {
		ctor, ok := stack[i].(*ast.CallExpr)
		if !ok {
			continue
		}
		t := info.TypeOf(ctor)
		if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
			t = tuple.At(0).Type() // New returns (*Middleware[J], error)
		}
		framework := frameworkOf(t, 0)
		if framework == "" {
			return "", nil
		}
		if framework != "asynq" || i == 0 {
			return framework, nil
		}
		as, ok := stack[i-1].(*ast.AssignStmt)
		if !ok {
			return framework, nil
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok {
			return framework, nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		return framework, a.asynqRegistrations(v)
	}
	return "", nil
}

// frameworkOf names the framework whose jobs a middleware type serves: asynq for
// *idempotency.Middleware[*asynq.Task] and asynq.MiddlewareFunc, river for River's types.
func frameworkOf(t types.Type, depth int) string {
	named, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || depth > 2 {
		return ""
	}
	if p := named.Obj().Pkg(); p != nil {
		path := model.Normalize(p.Path())
		switch {
		case path == asynqPath:
			return "asynq"
		case path == riverPath || strings.HasPrefix(path, riverPath+"/"):
			return "river"
		}
	}
	for i := 0; i < named.TypeArgs().Len(); i++ {
		if f := frameworkOf(named.TypeArgs().At(i), depth+1); f != "" {
			return f
		}
	}
	return ""
}

// asynqRegistrations returns the task types middleware variable v is registered for, when
// every use of v is idemasynq.Handler(v, h) handed to ServeMux.Handle("type", ...) with a
// constant type; nil otherwise.
func (a *analysis_) asynqRegistrations(v *types.Var) map[string]bool {
	if v == nil {
		return nil
	}
	if a.muxUses == nil {
		a.indexMuxUses()
	}
	u := a.muxUses[v]
	if u == nil || u.matched != u.uses || len(u.tasks) == 0 {
		return nil
	}
	return u.tasks
}

// muxUse is how a variable appears in the handler arguments of asynq registrations.
type muxUse struct {
	tasks   map[string]bool // the constant task types of those registrations
	matched int             // its uses inside them
	uses    int             // its uses in the package
}

// indexMuxUses walks the package once for the variables used in the handler arguments of
// asynq registrations, and counts all their uses.
func (a *analysis_) indexMuxUses() {
	info := a.pass.TypesInfo
	a.muxUses = map[*types.Var]*muxUse{}
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			if ok, _ := a.muxRegistration(call); !ok {
				return true
			}
			t := a.constString(argAt(call, 0))
			ast.Inspect(argAt(call, 1), func(y ast.Node) bool {
				id, ok := y.(*ast.Ident)
				if !ok {
					return true
				}
				if v, ok := info.Uses[id].(*types.Var); ok {
					u := a.muxUses[v]
					if u == nil {
						u = &muxUse{tasks: map[string]bool{}}
						a.muxUses[v] = u
					}
					u.matched++
					if t != "" {
						u.tasks[t] = true
					}
				}
				return true
			})
			return true
		})
	}
	for id, obj := range info.Uses {
		if v, ok := obj.(*types.Var); ok && id.Pos().IsValid() {
			if u := a.muxUses[v]; u != nil {
				u.uses++
			}
		}
	}
}

// compareRetention reports a retention shorter than the longest horizon of the jobs served.
func (a *analysis_) compareRetention(pos token.Pos, retention time.Duration, framework string, tasks map[string]bool, jobs []effect.JobRetry) {
	var worst effect.JobRetry
	var horizon time.Duration
	for _, j := range jobs {
		if j.Framework != framework || (tasks != nil && !tasks[j.Job]) {
			continue
		}
		h := asynqHorizon(j.Count)
		if framework == "river" {
			h = riverHorizon(j.Count)
		}
		if h > horizon {
			worst, horizon = j, h
		}
	}
	if horizon == 0 || retention >= horizon {
		return
	}
	a.pass.Report(analysis.Diagnostic{
		Pos:      pos,
		Category: "decisions",
		URL:      categoryURL("decisions"),
		Message: fmt.Sprintf("idempotency middleware retention %s is shorter than the retry horizon of its jobs (%s): their retries span at least %s, and a retry after the completion expired runs the job again; missing: ttl",
			human(retention), retrySource(worst), human(horizon)),
	})
}

// shortType drops the import path of "pkg/path.Type" but the last element.
func shortType(name string) string {
	return name[strings.LastIndexByte(name, '/')+1:]
}

// human renders a duration in its two largest units: "20d 9h", "4h 18m", "5m 18s", "45s".
func human(d time.Duration) string {
	if d < time.Minute {
		return d.Round(time.Second).String()
	}
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	hours := d / time.Hour
	d -= hours * time.Hour
	mins := d / time.Minute
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %dm", hours, mins)
	}
	if secs := (d - mins*time.Minute) / time.Second; secs > 0 {
		return fmt.Sprintf("%dm %ds", mins, secs)
	}
	return fmt.Sprintf("%dm", mins)
}
