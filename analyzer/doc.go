// Package analyzer defines idemlint's go/analysis Analyzer.
//
// # Analyzer idemlint
//
// idemlint: find job and message handlers whose side effects are not safe to repeat
//
// Queues and brokers deliver at least once: a handler runs again when a worker crashes after
// a side effect but before the job is recorded as done. idemlint finds the handlers (asynq,
// River, Watermill, and functions marked //idemlint:handler) that reach a side effect
// (an SQL write that does not converge, an HTTP POST or PATCH, an email, a payment) with no
// idempotency key, upsert or other guard, and reports one diagnostic per handler and effect
// kind, on the call in the handler's body that leads to the effect, with the call chain and
// the checklist decisions still missing.
//
// Effects propagate from callee to caller within a package and across packages as facts on
// functions. Directives:
//
//	//idemlint:ignore KIND[,KIND] -- reason   silence kinds on this line, the next, or a function
//	//idemlint:idempotent -- reason           a function whose effects are safe to repeat
//	//idemlint:handler                        treat a function as a handler
//
// See https://github.com/chokaq/idemlint/blob/main/docs/checks.md for every check.
package analyzer
