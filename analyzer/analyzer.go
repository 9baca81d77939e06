package analyzer

import (
	"cmp"
	_ "embed"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/checks/all"
	"github.com/chokaq/idemlint/internal/checks/ttl"
	"github.com/chokaq/idemlint/internal/config"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/report"
	"github.com/chokaq/idemlint/internal/routes"
	"github.com/chokaq/idemlint/internal/rules"
	"github.com/chokaq/idemlint/internal/sinks"
	"github.com/chokaq/idemlint/internal/topics"
)

// DocsURL is the page that documents every diagnostic category; a category's anchor is its
// kind without the dot ("sqlwrite").
const DocsURL = rules.DocsURL

// Analyzer reports handlers whose side effects are not safe to repeat. Its settings come
// from its flags (-disable, -models, -builtin), which drivers expose as their own.
var Analyzer = newAnalyzer(&settings{builtin: true, shared: config.SharedOnce})

// Config configures an analyzer built with New, for drivers that pass settings in code
// (the golangci-lint plugin).
type Config struct {
	// Disable lists effect kinds ("sql.write", "email.send", ...) not to report, and checks
	// ("ttl", "decisions", "conflicts", "directives") not to run. Effects are still computed, so facts
	// stay the same whatever is reported.
	Disable []string
	// Models lists model files to load beside the built-in models.
	Models []string
	// NoBuiltin turns the built-in models off: only Models are used.
	NoBuiltin bool
	// Decisions lists the checklist decisions to require (key, enforcement, ttl,
	// partial); empty means all four. A decision not required is never listed as missing,
	// and a finding left with nothing missing is not reported.
	Decisions []string
	// SharedSinks is "once" (the default, also for ""): a sink that several handlers reach
	// through a function they share is one finding, at that function; "per-handler": one
	// finding per handler.
	SharedSinks string
	// Schema lists the project's schema files (SQL migrations, schema.sql), directories
	// of them or globs, applied in the order given (a directory's files in migration
	// order); relative to the working directory.
	Schema []string
}

// New returns an analyzer with the given configuration, or an error naming the bad setting.
func New(cfg Config) (*analysis.Analyzer, error) {
	s := &settings{builtin: !cfg.NoBuiltin, disable: strings.Join(cfg.Disable, ","), models: strings.Join(cfg.Models, ","),
		decisions: strings.Join(cfg.Decisions, ","), shared: cfg.SharedSinks, schema: strings.Join(cfg.Schema, ",")}
	if s.shared == "" {
		s.shared = config.SharedOnce
	}
	if s.builtin {
		// The built-in models take milliseconds to decode, and the analyzer compiles them
		// on first use: they are decoded meanwhile, beside what a driver does first (the
		// command waits for go env and go list), and a run answered from its cache never
		// waits for them.
		go model.Builtin()
	}
	// The settings are checked now, for an error that names them; the built-in models
	// have none (their tests check them).
	check := &settings{disable: s.disable, models: s.models, decisions: s.decisions, shared: s.shared, schema: s.schema}
	if _, err := check.compile(); err != nil {
		return nil, err
	}
	return newAnalyzer(s), nil
}

