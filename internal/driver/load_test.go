package driver

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// A module newer than the build: one error for all the packages go/types refused, with the
// command that rebuilds idemlint.
func TestNewerGo(t *testing.T) {
	err := newerGoError(
		"package requires newer Go version go1.27 (application built with go1.26)",
		"package requires newer Go version go1.27 (application built with go1.26)",
		"package requires newer Go version go1.28 (application built with go1.26)",
		"undefined: x",
	)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{"3 packages: the packages need go1.28", "built with " + runtime.Version(), "GOTOOLCHAIN=go1.28.0 go install github.com/chokaq/idemlint/cmd/idemlint@latest"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if newerGoError("undefined: x") != nil {
		t.Errorf("an ordinary type error is not a newer-Go error")
	}
}

func TestPlainPatternError(t *testing.T) {
	for msg, want := range map[string]string{
		"pattern ./nosuch/...: lstat ./nosuch/: no such file or directory": "./nosuch: no such directory",
		"stat /m/nosuch: directory not found":                              "./nosuch: no such directory",
		"package help is not in std (/usr/local/go/src/help)":              "help: no such package (not a directory here, not in the standard library)",
		"stat /m/nope.go: directory not found":                             "./nope.go: no such file",
	} {
		id := "./nosuch"
		switch {
		case strings.Contains(msg, "help"):
			id = "help"
		case strings.Contains(msg, "nope.go"):
			id = "./nope.go"
		}
		if got := plainPatternError(id, msg); got != want {
			t.Errorf("%q: got %q, want %q", msg, got, want)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, tc := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "v0.1.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "b397f84abcdef0123456789"}, {Key: "vcs.modified", Value: "true"}}}, "(devel) b397f84abcde+dirty"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
	} {
		if got := version(&tc.bi); got != tc.want {
			t.Errorf("version(%+v) = %q, want %q", tc.bi.Main, got, tc.want)
		}
	}
}
