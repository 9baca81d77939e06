package analyzer

import (
	"path/filepath"
	"testing"
)

// Skipped is the analysis's own rule: the standard library unless -std, dependency
// modules the models describe, nothing else.
func TestSkipped(t *testing.T) {
	dir := t.TempDir()
	std := filepath.Join(goroot, "fmt")
	for _, tc := range []struct {
		std         bool
		dir, module string
		want        bool
	}{
		{false, std, "", true},
		{true, std, "", false},
		{false, dir, "", false},
		{false, dir, "github.com/hibiken/asynq", true},
		{false, dir, "github.com/aws/aws-sdk-go-v2/service/sqs", true},
		{false, dir, "github.com/example/unmodelled", false},
	} {
		a, err := New(Config{})
		if err != nil {
			t.Fatal(err)
		}
		if tc.std {
			a.Flags.Set("std", "true")
		}
		skipped, err := Skipped(a)
		if err != nil {
			t.Fatal(err)
		}
		if got := skipped(tc.dir, tc.module); got != tc.want {
			t.Errorf("std=%v: skipped(%s, %q) = %v, want %v", tc.std, tc.dir, tc.module, got, tc.want)
		}
	}
}