func newAnalyzer(s *settings) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:       "idemlint",
		Doc:        "find job and message handlers whose side effects are not safe to repeat under at-least-once delivery",
		URL:        DocsURL,
		Run:        s.run,
		FactTypes:  []analysis.Fact{new(effect.Fact), new(effect.PackageFact), new(frameworks.RetryFact), new(topics.Made), new(handlers.TableFact), new(handlers.CarrierFact), new(handlers.FieldFact)},
		ResultType: reflect.TypeFor[*Result](),
		// Analyse what type-checks in a package with errors (a cgo package without cgo, a
		// half-edited file in the editor): every lookup tolerates missing type information,
		// and missing types never produce a finding.
		RunDespiteErrors: true,
	}
	// The flags start from the settings' values (a Config's, for New), so that reading them
	// back (ForProgram, a driver listing its flags) sees what the analyzer will use.
	a.Flags.StringVar(&s.disable, "disable", s.disable, "comma-separated effect kinds not to report ("+effect.KindList()+"), or checks not to run ("+strings.Join(rules.Checks, ", ")+")")
	a.Flags.StringVar(&s.models, "models", s.models, "comma-separated model files to load beside the built-in models")
	a.Flags.BoolVar(&s.builtin, "builtin", s.builtin, "use the built-in models")
	a.Flags.StringVar(&s.decisions, "decisions", s.decisions, "comma-separated checklist decisions to require (key,enforcement,ttl,partial); default all")
	a.Flags.StringVar(&s.shared, "shared-sinks", s.shared, "how to report a sink several handlers reach through a function they share: once (one finding, at that function) or per-handler")
	a.Flags.StringVar(&s.schema, "schema", s.schema, "comma-separated schema files (SQL migrations, schema.sql), directories of them or globs, whose unique keys judge inserts")
	a.Flags.BoolVar(&s.std, "std", s.std, "analyse standard library packages too, and every package in full (robustness testing; they are neutral otherwise)")
	return a
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// Result lists what the pass found, for drivers that report more than diagnostics (the
// handler inventory) and for tests.
type Result struct {
	Handlers   []*Handler
	Directives []*directive.Directive // every //idemlint: directive in the package, with Used set
	Findings   []*Finding             // one per effect diagnostic reported, in report order
	// Program summarises the package for a program-wide link; nil unless the analyzer was
	// made for one (ForProgram).
	Program *callgraph.Summary
	// Jobs are the retry settings the package gives jobs (program-wide link only): the
	// driver hands every package's to the next round, where a job runs at most once only
	// if every insert in the program says so.
	Jobs []frameworks.JobRetry
}

// Finding is one reported effect diagnostic in structured form.
type Finding = report.FindingRecord

// Handler is a job or message handler found in the package, with its effects after
// suppression.
type Handler = report.HandlerRecord

// goroot is where the standard library's sources are; its packages are neutral (idemlint
// computes nothing for them) except for what the models name.
var goroot = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

func (s *settings) run(pass *analysis.Pass) (res any, err error) {
	cfg, err := s.compile()
	if err != nil {
		return nil, err
	}
	visiting := "" // the function being analysed, for a panic's message
	defer func() {
		// A bug in idemlint must not take down the host (golangci-lint, go vet, an editor):
		// turn a panic into an error that names the package and the function being analysed.
		if r := recover(); r != nil {
			res, err = nil, panicError(pass.Pkg.Path(), visiting, r)
		}
	}()
	if testHookRun != nil {
		testHookRun(pass)
	}
	if r := s.Program.Restored[pass.Pkg]; r != nil {
		for _, f := range r.Objects {
			pass.ExportObjectFact(f.Object, f.Fact)
		}
		for _, f := range r.Packages {
			pass.ExportPackageFact(f)
		}
		return &Result{}, nil
	}
	if (!s.std && isStandard(pass)) || isTestMain(pass) {
		return &Result{}, nil
	}
	index, err := cfg.indexFor(packageDir(pass))
	if err != nil {
		return nil, err
	}
	if isModelled(pass, index) {
		return &Result{}, nil
	}
	dirs, touches := directivesAndReach(pass, index)
	touches = touches || readsCarriers(pass.Pkg, s.Program.Carriers) || inMainModule(pass)
	if !touches && !s.std {
		return &Result{}, nil
	}
	visit := func(name string) {
		visiting = name
		if testHookEvaluate != nil {
			testHookEvaluate(name)
		}
	}
	r, g, wrappers := analyse(pass, index, dirs, cfg.checks(), s.Program, s.program, visit)
	if s.program {
		r.Program.CheckCalls = handlers.CheckCalls(g.Nodes)
		// A method that registers its parameter is linked like one with effects: an
		// application's Registrar implemented where its callers do not import.
		r.Program.Methods = handlers.WithRegisters(r.Program.Methods, methodNodes(g), wrappers)
		r.Program.Converted = callgraph.Conversions(pass.TypesInfo, serviceFiles(pass))
	}
	return r, nil
}

