package driver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
)

// A trimmer makes the syntax the driver type-checks (typecheck.go). Every package is
// type-checked from source (the analyzer exchanges facts, so dependencies are analysed too), but the
// analyzer skips most of them whole: the standard library, and the dependency modules its
// models describe (analyzer.Skipped). Their function bodies and comments are never read,
// so they are parsed without either: type-checking needs only declarations. On the
// benchmark corpus this is about a fifth of the CPU time and a quarter of the peak memory
// of a run. Bodies are kept where the type checker needs them (generic functions and
// methods, whose instantiations it checks; init, which must have one).
//
// Object resolution (ast.Object) is skipped for every file: idemlint reads types.Info,
// never ast.Object, and go/packages does it only to keep an old promise to its callers.
type trimmer struct {
	skipped  func(dir, module string) bool
	modcache string // the module cache directory, with a trailing separator; "" if unknown

	mu      sync.Mutex
	trimmed map[string]bool // files parsed without bodies, to forgive their unused imports
}

// newTrimmer returns the trimmer for a's analysis, or nil when a is not idemlint's (the
// benchmark's floor): then go/packages parses as it always does.
func newTrimmer(a *analysis.Analyzer) *trimmer { return trimmerIn(a, moduleCache) }

// trimmerIn is newTrimmer with modcache, which tells the module cache directory (with a
// trailing separator; "" if unknown), asked only when a is idemlint's.
func trimmerIn(a *analysis.Analyzer, modcache func() string) *trimmer {
	skipped, err := analyzer.Skipped(a)
	if err != nil {
		return nil
	}
	return &trimmer{skipped: skipped, modcache: modcache(), trimmed: map[string]bool{}}
}

// moduleCache asks the go command where the module cache is (GOMODCACHE, or its default
// under GOPATH, possibly set by go env -w).
func moduleCache() string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Clean(dir) + string(filepath.Separator)
}

// ParseFile is a packages.Config.ParseFile.
func (p *trimmer) ParseFile(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
	if !p.Unread(name) {
		return parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
	}
	f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.SkipObjectResolution)
	if f != nil {
		TrimBodies(f)
		p.mu.Lock()
		p.trimmed[name] = true
		p.mu.Unlock()
	}
	return f, err
}

// Unread reports whether the analysis skips the package of the file name.
func (p *trimmer) Unread(name string) bool {
	dir := filepath.Dir(name)
	if p.skipped(dir, "") {
		return true
	}
	if p.modcache == "" || !strings.HasPrefix(name, p.modcache) {
		return false // the main module, a replace directory, a vendor tree: read in full
	}
	module, ok := cachedModule(strings.TrimPrefix(dir, p.modcache))
	return ok && p.skipped(dir, module)
}

// cachedModule returns the module path of a directory in the module cache, given relative
// to the cache ("github.com/!burnt!sushi/toml@v1.3.2/internal"): the part before the
// version, with the cache's case escapes ("!b" for "B") undone.
func cachedModule(rel string) (string, bool) {
	rel = filepath.ToSlash(rel)
	at := strings.Index(rel, "@")
	if at <= 0 || strings.HasPrefix(rel, "cache/") {
		return "", false
	}
	var b strings.Builder
	bang := false
	for _, r := range rel[:at] {
		switch {
		case bang:
			b.WriteRune(unicode.ToUpper(r))
			bang = false
		case r == '!':
			bang = true
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

// TrimBodies drops the bodies of f's functions that the type checker does not need: all
// but generic functions, methods of generic types and init functions (whose bodies become
// empty: an init must have one). It is the rule for the packages the analysis skips
// (exported for the benchmark that measures it against export data, bench/cmd/typesload).
func TrimBodies(f *ast.File) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || generic(fd) {
			continue
		}
		if fd.Recv == nil && fd.Name.Name == "init" {
			fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, Rbrace: fd.Body.Rbrace}
			continue
		}
		fd.Body = nil
	}
}

// generic reports whether fd declares a generic function or a method of a generic type.
func generic(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// forgive removes, from a package whose files were parsed without bodies, the errors that
// trimming itself causes (an import only the bodies used is now unused), and recomputes
// whether it is ill-typed (its imports first). Every other error stays.
func (p *trimmer) forgive(pkg *packages.Package) {
	if p.trimmedPackage(pkg) {
		pkg.Errors = dropUnusedImports(pkg.Errors)
		pkg.TypeErrors = dropUnusedTypeErrors(pkg.TypeErrors)
	}
	markIllTyped(pkg)
}

// markIllTyped sets whether pkg is ill-typed, as go/packages does: it has errors, or an
// import is ill-typed.
func markIllTyped(pkg *packages.Package) {
	ill := len(pkg.Errors) > 0
	for _, imp := range pkg.Imports {
		ill = ill || imp.IllTyped
	}
	pkg.IllTyped = ill
}

func (p *trimmer) trimmedPackage(pkg *packages.Package) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range pkg.CompiledGoFiles {
		if p.trimmed[f] {
			return true
		}
	}
	return false
}

// unusedImport reports whether msg is the type checker's for an import nothing uses
// (`"fmt" imported and not used`, `"gopkg.in/yaml.v3" imported as yaml and not used`).
func unusedImport(msg string) bool {
	return strings.HasPrefix(msg, `"`) && strings.Contains(msg, `" imported `) && strings.HasSuffix(msg, " and not used")
}

func dropUnusedImports(errs []packages.Error) []packages.Error {
	out := errs[:0]
	for _, e := range errs {
		if e.Kind != packages.TypeError || !unusedImport(e.Msg) {
			out = append(out, e)
		}
	}
	return out
}

func dropUnusedTypeErrors(errs []types.Error) []types.Error {
	out := errs[:0]
	for _, e := range errs {
		if !e.Soft || !unusedImport(e.Msg) {
			out = append(out, e)
		}
	}
	return out
}
