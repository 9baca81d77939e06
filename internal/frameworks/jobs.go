package frameworks

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
)

// MuxRegistration reports whether call registers an asynq handler for a task type
// (ServeMux.Handle or HandleFunc), and which of the two; only asynq's own functions pay
// for the full name.
func MuxRegistration(info *types.Info, call *ast.CallExpr) (ok, handleFunc bool) {
	fn, isFn := typeutil.Callee(info, call).(*types.Func)
	if !isFn || fn.Pkg() == nil || model.Normalize(fn.Pkg().Path()) != AsynqPath {
		return false, false
	}
	switch model.Normalize(fn.Origin().FullName()) {
	case "(*" + AsynqPath + ".ServeMux).Handle":
		return true, false
	case "(*" + AsynqPath + ".ServeMux).HandleFunc":
		return true, true
	}
	return false, false
}

// JobOf names the job a handler runs: an asynq task type from its registration here
// (regCall, or nil), or a River args type from its *river.Job[T] parameter.
func JobOf(defs *defuse.Index, regCall *ast.CallExpr, sig *types.Signature) (framework, job string) {
	if regCall != nil {
		if ok, _ := MuxRegistration(defs.Info, regCall); ok {
			if t := defs.ConstString(defuse.ArgAt(regCall, 0)); t != "" {
				return Asynq, t
			}
		}
	}
	if sig == nil {
		return "", ""
	}
	for i := 0; i < sig.Params().Len(); i++ {
		named, ok := types.Unalias(defuse.Deref(sig.Params().At(i).Type())).(*types.Named)
		if ok && named.TypeArgs().Len() == 1 && TypeName(named) == RiverPath+".Job" {
			return River, TypeName(named.TypeArgs().At(0))
		}
	}
	return "", ""
}

// ServedJobs finds, from the path to a WithRetention call (stack, outermost first, the
// call last), the framework of the middleware it configures (the constructor's job type:
// *asynq.Task, River's JobRow) and, for asynq, the task types it serves: the one the
// adapter's constructor names (idemasynq.New("t", ...)), else none (nil) and the variable
// the middleware is assigned to (nil when none), whose registrations name them (MuxIndex).
func ServedJobs(defs *defuse.Index, stack []ast.Node) (string, map[string]bool, *types.Var) {
	info := defs.Info
	for i := len(stack) - 2; i >= 0; i-- {
		ctor, ok := stack[i].(*ast.CallExpr)
		if !ok {
			continue
		}
		t := info.TypeOf(ctor)
		if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
			t = tuple.At(0).Type() // New returns (*Middleware[J], error)
		}
		framework := FrameworkOf(t)
		if framework == "" {
			return "", nil, nil
		}
		if framework != Asynq {
			return framework, nil, nil
		}
		if fn, ok := typeutil.Callee(info, ctor).(*types.Func); ok && fn.FullName() == idemasynqPath+".New" {
			if tt := defs.ConstString(defuse.ArgAt(ctor, 0)); tt != "" {
				return framework, map[string]bool{tt: true}, nil
			}
		}
		if i == 0 {
			return framework, nil, nil
		}
		as, ok := stack[i-1].(*ast.AssignStmt)
		if !ok {
			return framework, nil, nil
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok {
			return framework, nil, nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		return framework, nil, v
	}
	return "", nil, nil
}

// MuxIndex holds, for the variables used in the handler arguments of asynq registrations,
// how they are used: built once per package, for the middleware values a retention check
// asks about.
type MuxIndex struct{ uses map[*types.Var]*muxUse }

// muxUse is how a variable appears in the handler arguments of asynq registrations.
type muxUse struct {
	tasks   map[string]bool // the constant task types of those registrations
	matched int             // its uses inside them
	uses    int             // its uses in the package
}

// IndexMux walks the package once for the variables used in the handler arguments of
// asynq registrations, and counts all their uses.
func IndexMux(defs *defuse.Index, files []*ast.File) *MuxIndex {
	info := defs.Info
	ix := &MuxIndex{uses: map[*types.Var]*muxUse{}}
	for _, f := range files {
		ast.Inspect(f, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			if ok, _ := MuxRegistration(info, call); !ok {
				return true
			}
			t := defs.ConstString(defuse.ArgAt(call, 0))
			ast.Inspect(defuse.ArgAt(call, 1), func(y ast.Node) bool {
				id, ok := y.(*ast.Ident)
				if !ok {
					return true
				}
				if v, ok := info.Uses[id].(*types.Var); ok {
					u := ix.uses[v]
					if u == nil {
						u = &muxUse{tasks: map[string]bool{}}
						ix.uses[v] = u
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
			if u := ix.uses[v]; u != nil {
				u.uses++
			}
		}
	}
	return ix
}

// Registrations returns the task types middleware variable v is registered for, when
// every use of v is idemasynq.Handler(v, h) handed to ServeMux.Handle("type", ...) with a
// constant type; nil otherwise.
func (ix *MuxIndex) Registrations(v *types.Var) map[string]bool {
	if v == nil {
		return nil
	}
	u := ix.uses[v]
	if u == nil || u.matched != u.uses || len(u.tasks) == 0 {
		return nil
	}
	return u.tasks
}
