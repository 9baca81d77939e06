package driver

import (
	"github.com/chokaq/idemlint/internal/reuse"
)

// storeInputs is what the result store needs of the run: cfg's settings, and the driver's
// rules for what the program is (program) and how its files are parsed (the trimmer).
func storeInputs(cfg Config, progress *progress) reuse.Inputs {
	return reuse.Inputs{
		Cache:        cfg.Cache,
		Analyzer:     cfg.Analyzer,
		Patterns:     cfg.Patterns,
		Tests:        cfg.Tests,
		PatternsOnly: cfg.PatternsOnly,
		BuildFlags:   cfg.BuildFlags,
		Disabled:     cfg.Disabled,
		FullSyntax:   cfg.fullSyntax,
		Verbose:      dbg(cfg.Debug, 'v'),
		Root:         sourceRoot(),
		Tool:         Tool(),
		Program:      func() (map[string]bool, []string, error) { return program(cfg) },
		Parser: func(modcache string) reuse.Parser {
			if t := trimmerIn(cfg.Analyzer, func() string { return modcache }); t != nil {
				return t
			}
			return nil
		},
		Progress: progress,
	}
}