// registrations writes the functions of other packages this package registers as handlers
// for the program's summary (callgraph.Summary.Registered).
func registrations(fset *token.FileSet, remote []handlers.Remote) []callgraph.Registration {
	var out []callgraph.Registration
	for _, r := range remote {
		out = append(out, callgraph.Registration{
			Func: r.Fn.FullName(), Pkg: r.Fn.Pkg().Path(), Framework: r.Framework,
			At: fset.Position(r.Pos).String(), Wrapped: r.Wrapped, Retention: r.Retention, Once: r.AtMostOnce,
		})
	}
	return out
}

// serviceFiles returns the package's files but its _test.go files: a type converted to an
// interface only in a test (a double) never runs in the service.
func serviceFiles(pass *analysis.Pass) []*ast.File {
	var out []*ast.File
	for _, f := range pass.Files {
		if !strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			out = append(out, f)
		}
	}
	return out
}

// methodNodes returns the graph's nodes of methods.
func methodNodes(g *callgraph.Graph) []*callgraph.Node {
	var out []*callgraph.Node
	for _, n := range g.Nodes {
		if n.Fn != nil && n.Fn.Signature().Recv() != nil {
			out = append(out, n)
		}
	}
	return out
}

// analyse runs the pipeline on one package: the def-use index, the call graph (sinks
// judged as it is built) and its solution, the registration wrappers and the facts for
// importers, the handlers, the checks, and the report.
//
// With summarise (a program-wide link), the Result's Program holds the graph's summary
// with the routes the package serves and the requests only a route could show to be safe,
// the topics its handlers consume and the messages only a consumer could show to be safe,
// and every function of another package it registers as a handler (handlers.Found.Remote,
// before those the program hands to their own packages are left out of its report); the
// caller adds the rest.
func analyse(pass *analysis.Pass, index *model.Index, dirs map[*token.File]*directive.File, cfg checks.Config, program Program, summarise bool, visit func(string)) (*Result, *callgraph.Graph, handlers.Wrappers) {
	fileDirs := func(f *ast.File) *directive.File { return dirs[pass.Fset.File(f.Pos())] }
	defs := defuse.Build(pass.Pkg, pass.TypesInfo, pass.Files)
	entries := model.NewEntries(index)
	jobs, own := retries(pass, defs)
	uniqueArgs := func() []string { _, _, u, _ := jobs(); return u }
	judge := &sinks.Judge{Defs: defs, Models: entries, Fset: pass.Fset, UniqueArgs: func(t types.Type) bool {
		return frameworks.UniqueJob(uniqueArgs(), frameworks.River, frameworks.TypeName(t)) != ""
	}, UniqueWhileActive: func(t types.Type) bool {
		_, _, _, active := jobs()
		return slices.Contains(active, frameworks.TypeName(t))
	}, Routes: program.Routes, Consumers: program.Consumers, Schema: cfg.Schema}
	var sent []routes.Request
	var published []topics.Message
	if summarise {
		judge.Sent = func(r routes.Request) {
			if !slices.Contains(sent, r) {
				sent = append(sent, r)
			}
		}
		judge.Published = func(m topics.Message) {
			if !slices.Contains(published, m) {
				published = append(published, m)
			}
		}
	}
	judge.Made = func(fn *types.Func) *topics.Made {
		m := new(topics.Made)
		if fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn, m) {
			return m
		}
		return nil
	}
	for fn, m := range judge.MessageMakers(pass.Files) {
		pass.ExportObjectFact(fn, m)
	}
	g := callgraph.Build(callgraph.Input{
		Pkg: pass.Pkg, Info: pass.TypesInfo, Fset: pass.Fset, Files: pass.Files,
		Directives: fileDirs, Judge: judge, Visit: visit, Links: program.linksOf(pass), ReceiveSpan: handlers.ReceiveSpan,
		Facts: callgraph.Facts{ImportObjectFact: pass.ImportObjectFact, AllObjectFacts: pass.AllObjectFacts},
	})
	g.Solve()
	hin := handlers.Input{Pkg: pass.Pkg, Info: pass.TypesInfo, Fset: pass.Fset, Files: pass.Files, Graph: g, Defs: defs, Models: entries}
	hin.Wrappers, hin.Fields = handlers.FindWrappers(hin)
	for _, field := range slices.SortedFunc(maps.Keys(hin.Fields), func(a, b *types.Var) int { return cmp.Compare(a.Pos(), b.Pos()) }) {
		if field.Exported() {
			pass.ExportObjectFact(field, hin.Fields[field])
		}
	}
	hin.FieldFact = func(v *types.Var) *handlers.FieldFact {
		ff := new(handlers.FieldFact)
		if pass.ImportObjectFact(v, ff) {
			return ff
		}
		return nil
	}
	tables := handlers.Tables(hin)
	hin.Table = func(v *types.Var) *handlers.TableFact {
		t := new(handlers.TableFact)
		if pass.ImportObjectFact(v, t) {
			return t
		}
		return nil
	}
	hin.Carriers = func() []callgraph.Carrier {
		out := slices.Clone(program.Carriers)
		for _, pf := range pass.AllPackageFacts() {
			if f, ok := pf.Fact.(*handlers.CarrierFact); ok && pf.Package != pass.Pkg {
				out = append(out, f.Carriers...)
			}
		}
		return out
	}
	if len(program.TakenOver) > 0 {
		hin.TakenOver = func(fn *types.Func) bool { return program.TakenOver[fn.FullName()] }
	}
	if len(program.Registered) > 0 {
		hin.Registered = func(fn *types.Func) []callgraph.Registration { return program.Registered[fn.FullName()] }
	}
	if len(tables) > 0 {
		// The listed functions are mostly unexported, and a fact on one does not reach
		// another package: the table carries their effects.
		names := map[string]bool{}
		for _, t := range tables {
			for _, name := range t.Funcs {
				names[name] = true
			}
		}
		listed := map[*types.Func]*effect.Fact{}
		for _, f := range g.FactsOf(func(fn *types.Func) bool { return fn.Signature().Recv() == nil && names[fn.Name()] }) {
			listed[f.Fn] = f.Fact
		}
		for v, t := range tables {
			t.AddEffects(func(name string) *effect.Fact {
				fn, _ := pass.Pkg.Scope().Lookup(name).(*types.Func)
				return listed[fn]
			})
			pass.ExportObjectFact(v, t)
		}
	}
	for _, f := range handlers.WithChecks(handlers.WithRegisters(g.Facts(), g.Nodes, hin.Wrappers), g.Nodes) {
		pass.ExportObjectFact(f.Fn, f.Fact)
	}
	allJobs := func() []frameworks.JobRetry { v, _, _, _ := jobs(); return v }
	if program.Jobs != nil {
		allJobs = func() []frameworks.JobRetry { return program.Jobs }
	}
	timed := func() []frameworks.JobRetry { _, v, _, _ := jobs(); return v }

	found := handlers.Find(hin)
	if len(found.Carriers) > 0 {
		pass.ExportPackageFact(&handlers.CarrierFact{Carriers: found.Carriers})
	}
	remote := found.Remote
	if len(program.Registered) > 0 {
		// Judged and reported by their own packages, as their handlers.
		found.Remote = slices.DeleteFunc(slices.Clone(found.Remote), func(r handlers.Remote) bool { return program.Registered[r.Fn.FullName()] != nil })
	}
	for i := range found.Handlers {
		h := &found.Handlers[i]
		if len(h.Effects) > 0 {
			if fw, job := frameworks.JobOf(defs, h.RegCall, h.Sig); fw != "" && h.AtMostOnce == "" {
				h.AtMostOnce = frameworks.AtMostOnce(allJobs(), fw, job)
				h.UniqueJob = frameworks.UniqueJob(uniqueArgs(), fw, job)
			}
			if h.AtMostOnce == "" {
				h.AtMostOnce = frameworks.Synchronous(h.Sig, index)
			}
		}
	}
	_, middleware := frameworks.Imports(pass.Pkg)
	cin := &checks.Input{
		Fset: pass.Fset, Pkg: pass.Pkg, Info: pass.TypesInfo, Files: pass.Files, Defs: defs,
		Directives: fileDirs, ReadFile: pass.ReadFile,
		Handlers: found.Handlers, Remote: found.Remote,
		Config: cfg, Middleware: middleware, Jobs: timed, Unstable: judge.Unstable,
		Used: map[*directive.Directive]bool{},
	}
	// The directives each stage used, marked here and nowhere else: the directives check
	// reads them, and the Result carries them (Directive.Used) for the inventory.
	use := func(ds []*directive.Directive) {
		for _, d := range ds {
			cin.Used[d] = true
		}
	}
	use(g.Used())
	use(found.Used)
	var verdicts []checks.Verdict
	ignoresAt := func(pos token.Pos) []*directive.Directive {
		if tf := pass.Fset.File(pos); tf != nil {
			return dirs[tf].IgnoresAt(tf.Line(pos))
		}
		return nil
	}
	for _, c := range all.Checks {
		if cfg.Off[c.Name] {
			continue
		}
		out := c.Run(cin)
		kept, silenced := checks.Silence(out.Verdicts, ignoresAt)
		verdicts = append(verdicts, kept...)
		use(out.Used)
		use(silenced)
	}
	handlersFound, findings := report.Emit(report.Input{Handlers: found.Handlers, Remote: found.Remote, Verdicts: verdicts, Report: pass.Report})
	var every []*directive.Directive
	for _, f := range pass.Files {
		if df := fileDirs(f); df != nil {
			every = append(every, df.All...)
		}
	}
	for _, d := range every {
		d.Used = cin.Used[d]
	}
	r := &Result{Handlers: handlersFound, Directives: every, Findings: findings, Jobs: own}
	if summarise {
		r.Program = g.Summary()
		r.Program.Sent, r.Program.Published = sent, published
		if importsNetHTTP(pass.Pkg) {
			r.Program.Routes = handlers.Routes(hin)
		}
		r.Program.Consumers = handlers.Consumers(hin, found.Handlers)
		r.Program.Subscriptions = handlers.Subscriptions(hin, found.Subscribed)
		r.Program.Verdicts = handlers.Verdicts(pass.Fset, found.Handlers)
		r.Program.Registered = registrations(pass.Fset, remote)
		r.Program.Carriers = found.Carriers
	}
	return r, g, hin.Wrappers
}

