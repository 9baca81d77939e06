package apicheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestUsageCompiles builds testdata/usage.go against the real packages (this
// module) and against the stubs (GOPATH mode, as analysistest loads them):
// code the linter's tests write the real way must compile against the stubs.
func TestUsageCompiles(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	usage := filepath.Join("testdata", "usage.go")
	// Stat it here: go test caches results by the files the test process
	// itself touches, and the go command below reads usage.go in a child.
	if _, err := os.Stat(usage); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		name string
		env  []string
	}{
		{"real", nil},
		{"stub", []string{"GOPATH=" + testdata, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"}},
	} {
		cmd := exec.Command("go", "build", usage)
		cmd.Env = append(os.Environ(), mode.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("usage.go does not build against the %s packages: %v\n%s", mode.name, err, out)
		}
	}
}
