package main

import (
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"testing"
)

// The same input gives byte-identical output whatever the parallelism: one CPU, several,
// and the checker's sequential mode, for the machine-readable formats; and the binary,
// which loads the packages afresh, gives what the in-process runs (sharing one load) give.
func TestDeterministicOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	bin := build(t)
	dir := examplesDir(t)
	// The test binary and the command may carry different versions.
	version := regexp.MustCompile(`"version": "[^"]*"`)
	for _, format := range []string{"json", "sarif"} {
		cmd := exec.Command(bin, "-q", "-format", format, "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOMAXPROCS=4")
		out, _ := cmd.Output() // exit status 3: findings
		if len(out) == 0 {
			t.Fatalf("%s: no output from the binary", format)
		}
		first := version.ReplaceAllString(string(out), `"version": "X"`)
		for _, env := range []struct {
			procs int
			args  []string
		}{
			{1, nil},
			{2, []string{"-debug", "p"}},
			{4, nil},
		} {
			old := runtime.GOMAXPROCS(env.procs)
			args := append([]string{"-q", "-format", format}, env.args...)
			stdout, _, _ := inProcess(t, dir, append(args, "./...")...)
			runtime.GOMAXPROCS(old)
			// inProcess cuts dir from paths; the relative paths of these formats have none.
			if got := version.ReplaceAllString(stdout, `"version": "X"`); got != first {
				t.Errorf("%s output differs (GOMAXPROCS=%d %v) from the binary's", format, env.procs, env.args)
			}
		}
	}
}