// importsNetHTTP reports whether pkg imports net/http, as a package that serves routes
// must.
func importsNetHTTP(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "net/http" {
			return true
		}
	}
	return false
}

// retries exports the package's retry settings (only packages that import asynq or River
// pay for the walk) and returns the jobs in view, its own and its dependencies', read on
// first use: all of them, and those whose retry horizons are known (none when the package
// sets its own retry schedule).
func retries(pass *analysis.Pass, defs *defuse.Index) (func() (all, timed []frameworks.JobRetry, unique, active []string), []frameworks.JobRetry) {
	var own frameworks.Retries
	if framework, _ := frameworks.Imports(pass.Pkg); framework {
		own = frameworks.CollectRetries(defs, pass.Files)
		if len(own.Own) > 0 || len(own.Unique) > 0 || len(own.UniqueActive) > 0 {
			pass.ExportPackageFact(&frameworks.RetryFact{Jobs: own.Own, Unique: own.Unique, UniqueActive: own.UniqueActive})
		}
	}
	var all, timed []frameworks.JobRetry
	var unique, active []string
	read := false
	return func() ([]frameworks.JobRetry, []frameworks.JobRetry, []string, []string) {
		if !read {
			read = true
			var deps []frameworks.JobRetry
			unique = append(unique, own.Unique...)
			active = append(active, own.UniqueActive...)
			for _, pf := range pass.AllPackageFacts() {
				if f, ok := pf.Fact.(*frameworks.RetryFact); ok && pf.Package != pass.Pkg {
					deps = append(deps, f.Jobs...)
					unique = append(unique, f.Unique...)
					active = append(active, f.UniqueActive...)
				}
			}
			all = append(append([]frameworks.JobRetry(nil), own.Own...), deps...)
			timed = ttl.Jobs(own, deps)
		}
		return all, timed, unique, active
	}, own.Own
}

