package analyzer

import (
	"fmt"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// testHookRun, when set by a test, runs at the start of every pass inside its recover: the
// way to prove that a panic becomes an error and not a crash.
var testHookRun func(*analysis.Pass)

// testHookEvaluate, when set by a test, runs each time a function is resolved or its effects are evaluated.
var testHookEvaluate func(name string)

// panicError turns a recovered panic into an error naming the package and, when known, the
// function, with the stack for the bug report, so one bad package never crashes the run.
func panicError(pkg, fn string, r any) error {
	where := pkg
	if fn != "" {
		where += " (function " + fn + ")"
	}
	return fmt.Errorf("idemlint: internal error analysing %s: %v (please report it with this stack)\n%s", where, r, debug.Stack())
}
