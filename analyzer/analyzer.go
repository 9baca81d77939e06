package analyzer

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// DocsURL is the page that documents every diagnostic category; a category's anchor is its
// kind without the dot ("sqlwrite").
const DocsURL = "https://github.com/chokaq/idemlint/blob/main/docs/checks.md"

// Analyzer reports handlers whose side effects are not safe to repeat. Its settings come
// from its flags (-disable, -models, -builtin), which drivers expose as their own.
var Analyzer = newAnalyzer(&settings{builtin: true})

// Config configures an analyzer built with New, for drivers that pass settings in code
// (the golangci-lint plugin).
type Config struct {
	// Disable lists effect kinds ("sql.write", "email.send", ...) not to report. Their
	// effects are still computed, so facts stay the same whatever is reported.
	Disable []string
	// Models lists model files to load beside the built-in models.
	Models []string
	// NoBuiltin turns the built-in models off: only Models are used.
	NoBuiltin bool
	// Decisions lists the checklist decisions to require (key, enforcement, ttl,
	// partial); empty means all four. A decision not required is never listed as missing,
	// and a finding left with nothing missing is not reported.
	Decisions []string
}

// New returns an analyzer with the given configuration, or an error naming the bad setting.
func New(cfg Config) (*analysis.Analyzer, error) {
	s := &settings{builtin: !cfg.NoBuiltin, disable: strings.Join(cfg.Disable, ","), models: strings.Join(cfg.Models, ","),
		decisions: strings.Join(cfg.Decisions, ",")}
	if _, err := s.compile(); err != nil {
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
		FactTypes:  []analysis.Fact{new(effect.Fact), new(effect.PackageFact), new(effect.RetryFact)},
		ResultType: reflect.TypeFor[*Result](),
		// Analyse what type-checks in a package with errors (a cgo package without cgo, a
		// half-edited file in the editor): every lookup tolerates missing type information,
		// and missing types never produce a finding.
		RunDespiteErrors: true,
	}
	// The flags start from the settings' values (a Config's, for New), so that reading them
	// back (Validate, a driver listing its flags) sees what the analyzer will use.
	a.Flags.StringVar(&s.disable, "disable", s.disable, "comma-separated effect kinds not to report ("+knownKinds()+")")
	a.Flags.StringVar(&s.models, "models", s.models, "comma-separated model files to load beside the built-in models")
	a.Flags.BoolVar(&s.builtin, "builtin", s.builtin, "use the built-in models")
	a.Flags.StringVar(&s.decisions, "decisions", s.decisions, "comma-separated checklist decisions to require (key,enforcement,ttl,partial); default all")
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
}

// Finding is one reported effect diagnostic in structured form, for drivers that write
// machine-readable output or match findings against a baseline without parsing messages.
type Finding struct {
	Pos     token.Pos     // the diagnostic's position
	Handler *Handler      // the handler it is reported for
	Effect  effect.Effect // as reported: for a wrapped handler, Detail and State say so
	Missing []string      // the checklist decisions not answered: "key", "enforcement"
}

// Handler is a job or message handler found in the package, with its effects after
// suppression.
type Handler struct {
	Pos       token.Pos // the handler's declaration (or literal)
	Name      string    // as in messages: "HandleOrder", "(*ChargeHandler).ProcessTask"
	Framework string    // "asynq", "river", "watermill", "idempotency", "directive"
	Effects   effect.Set
	Wrapped   bool // handed to idemlint's runtime middleware where it is registered
}

// goroot is where the standard library's sources are; its packages are neutral (idemlint
// computes nothing for them) except for what the models name.
var goroot = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

func (s *settings) run(pass *analysis.Pass) (res any, err error) {
	cfg, err := s.compile()
	if err != nil {
		return nil, err
	}
	var a *analysis_
	defer func() {
		// A bug in idemlint must not take down the host (golangci-lint, go vet, an editor):
		// turn a panic into an error that names the package and the function being analysed.
		if r := recover(); r != nil {
			fn := ""
			if a != nil && a.current != nil {
				fn = a.current.name
			}
			res, err = nil, panicError(pass.Pkg.Path(), fn, r)
		}
	}()
	if testHookRun != nil {
		testHookRun(pass)
	}
	if !s.std && isStandard(pass) {
		return &Result{}, nil
	}
	index, err := cfg.indexFor(packageDir(pass))
	if err != nil {
		return nil, err
	}
	if isModelled(pass, index) {
		return &Result{}, nil
	}
	a = newAnalysis(pass, index)
	a.disabled = cfg.disabled
	a.required = cfg.required
	if !a.needed() && !s.std {
		return &Result{}, nil
	}
	a.build()
	a.solve()
	a.markUsed()
	a.exportFacts()
	a.retries()
	handlers, findings := a.report()
	a.reportDirectives()
	var dirs []*directive.Directive
	for _, f := range a.pass.Files {
		if df := a.fileOf(f); df != nil {
			dirs = append(dirs, df.All...)
		}
	}
	return &Result{Handlers: handlers, Directives: dirs, Findings: findings}, nil
}

func isStandard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return strings.HasPrefix(name, goroot)
}

// isModelled reports whether the package belongs to a library the models describe: its
// models are the truth about it, so its internals are not analysed (pgx's own Commit runs
// an Exec whose text the analyzer cannot see, and is not the user's effect).
func isModelled(pass *analysis.Pass, ix *model.Index) bool {
	if inMiddleware(pass.Pkg.Path()) {
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

// needed reports whether the package can hold handlers or effects: it imports a modelled
// package or one whose import closure does, or it carries directives to check. Every other
// package skips the analysis; this is most of a large dependency graph.
func (a *analysis_) needed() bool {
	touches := false
	for _, imp := range a.pass.Pkg.Imports() {
		if a.index.Modelled(imp.Path()) || a.pass.ImportPackageFact(imp, new(effect.PackageFact)) {
			touches = true
			break
		}
	}
	if touches {
		a.pass.ExportPackageFact(&effect.PackageFact{})
	}
	for _, f := range a.pass.Files {
		if df := directive.ParseFile(f, a.pass.Fset); df != nil {
			a.directives[a.pass.Fset.File(f.Pos())] = df
			touches = true
		}
	}
	return touches
}

// fileOf returns the file that contains n.
func (a *analysis_) fileOf(n ast.Node) *directive.File {
	return a.directives[a.pass.Fset.File(n.Pos())]
}

// Validate compiles the settings of an analyzer made by this package (Analyzer, or one
// from New) after its flags are parsed, so a driver can fail once, before loading packages,
// instead of once per package.
func Validate(a *analysis.Analyzer) error {
	for _, name := range []string{"disable", "models", "builtin", "decisions"} {
		if a.Flags.Lookup(name) == nil {
			return fmt.Errorf("idemlint: analyzer %s was not made by package analyzer", a.Name)
		}
	}
	s := &settings{
		disable:   a.Flags.Lookup("disable").Value.String(),
		models:    a.Flags.Lookup("models").Value.String(),
		builtin:   a.Flags.Lookup("builtin").Value.String() == "true",
		decisions: a.Flags.Lookup("decisions").Value.String(),
	}
	_, err := s.compile()
	return err
}