func isStandard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return strings.HasPrefix(name, goroot)
}

// isTestMain reports whether the package is the main package go test generates for a
// package's tests (path "p.test"): it holds no code of the user's.
func isTestMain(pass *analysis.Pass) bool {
	return pass.Pkg.Name() == "main" && strings.HasSuffix(pass.Pkg.Path(), ".test")
}

// isModelled reports whether the package belongs to a library the models describe: its
// models are the truth about it, so its internals are not analysed (pgx's own Commit runs
// an Exec whose text the analyzer cannot see, and is not the user's effect).
func isModelled(pass *analysis.Pass, ix *model.Index) bool {
	if model.InMiddleware(pass.Pkg.Path()) {
		return true // the runtime middleware's own store writes are its users' protection
	}
	// A dependency's module is skipped whole when models name any of its packages; the
	// main module (no version: it is being developed, and its own models may name its
	// packages, a company's queue beside its handlers) only package by package.
	if pass.Module != nil && pass.Module.Path != "" && pass.Module.Version != "" {
		return ix.ModelledModule(pass.Module.Path)
	}
	return ix.Modelled(pass.Pkg.Path())
}

// inMainModule reports whether the package belongs to the module being developed (no
// version): its own packages are analysed even when nothing modelled is in their import
// closure, since a use case that saves through the repository interface it declares
// reaches its effects only through the program-wide link, and a handler registered in
// main may be declared there. The dependencies keep the import-closure rule, which skips
// most of a large graph.
func inMainModule(pass *analysis.Pass) bool {
	return pass.Module != nil && pass.Module.Path != "" && pass.Module.Version == ""
}

