package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/config"
	"github.com/chokaq/idemlint/internal/driver"
	"github.com/chokaq/idemlint/internal/model"
)

// common holds the flags of both subcommands: what to load, the analyzer's settings, and
// how to report progress.
type common struct {
	tests    bool
	program  string
	tags     string
	quiet    bool
	debug    string
	baseline string
	std      bool
	cache    string

	disable, enable, models, decisions string
	sharedSinks, schema                string
	builtin                            bool

	// schemaFiles are the schema files config resolved, which -v sums up.
	schemaFiles []string
}

func (c *common) register(fs *flag.FlagSet) {
	// The analyzer's settings, with the usage texts of the analyzer's own flags (go vet
	// -vettool passes those), plus -enable as the plugin has it.
	usage := func(name string) string { return analyzer.Analyzer.Flags.Lookup(name).Usage }
	fs.StringVar(&c.disable, "disable", "", usage("disable"))
	fs.StringVar(&c.enable, "enable", "", "comma-separated effect kinds to report, and no others (-disable still applies)")
	fs.StringVar(&c.models, "models", "", usage("models"))
	fs.BoolVar(&c.builtin, "builtin", true, usage("builtin"))
	fs.StringVar(&c.decisions, "decisions", "", usage("decisions"))
	fs.StringVar(&c.sharedSinks, "shared-sinks", "", usage("shared-sinks")+" (default once)")
	fs.StringVar(&c.schema, "schema", "", usage("schema")+" (default: the module's .sql files that declare tables and its GORM, bun and ent models; see docs/checks.md)")
	fs.BoolVar(&c.std, "std", false, usage("std"))
	fs.BoolVar(&c.tests, "test", true, "analyse test files too")
	fs.StringVar(&c.program, "program", "module", "what the program-wide link sees: module (every package of the main module, whatever the patterns name; findings only for the patterns' packages) or patterns")
	fs.StringVar(&c.tags, "tags", "", "comma-separated build tags to load packages with")
	fs.BoolVar(&c.quiet, "q", false, "quiet: no progress line and no summary line on stderr")
	fs.StringVar(&c.cache, "cache", "", "the result cache's directory, or off (default $"+cache.EnvVar+", else idemlint in the user's cache directory; see idemlint cache)")
	fs.StringVar(&c.debug, "debug", "", `debug flags, any subset of "fpstv" (facts, sequential, sanity, timing, verbose)`)
}

// usageError is bad usage or configuration: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// config merges .idemlint.yml (found from the working directory up to the module root)
// with the flags set on the command line, which override it, and makes the analyzer. Every
// setting is checked here, once, before any package is loaded.
func (c *common) config(fs *flag.FlagSet, patterns []string, stderr io.Writer) (driver.Config, error) {
	var s config.Settings
	set := map[string]bool{} // the flags given on the command line
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	wd, err := os.Getwd()
	if err != nil {
		return driver.Config{}, err
	}
	settingsFile := ""
	if file := config.Find(wd); file != "" {
		rel := relTo(wd, file)
		settingsFile = rel
		// The file holds models too: load it whole, strictly, as the analyzer will.
		if _, err := model.LoadFile(rel); err != nil {
			return driver.Config{}, usageError{err}
		}
		if s, err = config.Read(rel); err != nil {
			return driver.Config{}, usageError{err}
		}
		// The model files it lists: a problem is the settings file's, named with its place
		// (the analyzer would report it as a -models flag's).
		if !set["models"] { // else -models replaces the list
			for i, m := range s.Models {
				if _, err := model.LoadFile(m); err != nil {
					return driver.Config{}, usagef("%s: %v", config.Where(rel, fmt.Sprintf("$.models[%d]", i)), err)
				}
			}
		}
	}
	for _, fl := range []struct {
		name string
		val  string
		dst  *[]string
	}{{"disable", c.disable, &s.Disable}, {"enable", c.enable, &s.Enable}, {"models", c.models, &s.Models}, {"decisions", c.decisions, &s.Decisions}} {
		if set[fl.name] {
			*fl.dst = splitList(fl.val)
		}
	}
	if set["builtin"] {
		s.Builtin = &c.builtin
	}
	if set["shared-sinks"] {
		if err := config.CheckShared(c.sharedSinks); err != nil {
			return driver.Config{}, usagef("-shared-sinks: %v", err)
		}
		s.SharedSinks = c.sharedSinks
	}
	for _, list := range []struct {
		name  string
		kinds []string
	}{{"disable", s.Disable}, {"enable", s.Enable}} {
		if !set[list.name] {
			continue // from the file, checked with its place by config.Read
		}
		for _, k := range list.kinds {
			if !config.Disableable(list.name, k) {
				return driver.Config{}, usagef("-%s: unknown effect kind %q (known: %s)", list.name, k, config.Known(list.name))
			}
		}
	}
	if !c.quiet {
		warnOwnPackages(stderr, wd, s.Models)
	}
	disabled := s.Disabled()
	schemaFiles, err := schemaFiles(set["schema"], c.schema, s, settingsFile, wd, stderr)
	if err != nil {
		return driver.Config{}, err
	}
	c.schemaFiles = schemaFiles
	a, err := analyzer.New(analyzer.Config{
		Schema:      schemaFiles,
		Disable:     disabled,
		Models:      s.Models,
		NoBuiltin:   s.Builtin != nil && !*s.Builtin,
		Decisions:   s.Decisions,
		SharedSinks: s.SharedSinks,
	})
	if err != nil {
		return driver.Config{}, usageError{err}
	}
	if c.std {
		a.Flags.Set("std", "true")
	}
	if c.program != "module" && c.program != "patterns" {
		return driver.Config{}, usagef("-program %q: want module or patterns", c.program)
	}
	cfg := driver.Config{
		Analyzer:     a,
		Patterns:     patterns,
		Tests:        c.tests,
		PatternsOnly: c.program == "patterns",
		Debug:        c.debug,
		Disabled:     disabled,
	}
	if c.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + c.tags}
	}
	if !c.quiet && isTerminal(stderr) {
		cfg.Progress = stderr
	}
	// -debug asks for what only an analysis shows (timing, facts), but for v: its log says
	// what the cache answered.
	if c.debug == "" || c.debug == "v" {
		cfg.Cache = openCache(c.cache, stderr)
	}
	return cfg, nil
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

