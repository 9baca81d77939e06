package analyzer

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/config"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/schema"
)

// ConfigFile is the name of the per-project model file, found by walking up from each
// package's directory to its module root, like staticcheck's configuration.
const ConfigFile = config.FileName

// settings are an analyzer's options, read from flags or a Config and compiled once, on
// first use, after the driver has parsed its flags.
type settings struct {
	disable, models string
	builtin         bool
	decisions       string // required checklist decisions, comma-separated; "" for all
	schema          string // -schema: comma-separated schema files, directories or globs
	shared          string // -shared-sinks: config.SharedOnce or config.SharedPerHandler
	// std analyses the standard library too. Its packages are neutral (only what the models
	// name counts), so this is for robustness runs over a large body of real code.
	std bool
	// program: summarise each package for a program-wide link (Result.Program), and
	// use what an earlier round of the link learned of the whole program.
	program bool
	Program

	once     sync.Once
	compiled *compiled
	err      error
}

// compiled is what a run needs: the models (built-in and -models files), the kinds not to
// report, and the indexes built with each project's .idemlint.yml, made once per file.
type compiled struct {
	libs       []model.Library
	base       *model.Index
	disabled   map[effect.Kind]bool
	off        map[string]bool // checks not to run, by name
	required   checklist.Set   // checklist decisions to report as missing
	perHandler bool            // -shared-sinks=per-handler
	schema     *schema.Schema  // -schema, read once

	mu        sync.Mutex
	dirConfig map[string]string // directory -> config file that applies ("" for none)
	byConfig  map[string]indexOrError
}

type indexOrError struct {
	index *model.Index
	err   error
}

func (s *settings) compile() (*compiled, error) {
	s.once.Do(func() {
		c := &compiled{
			disabled:  map[effect.Kind]bool{},
			dirConfig: map[string]string{},
			byConfig:  map[string]indexOrError{},
		}
		c.off = map[string]bool{}
		for _, k := range splitList(s.disable) {
			switch {
			case effect.Known(effect.Kind(k)):
				c.disabled[effect.Kind(k)] = true
			case config.Disableable("disable", k):
				c.off[k] = true // a check's name: the check does not run
			default:
				s.err = fmt.Errorf("idemlint: -disable: unknown effect kind %q (known: %s)", k, config.Known("disable"))
				return
			}
		}
		c.required = checklist.Set{}
		for _, d := range splitList(s.decisions) {
			if !checklist.Known(d) {
				s.err = fmt.Errorf("idemlint: -decisions: unknown decision %q (known: %s)", d, strings.Join(checklist.Names(checklist.Order), ", "))
				return
			}
			c.required[checklist.Decision(d)] = true
		}
		if len(c.required) == 0 {
			c.required = checklist.All()
		}
		if err := config.CheckShared(s.shared); err != nil {
			s.err = fmt.Errorf("idemlint: -shared-sinks: %v", err)
			return
		}
		c.perHandler = s.shared == config.SharedPerHandler
		if s.builtin {
			c.libs = append(c.libs, model.Builtin()...)
		}
		var errs []error
		for _, f := range splitList(s.models) {
			lib, err := model.LoadFile(f)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			c.libs = append(c.libs, lib)
		}
		if len(errs) > 0 {
			s.err = fmt.Errorf("idemlint: -models: %w", errors.Join(errs...))
			return
		}
		c.base = model.Compile(c.libs)
		if entries := splitList(s.schema); len(entries) > 0 {
			files, err := schema.Expand("", entries)
			if err != nil {
				s.err = fmt.Errorf("idemlint: -schema: %w", err)
				return
			}
			if c.schema, err = schema.Read(files); err != nil {
				s.err = fmt.Errorf("idemlint: -schema: %w", err)
				return
			}
		}
		s.compiled = c
	})
	return s.compiled, s.err
}

// indexFor returns the model index for a package in dir: the base models, plus the
// .idemlint.yml that applies to dir, if any.
// checks is what the checks need of the settings.
func (c *compiled) checks() checks.Config {
	return checks.Config{Disabled: c.disabled, Required: c.required, Off: c.off, PerHandler: c.perHandler, Schema: c.schema}
}

func (c *compiled) indexFor(dir string) (*model.Index, error) {
	if dir == "" {
		return c.base, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cfg := c.findConfig(dir)
	if cfg == "" {
		return c.base, nil
	}
	if r, ok := c.byConfig[cfg]; ok {
		return r.index, r.err
	}
	var r indexOrError
	lib, err := model.LoadFile(cfg)
	if err != nil {
		r.err = err
	} else {
		r.index = model.Compile(append(append([]model.Library(nil), c.libs...), lib))
	}
	c.byConfig[cfg] = r
	return r.index, r.err
}

// findConfig returns the config file that applies to dir (config.Find: the first one
// walking up to the module root), cached per directory, since every package asks.
func (c *compiled) findConfig(dir string) string {
	found, ok := c.dirConfig[dir]
	if !ok {
		found = config.Find(dir)
		c.dirConfig[dir] = found
	}
	return found
}

// packageDir is the directory of the package's first Go file, or "" when unknown.
func packageDir(pass *analysis.Pass) string {
	for _, f := range pass.Files {
		if name := pass.Fset.File(f.Pos()).Name(); filepath.IsAbs(name) {
			return filepath.Dir(name)
		}
	}
	return ""
}
