// Package callbacks: a callback passed to a function that calls it enters the caller through that function (handler -> helper -> callback -> sink), across packages; a function value stored in a field, a package variable or a map in view enters where it is called. // want package:"has effects"
package callbacks

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"

	"callbacks/batch"
)

var db *sql.DB

const insert = "INSERT INTO ledger (id) VALUES ($1)"
const upsert = "INSERT INTO ledger (id) VALUES ($1) ON CONFLICT (id) DO NOTHING"

// A literal passed to a helper of another package: the chain goes through the helper.
func Literal(ctx context.Context, t *asynq.Task) error { // want Literal:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return batch.Each(ctx, t, func(ctx context.Context, item []byte) error { // want `handler Literal: SQL write not safe to repeat: INSERT without conflict handling \(Literal -> batch.Each -> func literal in Literal -> \(\*sql.DB\).ExecContext\)`
		_, err := db.ExecContext(ctx, insert, item)
		return err
	})
}

// The twin: the same helper with a callback that converges stays protected.
func LiteralClean(ctx context.Context, t *asynq.Task) error { // want LiteralClean:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	return batch.Each(ctx, t, func(ctx context.Context, item []byte) error {
		_, err := db.ExecContext(ctx, upsert, item)
		return err
	})
}

// A callback that does nothing of note leaves the handler with no effects.
func LiteralNone(ctx context.Context, t *asynq.Task) error {
	return batch.Loop(ctx, t, func(ctx context.Context, item []byte) error { return nil })
}

type store struct{}

func (s *store) save(ctx context.Context, item []byte) error { // want save:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, insert, item)
	return err
}

func record(ctx context.Context, item []byte) error {
	_, err := db.ExecContext(ctx, insert, item)
	return err
}

var st = &store{}

// A method value through a helper that hands it on (Loop -> Each).
func MethodValue(ctx context.Context, t *asynq.Task) error { // want MethodValue:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return batch.Loop(ctx, t, st.save) // want `handler MethodValue: SQL write not safe to repeat: INSERT without conflict handling \(MethodValue -> batch.Loop -> \(\*callbacks.store\).save -> \(\*sql.DB\).ExecContext\)`
}

// A function, through a recursive helper.
func Function(ctx context.Context, t *asynq.Task) error { // want Function:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return batch.Retry(ctx, 3, t, record) // want `handler Function: SQL write not safe to repeat: INSERT without conflict handling \(Function -> batch.Retry -> callbacks.record -> \(\*sql.DB\).ExecContext\)`
}

// A local variable defined once as a function value: it counts where it is made (the
// shorter chain), and through the helper.
func Variable(ctx context.Context, t *asynq.Task) error { // want Variable:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	f := batch.Func(record) // want `handler Variable: SQL write not safe to repeat: INSERT without conflict handling \(Variable -> callbacks.record -> \(\*sql.DB\).ExecContext\)`
	return batch.Each(ctx, t, f)
}

// A helper that keeps the callback: its effects count here, where it is made.
func Kept(ctx context.Context, t *asynq.Task) error { // want Kept:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	batch.Keep(record) // want `handler Kept: SQL write not safe to repeat: INSERT without conflict handling \(Kept -> callbacks.record -> \(\*sql.DB\).ExecContext\)`
	return nil
}

// A local helper that calls its parameter, and one more level of handing on.
func each(ctx context.Context, t *asynq.Task, f batch.Func) error { return batch.Each(ctx, t, f) }

func LocalHelper(ctx context.Context, t *asynq.Task) error { // want LocalHelper:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return each(ctx, t, record) // want `handler LocalHelper: SQL write not safe to repeat: INSERT without conflict handling \(LocalHelper -> callbacks.each -> callbacks.record -> \(\*sql.DB\).ExecContext\)`
}

func LocalHelperClean(ctx context.Context, t *asynq.Task) error {
	return each(ctx, t, func(context.Context, []byte) error { return nil })
}

// A spread of options after the callback leaves its position as it is.
func Spread(ctx context.Context, t *asynq.Task) error { // want Spread:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	var opts []batch.Option
	return batch.Consume(ctx, t, record, opts...) // want `handler Spread: SQL write not safe to repeat: INSERT without conflict handling \(Spread -> batch.Consume -> callbacks.record -> \(\*sql.DB\).ExecContext\)`
}

// A conversion to the helper's function type is the value it converts.
func Converted(ctx context.Context, t *asynq.Task) error { // want Converted:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return batch.Each(ctx, t, batch.Func(st.save)) // want `handler Converted: SQL write not safe to repeat: INSERT without conflict handling \(Converted -> batch.Each -> \(\*callbacks.store\).save -> \(\*sql.DB\).ExecContext\)`
}
