package driver

import (
	"runtime/debug"

	"github.com/chokaq/idemlint/internal/result"
)

// Tool describes this build of idemlint.
func Tool() result.Tool {
	return result.Tool{Name: "idemlint", Version: Version(), URI: "https://github.com/chokaq/idemlint"}
}

// Version is this build's version: the module version when installed by version (go
// install ...@v0.1.0), the one the go command stamps from the repository when built in a
// clone (v0.1.1-0.20261201102500-b397f84abcde+dirty), else the VCS revision when it is
// recorded, else "(devel)".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return version(bi)
}

func version(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "+dirty"
	}
	return "(devel) " + rev
}
