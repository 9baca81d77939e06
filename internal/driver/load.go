package driver

import (
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/config"
	"github.com/chokaq/idemlint/internal/model"
)

// Loaded is the outcome of Load, to be analysed by Analyze, possibly more than once (the
// command's tests load a module once and analyse it with several settings).
type Loaded struct {
	pkgs []*packages.Package
	// listed is true when pkgs are metadata only (listMode): every analysis type-checks
	// its own copy of them (analyseListed), the dependencies first and one at a time.
	listed bool
	// named holds the IDs of the packages the patterns name, when the program loaded is
	// wider (the main module); nil when it is exactly the patterns' packages.
	named map[string]bool
}

// Load loads the packages cfg names and checks what must hold before analysis: every
// pattern names packages, the module does not need a newer Go than this build, and every
// .idemlint.yml that applies to a package loads.
func Load(cfg Config, p *progress) (*Loaded, error) {
	if p == nil {
		p = newProgress(cfg.Progress)
	}
	if dbg(cfg.Debug, 'v') {
		log.Printf("load %s", cfg.Patterns)
	}
	p.Phase("loading " + strings.Join(cfg.Patterns, " "))
	l, err := load(cfg)
	p.Clear()
	return l, err
}

// Files lists the Go files of the packages named by the patterns (not of their
// dependencies), to tell whether a loaded set is still current.
func (l *Loaded) Files() []string {
	var out []string
	for _, p := range l.pkgs {
		out = append(out, p.CompiledGoFiles...)
	}
	return out
}

// ConfigError is a .idemlint.yml (or model file) that does not load: found once, before
// analysis, instead of once per package that it applies to. Exit status 2.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// load loads the program: the packages the patterns name and, unless cfg.PatternsOnly,
// every other package of their main module (the wiring in cmd/ that a program-wide link
// needs). named is the set of the patterns' package IDs when the program is wider, else nil.
func load(cfg Config) (*Loaded, error) {
	named, patterns, err := program(cfg)
	if err != nil {
		return nil, err
	}
	return loadProgram(cfg, named, patterns)
}

// program returns the patterns that load the program (see load) and the named set.
func program(cfg Config) (named map[string]bool, patterns []string, err error) {
	if cfg.PatternsOnly {
		return nil, cfg.Patterns, nil
	}
	return widen(cfg)
}

// listMode lists the program's packages without parsing or type-checking them: for
// idemlint's analyzer, the driver does both itself, dependencies first (stream.go).
const listMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedModule | packages.NeedTypesSizes

// loadProgram loads the patterns of program and checks them: listed only (listMode) for
// idemlint's analyzer, and with syntax and types, as the x/tools checker needs them, for
// any other (the benchmark's floor).
func loadProgram(cfg Config, named map[string]bool, patterns []string) (*Loaded, error) {
	listed := streams(cfg.Analyzer)
	conf := &packages.Config{
		// The analyzer exchanges facts, so dependencies need syntax too.
		Mode:       packages.LoadAllSyntax | packages.NeedModule,
		Tests:      cfg.Tests,
		BuildFlags: cfg.BuildFlags,
	}
	if listed {
		conf.Mode = listMode
	}
	pkgs, err := packages.Load(conf, patterns...)
	if err != nil {
		return nil, goError(err)
	}
	if err := patternErrors(pkgs); err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s: no Go packages there", strings.Join(cfg.Patterns, " "))
	}
	if !listed {
		if err := newerGo(pkgs); err != nil {
			return nil, err
		}
	}
	if err := checkConfigs(pkgs); err != nil {
		return nil, &ConfigError{err}
	}
	return &Loaded{pkgs: pkgs, named: named, listed: listed}, nil
}

// streams reports whether the driver type-checks and analyses a's packages itself
// (stream.go): a must be idemlint's analyzer, whose dependencies' facts the rounds restore.
func streams(a *analysis.Analyzer) bool {
	return a.ResultType == reflect.TypeFor[*analyzer.Result]()
}

