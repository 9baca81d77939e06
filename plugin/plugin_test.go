package plugin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/chokaq/idemlint/internal/effect"
)

// golangci-lint finds the plugin by the linter's name and asks for type information.
func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("idemlint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil) // no settings block
	if err != nil {
		t.Fatal(err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", got, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Name != "idemlint" {
		t.Errorf("analyzers %v, want idemlint alone", as)
	}
}

// Settings arrive as golangci-lint decodes YAML: maps of any. enable becomes the disabled
// complement.
func TestSettings(t *testing.T) {
	all := func(except ...string) []string {
		var out []string
		for _, k := range effect.Kinds {
			if !slices.Contains(except, string(k)) {
				out = append(out, string(k))
			}
		}
		return out
	}
	for _, tc := range []struct {
		name        string
		conf        any
		disable     []string
		noBuiltin   bool
		wantModelsN int
	}{
		{"none", nil, nil, false, 0},
		{"empty", map[string]any{}, nil, false, 0},
		{"disable", map[string]any{"disable": []any{"email.send", "payment"}}, []string{"email.send", "payment"}, false, 0},
		{"enable", map[string]any{"enable": []any{"sql.write"}}, all("sql.write"), false, 0},
		{"both", map[string]any{"enable": []any{"sql.write", "payment"}, "disable": []any{"payment"}}, all("sql.write"), false, 0},
		{"builtin off", map[string]any{"builtin": false}, nil, true, 0},
		{"models", map[string]any{"models": []any{"a.yml", "b.yml"}}, nil, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := register.DecodeSettings[Settings](tc.conf)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := s.config()
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Sorted(slices.Values(cfg.Disable))
			want := slices.Sorted(slices.Values(tc.disable))
			if !slices.Equal(got, want) {
				t.Errorf("Disable %v, want %v", got, want)
			}
			if cfg.NoBuiltin != tc.noBuiltin {
				t.Errorf("NoBuiltin %v, want %v", cfg.NoBuiltin, tc.noBuiltin)
			}
			if len(cfg.Models) != tc.wantModelsN {
				t.Errorf("Models %v, want %d files", cfg.Models, tc.wantModelsN)
			}
		})
	}
}

// A bad setting fails with a message that names it.
func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		conf any
		want []string
	}{
		{map[string]any{"disabel": []any{"email.send"}}, []string{`unknown field "disabel"`, "known settings: disable, enable, models, builtin, decisions, shared-sinks, schema"}},
		{map[string]any{"disable": "email.send"}, []string{"idemlint: setting disable: want a list of strings, got a string"}},
		{map[string]any{"builtin": "no"}, []string{"idemlint: setting builtin: want a boolean (true or false), got a string"}},
		{map[string]any{"models": "a.yml"}, []string{"idemlint: setting models: want a list of strings, got a string"}},
		{map[string]any{"disable": []any{"mail.send"}}, []string{`setting disable: unknown effect kind "mail.send"`, "email.send"}},
		{map[string]any{"enable": []any{42}}, []string{"idemlint: setting enable: want a string, got a number"}},
		{map[string]any{"decisions": []any{"owner"}}, []string{`-decisions: unknown decision "owner"`, "key, enforcement, ttl, partial"}},
		{map[string]any{"shared-sinks": "twice"}, []string{`idemlint: setting shared-sinks: unknown value "twice" (known: once, per-handler)`}},
		{map[string]any{"schema": []any{"no/such/*.sql"}}, []string{`idemlint: setting schema: no/such/*.sql: no such file, directory or match`}},
	} {
		_, err := New(tc.conf)
		if err == nil {
			t.Errorf("%v: no error", tc.conf)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q lacks %q", tc.conf, err, w)
			}
		}
	}
}

// The schema setting reaches the analyzer as given; without it, the module golangci-lint
// runs in is searched, and the files found are named relative to it.
func TestSchemaSetting(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module m\n", "db/1_a.up.sql": "CREATE TABLE a (id int PRIMARY KEY);"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	s, err := register.DecodeSettings[Settings](map[string]any{"schema": []any{"db"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.config()
	if err != nil || !slices.Equal(cfg.Schema, []string{"db"}) {
		t.Errorf("Schema %v, %v; want [db]", cfg.Schema, err)
	}
	cfg, err = Settings{}.config()
	if err != nil || !slices.Equal(cfg.Schema, []string{filepath.Join("db", "1_a.up.sql")}) {
		t.Errorf("discovered Schema %v, %v; want [db/1_a.up.sql]", cfg.Schema, err)
	}
}
