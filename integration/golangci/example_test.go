package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// .custom-gcl.example.yml builds the same binary as this module: the golangci-lint version
// this module requires, and idemlint's plugin package, pinned to an exact version.
func TestCustomGCLExample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, ".custom-gcl.example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Version     string `yaml:"version"`
		Name        string `yaml:"name"`
		Destination string `yaml:"destination"`
		Plugins     []struct {
			Module, Import, Version, Path string
		} `yaml:"plugins"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github.com/golangci/golangci-lint/v2 (v\S+)`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod does not require github.com/golangci/golangci-lint/v2")
	}
	if cfg.Version != string(m[1]) {
		t.Errorf("version %q, want %q as in go.mod", cfg.Version, m[1])
	}
	if len(cfg.Plugins) != 1 {
		t.Fatalf("%d plugins, want 1", len(cfg.Plugins))
	}
	p := cfg.Plugins[0]
	if p.Module != "github.com/chokaq/idemlint" || p.Import != "github.com/chokaq/idemlint/plugin" {
		t.Errorf("plugin %s imported as %s, want github.com/chokaq/idemlint imported as github.com/chokaq/idemlint/plugin", p.Module, p.Import)
	}
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+(-\S+)?$`).MatchString(p.Version) || p.Path != "" {
		t.Errorf("plugin version %q, path %q: want an exact version and no path", p.Version, p.Path)
	}
}