// widen lists the patterns' packages (names only: one go list) and, when they belong to a
// main module, returns their IDs and the patterns with the module's added (the full load
// drops what the patterns already name). A pattern error is left for the full load to word.
func widen(cfg Config) (named map[string]bool, patterns []string, err error) {
	conf := &packages.Config{Mode: packages.NeedName | packages.NeedModule, Tests: cfg.Tests, BuildFlags: cfg.BuildFlags}
	listed, err := packages.Load(conf, cfg.Patterns...)
	if err != nil || len(listed) == 0 {
		return nil, cfg.Patterns, nil
	}
	named = map[string]bool{}
	var module, dir string
	for _, p := range listed {
		named[p.ID] = true
		if p.Module != nil && p.Module.Main && module == "" {
			module, dir = p.Module.Path, p.Module.Dir
		}
	}
	if wd, _ := os.Getwd(); module == "" || (slices.Contains(cfg.Patterns, "./...") && wd == dir) {
		return nil, cfg.Patterns, nil // no main module, or ./... at its root names all of it
	}
	return named, append(slices.Clone(cfg.Patterns), module+"/..."), nil
}

// goError words an error of the go command that go/packages passes on ("err: exit status
// 1: stderr: go: go.mod file not found in current directory or any parent directory; see
// 'go help modules'") as what is wrong.
func goError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "stderr: "); i >= 0 {
		msg = msg[i+len("stderr: "):]
	}
	msg = strings.TrimSpace(strings.TrimPrefix(msg, "go: "))
	if strings.Contains(msg, "go.mod file not found") {
		return errors.New(noModule())
	}
	return errors.New(msg)
}

func noModule() string {
	wd, _ := os.Getwd()
	return fmt.Sprintf("no Go module here: no go.mod in %s or any directory above it (run idemlint in a module, or create one with go mod init)", wd)
}

// patternErrors returns one error for the patterns that name no package: a directory that
// does not exist, one outside the main module, no module at all. go/packages returns each
// as a package without files; analysing it would count it as a package.
func patternErrors(pkgs []*packages.Package) error {
	var msgs []string
	add := func(m string) {
		if !slices.Contains(msgs, m) {
			msgs = append(msgs, m)
		}
	}
	for _, p := range pkgs {
		if p.Name != "" || len(p.GoFiles)+len(p.CompiledGoFiles)+len(p.OtherFiles) > 0 || len(p.Errors) == 0 {
			continue
		}
		for _, e := range p.Errors {
			add(plainPatternError(p.ID, e.Msg))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "\n"))
}

var (
	patternPrefix = regexp.MustCompile(`^pattern ([^:]+): `)
	notInModule   = regexp.MustCompile(`directory prefix (\S+) does not contain main module`)
)

func plainPatternError(id, msg string) string {
	pattern := id
	if m := patternPrefix.FindStringSubmatch(msg); m != nil {
		pattern, msg = m[1], msg[len(m[0]):]
	}
	switch {
	case strings.Contains(msg, "go.mod file not found") && !inModule():
		return noModule()
	case strings.Contains(msg, "does not contain modules listed in go.work"):
		return notInWorkspace(pattern, msg)
	case notInModule.MatchString(msg):
		if !inModule() {
			return noModule()
		}
		return fmt.Sprintf("%s: not in the main module (run idemlint from the module's directory)", pattern)
	case (strings.Contains(msg, "no such file or directory") || strings.Contains(msg, "directory not found")) && strings.HasSuffix(pattern, ".go"):
		return fmt.Sprintf("%s: no such file", pattern) // a file named on the command line
	case strings.Contains(msg, "no such file or directory") || strings.Contains(msg, "directory not found"):
		return fmt.Sprintf("%s: no such directory", strings.TrimSuffix(pattern, "/..."))
	case strings.Contains(msg, "is not in std"):
		return fmt.Sprintf("%s: no such package (not a directory here, not in the standard library)", pattern)
	}
	return pattern + ": " + msg
}

