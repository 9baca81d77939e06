// Package all lists idemlint's checks in the order they run and report, as staticcheck
// keeps its checks in one list: adding a check is a package under internal/checks and one
// line here. The directives check is last, since it reports the directives that silenced
// nothing, and every check before it says which it used.
package all

import (
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/checks/conflicts"
	"github.com/chokaq/idemlint/internal/checks/decisions"
	"github.com/chokaq/idemlint/internal/checks/directives"
	"github.com/chokaq/idemlint/internal/checks/ttl"
)

// Checks are every check, in the order they run.
var Checks = []*checks.Check{
	&ttl.Check,
	&decisions.Check,
	&conflicts.Check,
	&directives.Check,
}
