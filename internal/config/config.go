// Package config is the settings part of .idemlint.yml: the keys that the golangci-lint
// plugin takes as settings (disable, enable, decisions, builtin, models), which the
// idemlint command reads from the file beside the models (flags override them).
//
// The model loader (internal/model) accepts these keys in a model file and checks their
// YAML types with the rest of the file; this package finds the file, reads the keys and
// checks their values.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/rules"
)

// FileName is the per-project file, found by walking up from a package's directory to its
// module root (the analyzer's rule for models, and the command's for settings).
const FileName = ".idemlint.yml"

// Settings are the settings keys of .idemlint.yml, the same as the golangci-lint plugin's.
type Settings struct {
	// Disable lists effect kinds not to report.
	Disable []string `yaml:"disable" json:"disable"`
	// Enable, when not empty, lists the only effect kinds to report; Disable still applies.
	Enable []string `yaml:"enable" json:"enable"`
	// Models lists model files to load beside the built-in models, relative to the file.
	Models []string `yaml:"models" json:"models"`
	// Builtin turns the built-in models on (the default) or off.
	Builtin *bool `yaml:"builtin" json:"builtin"`
	// Decisions lists the checklist decisions to require; empty means all.
	Decisions []string `yaml:"decisions" json:"decisions"`
	// SharedSinks says how a sink that several handlers reach through a function they share
	// is reported: once (SharedOnce, the default: one finding at the shared function) or
	// once per handler (SharedPerHandler).
	SharedSinks string `yaml:"shared-sinks" json:"shared-sinks"`
	// Schema lists the project's schema: SQL files, directories of migrations or globs,
	// relative to the file, applied in the order given. Empty: the schema is found in the
	// module (schema.Discover).
	Schema []string `yaml:"schema" json:"schema"`
}

// The values of the shared-sinks setting.
const (
	SharedOnce       = "once"
	SharedPerHandler = "per-handler"
)

// CheckShared checks a shared-sinks value ("" is the default, once).
func CheckShared(v string) error {
	if v != "" && v != SharedOnce && v != SharedPerHandler {
		return fmt.Errorf("unknown value %q (known: %s, %s)", v, SharedOnce, SharedPerHandler)
	}
	return nil
}

// Find returns the settings file that applies to dir: the first FileName found walking up
// from dir to the module root (the first directory with a go.mod) or the file system
// root; "" when there is none.
func Find(dir string) string {
	for d := dir; ; {
		if isFile(filepath.Join(d, FileName)) {
			return filepath.Join(d, FileName)
		}
		parent := filepath.Dir(d)
		if parent == d || isFile(filepath.Join(d, "go.mod")) {
			return ""
		}
		d = parent
	}
}

func isFile(name string) bool {
	st, err := os.Stat(name)
	return err == nil && !st.IsDir()
}

// Read reads the settings keys of file, whose YAML the model loader has already checked
// (the other keys are models), checks their values and makes Models relative to the
// working directory. Errors carry file:line:column.
func Read(file string) (Settings, error) {
	var s Settings
	data, err := os.ReadFile(file)
	if err != nil {
		return s, err
	}
	if err := yaml.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%s: %v", file, err)
	}
	if err := s.check(func(path string) string { return place(file, data, path) }); err != nil {
		return s, err
	}
	for i, m := range s.Models {
		if !filepath.IsAbs(m) {
			s.Models[i] = filepath.Join(filepath.Dir(file), m)
		}
	}
	return s, nil
}

// check checks kinds and decisions; where names the YAML path of a bad value.
func (s Settings) check(where func(path string) string) error {
	for _, list := range []struct {
		name  string
		items []string
	}{{"disable", s.Disable}, {"enable", s.Enable}} {
		for i, k := range list.items {
			if !Disableable(list.name, k) {
				return fmt.Errorf("%s: unknown effect kind %q (known: %s)", where(fmt.Sprintf("$.%s[%d]", list.name, i)), k, Known(list.name))
			}
		}
	}
	for i, d := range s.Decisions {
		if !checklist.Known(d) {
			return fmt.Errorf("%s: unknown decision %q (known: %s)", where(fmt.Sprintf("$.decisions[%d]", i)), d, strings.Join(checklist.Names(checklist.Order), ", "))
		}
	}
	if err := CheckShared(s.SharedSinks); err != nil {
		return fmt.Errorf("%s: %v", where("$.shared-sinks"), err)
	}
	return nil
}

// Disabled is the list of kinds not to report: Disable, and with Enable the kinds it leaves
// out.
func (s Settings) Disabled() []string {
	out := slices.Clone(s.Disable)
	if len(s.Enable) > 0 {
		for _, k := range effect.Kinds {
			if !slices.Contains(s.Enable, string(k)) && !slices.Contains(out, string(k)) {
				out = append(out, string(k))
			}
		}
	}
	return out
}

// KnownKinds lists the effect kinds for messages.
func KnownKinds() string { return effect.KindList() }

// Disableable reports whether name is a valid entry of the setting list ("disable" or
// "enable"): an effect kind, or for disable also a check's name (rules.Checks), which turns
// that check off.
func Disableable(list, name string) bool {
	return effect.Known(effect.Kind(name)) || list == "disable" && slices.Contains(rules.Checks, name)
}

// Known lists, for a message, what the setting list accepts (see Disableable).
func Known(list string) string {
	if list == "disable" {
		return KnownKinds() + "; checks: " + strings.Join(rules.Checks, ", ")
	}
	return KnownKinds()
}

// place renders "file:line:column" for a YAML path of data, or "file:path" when the path
// cannot be found.
func place(file string, data []byte, path string) string {
	if doc, err := parser.ParseBytes(data, 0); err == nil {
		if p, err := yaml.PathString(path); err == nil {
			if n, err := p.FilterFile(doc); err == nil && n != nil && n.GetToken() != nil {
				pos := n.GetToken().Position
				return fmt.Sprintf("%s:%d:%d: field %s", file, pos.Line, pos.Column, fieldName(path))
			}
		}
	}
	return fmt.Sprintf("%s: field %s", file, fieldName(path))
}

// fieldName is the key of a path: "disable" for "$.disable[0]".
func fieldName(path string) string {
	path = strings.TrimPrefix(path, "$.")
	if i := strings.IndexByte(path, '['); i >= 0 {
		path = path[:i]
	}
	return path
}

// keys are the settings keys, as written in YAML.
var keys = []string{"disable", "enable", "models", "builtin", "decisions", "shared-sinks", "schema"}

// Keys lists the settings keys, as written in YAML, for messages.
func Keys() []string { return slices.Clone(keys) }

// Where renders "file:line:column: field F" for a YAML path ("$.models[1]") of file, as
// Read's own errors do, for problems found outside this package.
func Where(file, path string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Sprintf("%s: field %s", file, fieldName(path))
	}
	return place(file, data, path)
}

// SettingsOnly reports whether a parsed file has top-level keys and all of them are
// settings keys: a .idemlint.yml that configures the command and models nothing.
func SettingsOnly(doc *ast.File) bool {
	if doc == nil || len(doc.Docs) != 1 {
		return false
	}
	m, ok := doc.Docs[0].Body.(*ast.MappingNode)
	if !ok || len(m.Values) == 0 {
		return false
	}
	for _, kv := range m.Values {
		if !slices.Contains(keys, kv.Key.String()) {
			return false
		}
	}
	return true
}
