// Package plugin registers idemlint as a golangci-lint module plugin named "idemlint".
//
// A custom golangci-lint binary that imports this package (golangci-lint custom with a
// .custom-gcl.yml, or a small main module; see docs/editors.md) runs idemlint when the
// configuration enables it:
//
//	version: "2"
//	linters:
//	  enable: [idemlint]
//	  settings:
//	    custom:
//	      idemlint:
//	        type: module
//	        description: job and message handlers whose side effects are not safe to repeat
//	        settings:
//	          disable: [email.send]  # effect kinds not to report
//	          enable: []             # if set, only these kinds are reported
//	          models: []             # model files to load beside the built-in models
//	          builtin: true          # use the built-in models
//	          decisions: []          # checklist decisions to require (key, enforcement, ttl, partial); default all
//	          shared-sinks: once     # a sink handlers reach through a shared function: once, or per-handler
//	          schema: []             # SQL schema files, migration directories or globs; default: the module's (docs/checks.md)
//
// Every setting is optional. An unknown setting, a value of the wrong type or an unknown
// effect kind stops golangci-lint with a message that names it.
package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/config"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/yamlerr"
)

// Name is the linter's name in golangci-lint: the key under linters.settings.custom, the
// name in linters.enable, in //nolint:idemlint and in the output.
const Name = "idemlint"

func init() { register.Plugin(Name, New) }

// Settings are the plugin's settings, the `settings:` block of the configuration. The JSON
// names are the keys users write in YAML.
type Settings struct {
	// Disable lists effect kinds not to report (sql.write, http.write, email.send, ...).
	Disable []string `json:"disable"`
	// Enable, when not empty, lists the only effect kinds to report. Disable still applies.
	Enable []string `json:"enable"`
	// Models lists model files to load beside the built-in models.
	Models []string `json:"models"`
	// Builtin turns the built-in models on (the default) or off.
	Builtin *bool `json:"builtin"`
	// Decisions lists the checklist decisions to require (key, enforcement, ttl, partial);
	// empty means all. A finding with none of them missing is not reported.
	Decisions []string `json:"decisions"`
	// SharedSinks is once (the default) or per-handler: how a sink that several handlers
	// reach through a function they share is reported.
	SharedSinks string `json:"shared-sinks"`
	// Schema lists the project's schema files, migration directories or globs, relative to
	// the directory golangci-lint runs in; empty: the .sql files of the module there that
	// declare tables.
	Schema []string `json:"schema"`
}

// knownSettings names the settings for error messages.
const knownSettings = "disable, enable, models, builtin, decisions, shared-sinks, schema"

// Plugin is the idemlint linter plugin.
type Plugin struct {
	analyzer *analysis.Analyzer
}

var _ register.LinterPlugin = (*Plugin)(nil)

// New decodes the settings and builds the analyzer, so a bad configuration fails once, when
// golangci-lint starts, with the setting named.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		// In the terms of the YAML the user wrote, not of this package's Go struct.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, fmt.Errorf("idemlint: setting %s: want %s, got %s", te.Field, yamlerr.Article(yamlerr.Kind(te.Type)), yamlerr.Article(te.Value))
		}
		return nil, fmt.Errorf("idemlint: bad settings: %w (known settings: %s)", err, knownSettings)
	}
	cfg, err := s.config()
	if err != nil {
		return nil, err
	}
	a, err := analyzer.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Plugin{analyzer: a}, nil
}

// config turns the settings into the analyzer's configuration: enable becomes the
// complement that is disabled.
func (s Settings) config() (analyzer.Config, error) {
	cfg := analyzer.Config{Models: s.Models, NoBuiltin: s.Builtin != nil && !*s.Builtin, Decisions: s.Decisions, SharedSinks: s.SharedSinks, Schema: s.Schema}
	if _, err := schema.Expand("", cfg.Schema); err != nil {
		return cfg, fmt.Errorf("idemlint: setting schema: %v", err)
	}
	if len(cfg.Schema) == 0 {
		// golangci-lint runs in the project: its module's schema, found once per run.
		if wd, err := os.Getwd(); err == nil {
			found, _ := schema.DiscoverModule(wd)
			for _, f := range found {
				if rel, err := filepath.Rel(wd, f); err == nil {
					f = rel // messages name the migration as the project does
				}
				cfg.Schema = append(cfg.Schema, f)
			}
		}
	}
	if err := config.CheckShared(s.SharedSinks); err != nil {
		return cfg, fmt.Errorf("idemlint: setting shared-sinks: %v", err)
	}
	for _, list := range []struct {
		name  string
		kinds []string
	}{{"disable", s.Disable}, {"enable", s.Enable}} {
		for _, k := range list.kinds {
			if !config.Disableable(list.name, k) {
				return cfg, fmt.Errorf("idemlint: setting %s: unknown effect kind %q (known: %s)", list.name, k, config.Known(list.name))
			}
		}
	}
	cfg.Disable = append(cfg.Disable, s.Disable...)
	if len(s.Enable) > 0 {
		for _, k := range effect.Kinds {
			if !slices.Contains(s.Enable, string(k)) && !slices.Contains(cfg.Disable, string(k)) {
				cfg.Disable = append(cfg.Disable, string(k))
			}
		}
	}
	return cfg, nil
}

// BuildAnalyzers returns idemlint's analyzer.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{p.analyzer}, nil
}

// GetLoadMode asks for type information: idemlint follows calls through types and facts.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
