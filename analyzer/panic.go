package analyzer

import (
	"fmt"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// testHookRun, when set by a test, runs at the start of every pass inside its recover: the
// way to prove that a panic becomes an error and not a crash.
var testHookRun func(*analysis.Pass)

// panicError turns a recovered panic into an error naming the package, with the stack for
// the bug report, so one bad package never crashes the whole run.
func panicError(pkg string, r any) error {
	return fmt.Errorf("idemlint: internal error analysing %s: %v (please report it with this stack)\n%s", pkg, r, debug.Stack())
}