// readsCarriers reports whether pkg declares, or imports the package that declares, a
// channel element type the program's receive loops hand deliveries on over: the code that
// reads such a channel is a handler even where nothing modelled is in its import closure
// (a notification service ranging over the updates its consumer decodes).
func readsCarriers(pkg *types.Package, carriers []callgraph.Carrier) bool {
	for _, c := range carriers {
		path := c.Type[:max(strings.LastIndexByte(c.Type, '.'), 0)]
		if pkg.Path() == path {
			return true
		}
		for _, imp := range pkg.Imports() {
			if imp.Path() == path {
				return true
			}
		}
	}
	return false
}

// directivesAndReach parses the package's directives and reports whether the package can
// hold handlers or effects: it imports a modelled package or one whose import closure does
// (then it carries the package fact that says so), or it carries directives to check.
// Every other package skips the analysis; this is most of a large dependency graph.
func directivesAndReach(pass *analysis.Pass, ix *model.Index) (map[*token.File]*directive.File, bool) {
	touches := false
	for _, imp := range pass.Pkg.Imports() {
		if ix.Modelled(imp.Path()) || pass.ImportPackageFact(imp, new(effect.PackageFact)) {
			touches = true
			break
		}
	}
	if touches {
		pass.ExportPackageFact(&effect.PackageFact{})
	}
	dirs := map[*token.File]*directive.File{}
	for _, f := range pass.Files {
		if df := directive.ParseFile(f, pass.Fset); df != nil {
			dirs[pass.Fset.File(f.Pos())] = df
			touches = true
		}
	}
	return dirs, touches
}