// relTo returns file relative to dir when it is below it, for messages.
func relTo(dir, file string) string {
	if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}

// checkOutput fails before any work when the file named by -o cannot be created: its
// directory is missing or not writable.
func checkOutput(name string) error {
	if name == "" {
		return nil
	}
	dir := filepath.Dir(name)
	st, err := os.Stat(dir)
	if err != nil {
		return usagef("-o %s: directory %s does not exist", name, dir)
	}
	if !st.IsDir() {
		return usagef("-o %s: %s is not a directory", name, dir)
	}
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		return usagef("-o %s: is a directory", name)
	}
	probe, err := os.CreateTemp(dir, ".idemlint-*")
	if err != nil {
		return usagef("-o %s: cannot write in %s: %v", name, dir, errors.Unwrap(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// fail prints err with the command's prefix, once per line, and returns its exit status:
// 2 for bad usage or configuration, else 1.
func fail(stderr io.Writer, err error) int {
	for _, line := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "(") {
			fmt.Fprintln(stderr, line)
			continue
		}
		fmt.Fprintf(stderr, "idemlint: %s\n", strings.TrimPrefix(line, "idemlint: "))
	}
	var ue usageError
	var ce *driver.ConfigError
	if errors.As(err, &ue) || errors.As(err, &ce) {
		return exitUsage
	}
	return exitError
}

// group is a heading of the usage text and the flags under it.
type group struct {
	title string
	flags []string
}

// printFlags prints the flags of fs by group, as flag.PrintDefaults would each one; flags
// in no group (debugging and the legacy no-op flags) are not listed.
func printFlags(w io.Writer, fs *flag.FlagSet, groups []group) {
	for _, g := range groups {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, name := range g.flags {
			f := fs.Lookup(name)
			if f == nil {
				continue
			}
			kind, usage := flag.UnquoteUsage(f)
			line := "  -" + f.Name
			if kind != "" {
				line += " " + kind
			}
			if len(line) <= 4 {
				line += "\t"
			} else {
				line += "\n    \t"
			}
			line += strings.ReplaceAll(usage, "\n", "\n    \t")
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "-1" {
				if kind == "string" {
					line += fmt.Sprintf(" (default %q)", f.DefValue)
				} else {
					line += fmt.Sprintf(" (default %v)", f.DefValue)
				}
			}
			fmt.Fprintln(w, line)
		}
	}
}

// hidden are flags accepted but not listed: profiling and debugging, and the legacy vet
// flags that every go/analysis driver accepts and ignores.
var hidden = []string{"debug", "cpuprofile", "memprofile", "trace", "std", "source", "all"}

// parse parses args; -h and -help print the usage to stdout (asked for) and other errors
// go to stderr with a pointer to the usage. done is true when the command should exit
// with code.
func parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	usage := fs.Usage
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	if err == nil {
		fs.SetOutput(stderr)
		return 0, false
	}
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return exitClean, true
	}
	name := "idemlint"
	if fs.Name() != "idemlint" {
		name += " " + strings.TrimPrefix(fs.Name(), "idemlint ")
	}
	fmt.Fprintf(stderr, "idemlint: %v\nRun '%s -h' for usage.\n", err, name)
	return exitUsage, true
}

// isTerminal reports whether w is a character device (a terminal), where a progress line
// that rewrites itself is welcome; in CI logs and pipes it would be noise.
func isTerminal(w io.Writer) bool {
	file, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := file.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
