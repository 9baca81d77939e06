// Package ttl checks the ttl decision against the code: how long completions are kept. A
// completion that expires while the framework can still deliver the job again lets that
// delivery run it a second time, so an explicit middleware retention, or a declared ttl, is
// compared with the retry horizon the code gives the jobs it serves: how long after the
// first attempt the last retry can start (package frameworks knows the schedules).
package ttl

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/rules"
)

// Check is the ttl check.
var Check = checks.Check{
	Name:       "ttl",
	Doc:        "Reports a middleware retention, or a declared ttl, shorter than the retry horizon of the jobs it serves.",
	Categories: []rules.Category{rules.Decisions},
	Run:        run,
}

// run compares the package's explicit retentions (in a package that imports the runtime
// middleware) and each handler's declared ttl with the retry horizons in view. Nothing is
// compared when the project does not require the ttl decision.
func run(in *checks.Input) checks.Output {
	var out checks.Output
	if in.Config.Required != nil && !in.Config.Required[checklist.TTL] {
		return out
	}
	if in.Middleware {
		if js := in.Jobs(); len(js) > 0 {
			out.Verdicts = Retentions(in.Defs, in.Files, js)
		}
	}
	for _, h := range in.Handlers {
		if d := checks.Declared(h); d != nil && d.TTL > 0 {
			if v := Declared(h, d.TTL, in.Defs, in.Jobs()); v != nil {
				out.Verdicts = append(out.Verdicts, *v)
			}
		}
	}
	return out
}

// Jobs returns the retry settings in view of a package: its own and its dependencies'
// (deps, from their facts); none when the package sets its own retry schedule.
func Jobs(own frameworks.Retries, deps []frameworks.JobRetry) []frameworks.JobRetry {
	if own.CustomSchedule {
		return nil
	}
	return append(append([]frameworks.JobRetry(nil), own.Own...), deps...)
}

// Declared reports a //idemlint:decisions ttl= shorter than the retry horizon of the
// handler's own job: the asynq task type it is registered for in this package, or its River
// args type (else the River client default). nil when it holds.
func Declared(h handlers.Handler, ttl time.Duration, defs *defuse.Index, jobs []frameworks.JobRetry) *checks.Verdict {
	framework, job := frameworks.JobOf(defs, h.RegCall, h.Sig)
	if framework == "" {
		return nil
	}
	// The job's own setting, else (River) the client's default; the largest where packages
	// disagree.
	var own, fallback frameworks.JobRetry
	for _, j := range jobs {
		switch {
		case j.Framework != framework:
		case j.Job == job && j.Count > own.Count:
			own = j
		case framework == frameworks.River && j.Job == "" && j.Count > fallback.Count:
			fallback = j
		}
	}
	worst := own
	if worst.Count == 0 {
		worst = fallback
	}
	worst.Framework = framework
	horizon := worst.Horizon()
	if horizon == 0 || ttl >= horizon {
		return nil
	}
	return &checks.Verdict{
		Pos:      h.Decisions.Pos,
		Category: rules.Decisions,
		Message: fmt.Sprintf("//idemlint:decisions ttl=%s contradicts the code: %s's retries span at least %s (%s)",
			human(ttl), h.Name, human(horizon), worst.Source()),
	}
}

// Retentions reports each explicit, constant middleware retention (WithRetention(d))
// shorter than the retry horizon of a job the middleware serves: the asynq task types it
// wraps at their registration (mux.Handle("t", idemasynq.Handler(mw, h))), else every job
// of its framework with a retry setting in view.
func Retentions(defs *defuse.Index, files []*ast.File, jobs []frameworks.JobRetry) []checks.Verdict {
	var out []checks.Verdict
	var mux *frameworks.MuxIndex
	// The enclosing nodes of each call name the middleware it configures (ServedJobs).
	inspector.New(files).WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(x ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		call := x.(*ast.CallExpr)
		fn, ok := typeutil.Callee(defs.Info, call).(*types.Func)
		if !ok || fn.Origin().FullName() != model.MiddlewarePath+".WithRetention" {
			return true
		}
		d, ok := defs.ConstInt(defuse.ArgAt(call, 0))
		if !ok || d <= 0 {
			return true
		}
		framework, tasks, mw := frameworks.ServedJobs(defs, stack)
		if framework == "" {
			return true
		}
		if tasks == nil && mw != nil {
			if mux == nil {
				mux = frameworks.IndexMux(defs, files)
			}
			tasks = mux.Registrations(mw)
		}
		if p := compare(call.Pos(), time.Duration(d), framework, tasks, jobs); p != nil {
			out = append(out, *p)
		}
		return true
	})
	return out
}

// compare reports a retention shorter than the longest horizon of the jobs served.
func compare(pos token.Pos, retention time.Duration, framework string, tasks map[string]bool, jobs []frameworks.JobRetry) *checks.Verdict {
	var worst frameworks.JobRetry
	var horizon time.Duration
	for _, j := range jobs {
		if j.Framework != framework || (tasks != nil && !tasks[j.Job]) {
			continue
		}
		if h := j.Horizon(); h > horizon {
			worst, horizon = j, h
		}
	}
	if horizon == 0 || retention >= horizon {
		return nil
	}
	return &checks.Verdict{
		Pos:      pos,
		Category: rules.Decisions,
		Message: fmt.Sprintf("idempotency middleware retention %s is shorter than the retry horizon of its jobs (%s): their retries span at least %s, and a retry after the completion expired runs the job again; missing: ttl",
			human(retention), worst.Source(), human(horizon)),
	}
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