// Program is what a round of a program-wide link learned of the whole program, for the
// next round's analysis of each package (the zero value for the first round).
type Program struct {
	// Links are the implementations elsewhere in the program that open interface calls
	// reach (see internal/link).
	Links callgraph.Links
	// PackageLinks, when set, gives one package's Links instead, from the files its pass
	// has: for a driver that parses each package as its pass comes up, so that no position
	// in it is known before (internal/driver's rounds).
	PackageLinks func(pkg *types.Package, files []*ast.File) callgraph.Links
	// Jobs, when not nil, are the retry settings of the whole program (every package's
	// Result.Jobs): whether a job runs at most once is then judged from every insert in the
	// program, not those in a package's view.
	Jobs []frameworks.JobRetry
	// TakenOver holds the functions (full names) that check a webhook and whose role HTTP
	// handlers of other packages take over (link.TakenOver): those HTTP handlers are the
	// deliveries' handlers, not these.
	TakenOver map[string]bool
	// Registered holds, by function (full name), the registrations elsewhere in the program
	// of this package's functions that other packages register as handlers, where this
	// package cannot know they are (link.Registered): each is one of this package's
	// handlers, judged and reported here; a package registering one no longer reports it
	// at the registration.
	Registered map[string][]callgraph.Registration
	// Routes are the HTTP routes the whole program serves, with whether each handler is
	// safe to repeat (link.Routes): a POST to a route of the program is judged by its
	// handler.
	Routes routes.Table
	// Consumers are the handlers the whole program runs for constant topics, with whether
	// each is safe to run again on the same message (link.Consumers): a publish to a topic
	// of the program is judged by its consumers.
	Consumers topics.Table
	// Carriers are the channel element types the whole program's receive loops hand
	// deliveries on over (link.Carriers): a receive from a channel of one is a delivery's,
	// in a package that imports neither the sender nor its CarrierFact.
	Carriers []callgraph.Carrier
	// Restored holds the facts of packages a driver found unchanged since an earlier run
	// (its cache): their analysis exports these and does nothing else. The driver has the
	// rest of what those packages gave (findings, summaries) from the same run.
	Restored map[*types.Package]*Restored
}

// Restored is what a package's analysis exported in an earlier run, decoded against this
// run's types of the package.
type Restored struct {
	Objects  []analysis.ObjectFact
	Packages []analysis.Fact // package facts
}

// ForProgram returns an analyzer with a's settings (after its flags are parsed) for a
// driver that links the whole program: each package's Result.Program summarises it, and
// the analysis uses what p says of the rest of the program.
func ForProgram(a *analysis.Analyzer, p Program) (*analysis.Analyzer, error) {
	s, err := settingsOf(a)
	if err != nil {
		return nil, err
	}
	s.program, s.Program = true, p
	if _, err := s.compile(); err != nil {
		return nil, err
	}
	return newAnalyzer(s), nil
}

// settingsOf reads back the settings of an analyzer made by this package from its flags.
func settingsOf(a *analysis.Analyzer) (*settings, error) {
	for _, name := range []string{"disable", "models", "builtin", "decisions", "shared-sinks", "schema", "std"} {
		if a.Flags.Lookup(name) == nil {
			return nil, fmt.Errorf("idemlint: analyzer %s was not made by package analyzer", a.Name)
		}
	}
	return &settings{
		disable:   a.Flags.Lookup("disable").Value.String(),
		models:    a.Flags.Lookup("models").Value.String(),
		builtin:   a.Flags.Lookup("builtin").Value.String() == "true",
		decisions: a.Flags.Lookup("decisions").Value.String(),
		shared:    a.Flags.Lookup("shared-sinks").Value.String(),
		schema:    a.Flags.Lookup("schema").Value.String(),
		std:       a.Flags.Lookup("std").Value.String() == "true",
	}, nil
}

// linksOf is the Links of pass's package.
func (p Program) linksOf(pass *analysis.Pass) callgraph.Links {
	if p.PackageLinks != nil {
		return p.PackageLinks(pass.Pkg, pass.Files)
	}
	return p.Links
}
