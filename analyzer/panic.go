package analyzer

import (
	"fmt"
	"runtime/debug"
)

// panicError turns a recovered panic into an error naming the package, with the stack for
// the bug report, so one bad package never crashes the whole run.
func panicError(pkg string, r any) error {
	return fmt.Errorf("idemlint: internal error analysing %s: %v (please report it with this stack)\n%s", pkg, r, debug.Stack())
}
