package sinks

import (
	"go/ast"

	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// KeyVerdict is the judgement of a key (keys.Verdict), the answer of JudgeKeys.
type KeyVerdict = keys.Verdict

// JudgeKeys judges the parts that together make a key, used in scope sc (keys.Reader.Judge):
// the one judgement of whether a key identifies the job.
func (j *Judge) JudgeKeys(parts []ast.Expr, sc Scope) KeyVerdict { return j.keys().Judge(parts, sc) }