// notInWorkspace words the go command's error for a pattern outside every module of the
// workspace (./... at the root of a go.work whose modules are in subdirectories), naming
// the patterns that reach them.
func notInWorkspace(pattern, msg string) string {
	out, err := exec.Command("go", "env", "GOWORK").Output()
	file := strings.TrimSpace(string(out))
	data, rerr := os.ReadFile(file)
	if err != nil || file == "" || rerr != nil {
		return pattern + ": " + msg
	}
	work, err := modfile.ParseWork(file, data, nil)
	if err != nil || len(work.Use) == 0 {
		return pattern + ": " + msg
	}
	wd, _ := os.Getwd()
	var patterns []string
	for _, u := range work.Use {
		dir := filepath.Join(filepath.Dir(file), filepath.FromSlash(u.Path))
		if rel, err := filepath.Rel(wd, dir); err == nil && !strings.HasPrefix(rel, "..") {
			dir = "./" + filepath.ToSlash(rel)
		}
		patterns = append(patterns, dir+"/...")
	}
	return fmt.Sprintf("%s: no module of the workspace (%s) is in this directory: its modules are analysed with idemlint %s",
		pattern, filepath.Base(file), strings.Join(patterns, " "))
}

// inModule reports whether the go command finds a main module from the working directory.
func inModule() bool {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	return err == nil && gomod != "" && gomod != os.DevNull
}

var newerGoVersion = regexp.MustCompile(`requires newer Go version (go[0-9.]+)`)

// newerGo returns one error when packages need a newer Go than this build of idemlint
// (go/types refuses them, one type error per package): rebuilding with that Go fixes it.
func newerGo(pkgs []*packages.Package) error {
	need, n := "", 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if m := newerGoVersion.FindStringSubmatch(e.Msg); m != nil {
				n++
				if need == "" || versionLess(need, m[1]) {
					need = m[1]
				}
			}
		}
	})
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%s: the packages need %s, and this idemlint was built with %s, whose type checker refuses them. Rebuild idemlint with the newer Go, e.g.:\n\tGOTOOLCHAIN=%s go install github.com/chokaq/idemlint/cmd/idemlint@latest\n(or, in a clone: GOTOOLCHAIN=%s go install ./cmd/idemlint)",
		plural(n, "package"), need, runtime.Version(), toolchain(need), toolchain(need))
}

// toolchain names a toolchain release for GOTOOLCHAIN: "go1.27" is the language version,
// whose first release is go1.27.0.
func toolchain(v string) string {
	if strings.Count(v, ".") == 1 {
		return v + ".0"
	}
	return v
}

func versionLess(a, b string) bool {
	pa, pb := strings.Split(strings.TrimPrefix(a, "go"), "."), strings.Split(strings.TrimPrefix(b, "go"), ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		var x, y int
		fmt.Sscan(pa[i], &x)
		fmt.Sscan(pb[i], &y)
		if x != y {
			return x < y
		}
	}
	return len(pa) < len(pb)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// checkConfigs loads each .idemlint.yml that applies to a loaded package once, so that a
// broken one is one error before analysis, not one per package (plus a "failed
// prerequisites" line for each package that imports one).
func checkConfigs(pkgs []*packages.Package) error {
	wd, _ := os.Getwd()
	seen := map[string]bool{}
	files := map[string]bool{}
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, f := range p.CompiledGoFiles {
			dir := filepath.Dir(f)
			if seen[dir] {
				continue
			}
			seen[dir] = true
			cfg := config.Find(dir)
			if cfg == "" || files[cfg] {
				continue
			}
			files[cfg] = true
			// Named relative to the working directory in the message, when below it.
			if rel, err := filepath.Rel(wd, cfg); err == nil && !strings.HasPrefix(rel, "..") {
				cfg = rel
			}
			if _, err := model.LoadFile(cfg); err != nil {
				errs = append(errs, err)
			}
		}
	})
	return errors.Join(errs...)
}
