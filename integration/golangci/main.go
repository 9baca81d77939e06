// Command custom-gcl is golangci-lint v2 with idemlint's module plugin built in: the binary
// that `golangci-lint custom` makes from .custom-gcl.yml, built here from the Go module
// proxy alone (golangci-lint custom clones golangci-lint's repository with git).
//
// Build it from this directory (bin/ is ignored by git):
//
//	go build -o ../../bin/custom-gcl .
//
// This module is also the integration test of the plugin, of go vet -vettool and of the
// editor routes through golangci-lint, VS Code and Neovim (see docs/editors.md). A user's own copy needs only this file
// and a go.mod that requires github.com/golangci/golangci-lint/v2 and
// github.com/chokaq/idemlint.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	// The plugin registers the linter "idemlint"; a configuration enables it (see
	// .golangci.example.yml at the repository's root).
	_ "github.com/chokaq/idemlint/plugin"
)

func main() {
	if err := commands.Execute(buildInfo()); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo describes the binary for `custom-gcl version`. Version stays "(devel)" on
// purpose: golangci-lint salts its result cache with the version, and for "(devel)" it
// hashes the executable instead. A fixed version string would let a rebuilt binary, with a
// changed idemlint or changed settings code, reuse the results of the old one.
func buildInfo() commands.BuildInfo {
	info := commands.BuildInfo{Version: "(devel)", GoVersion: "unknown", Commit: "?", Date: "(unknown)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	info.GoVersion = bi.GoVersion
	versions := map[string]string{}
	for _, d := range bi.Deps {
		switch r := d.Replace; {
		case r == nil:
			versions[d.Path] = d.Version
		case r.Version == "" || r.Version == "(devel)":
			versions[d.Path] = "from " + r.Path // a directory
		default:
			versions[d.Path] = r.Path + "@" + r.Version
		}
	}
	info.Commit = fmt.Sprintf("golangci-lint %s with idemlint %s",
		versions["github.com/golangci/golangci-lint/v2"], versions["github.com/chokaq/idemlint"])
	return info
}
