package analyzer

import (
	_ "embed"
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

// Analyzer reports handlers whose side effects are not safe to repeat.
var Analyzer = &analysis.Analyzer{
	Name:       "idemlint",
	Doc:        "find job and message handlers whose side effects are not safe to repeat under at-least-once delivery",
	URL:        DocsURL,
	Run:        run,
	FactTypes:  []analysis.Fact{new(effect.Fact), new(effect.PackageFact)},
	ResultType: reflect.TypeFor[*Result](),
}

// Result lists what the pass found, for drivers that report more than diagnostics (the
// handler inventory) and for tests.
type Result struct {
	Handlers   []*Handler
	Directives []*directive.Directive // every //idemlint: directive in the package, with Used set
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

var builtinIndex = model.Compile(model.Builtin())

// goroot is where the standard library's sources are; its packages are neutral (idemlint
// computes nothing for them) except for what the models name.
var goroot = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

func run(pass *analysis.Pass) (res any, err error) {
	defer func() {
		// A bug in idemlint must not take down the host (golangci-lint, go vet, an editor):
		// turn a panic into an error that names the package.
		if r := recover(); r != nil {
			res, err = nil, panicError(pass.Pkg.Path(), r)
		}
	}()
	if isStandard(pass) || isModelled(pass, builtinIndex) {
		return &Result{}, nil
	}
	a := newAnalysis(pass, builtinIndex)
	if !a.needed() {
		return &Result{}, nil
	}
	a.build()
	a.solve()
	a.markUsed()
	a.exportFacts()
	handlers := a.report()
	a.reportDirectives()
	var dirs []*directive.Directive
	for _, f := range a.pass.Files {
		if df := a.fileOf(f); df != nil {
			dirs = append(dirs, df.All...)
		}
	}
	return &Result{Handlers: handlers, Directives: dirs}, nil
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
	if pass.Module != nil && pass.Module.Path != "" {
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
