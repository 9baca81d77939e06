package main_test

import (
	"os"
	"os/exec"
	"testing"
)

// The same input gives byte-identical output whatever the parallelism: one CPU, several,
// and the checker's sequential mode, for the machine-readable formats and the inventory.
func TestDeterministicOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	bin := build(t)
	dir := examplesDir(t)
	for _, format := range []string{"json", "sarif"} {
		var first string
		for i, env := range []struct {
			procs string
			args  []string
		}{
			{"1", nil},
			{"4", nil},
			{"2", []string{"-debug", "p"}},
			{"4", nil},
		} {
			args := append([]string{"-q", "-format", format}, env.args...)
			cmd := exec.Command(bin, append(args, "./...")...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOMAXPROCS="+env.procs)
			out, _ := cmd.Output() // exit status 3: findings
			if len(out) == 0 {
				t.Fatalf("%s run %d: no output", format, i)
			}
			if i == 0 {
				first = string(out)
			} else if string(out) != first {
				t.Errorf("%s output differs between runs (GOMAXPROCS=%s %v)", format, env.procs, env.args)
			}
		}
	}
}
