package idempotency

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// ResultStore is a Store that can keep a small result with a completion marker, so that a
// duplicate gets the result back (result replay). Every store in this module is one.
type ResultStore interface {
	Store
	// CompleteWithResult is Complete that keeps result with the marker; a Claim that finds
	// the marker returns it in ClaimResult.Result. The store may keep the slice.
	CompleteWithResult(ctx context.Context, key string, token Token, retention time.Duration, result []byte) error
}

// MaxResultSize bounds what SetResult keeps: a result is for a receipt, an ID, a small
// reply, not for a payload (keep those in a table of your own, keyed by the job).
const MaxResultSize = 64 << 10

// ErrResultsUnsupported is returned by SetResult when the middleware's store is not a
// ResultStore.
var ErrResultsUnsupported = errors.New("idempotency: the store cannot keep results (it is not a ResultStore)")

// SetResult keeps result with the completion marker of the claim that ctx's handler runs
// under: a later duplicate gets it back from HandleResult instead of running. Call it before
// the handler returns (before CompleteTx, with transactional completion); a second call
// replaces the first. It does nothing under RunUnprotected, and fails outside a handler run
// by the middleware, for a result over MaxResultSize, and when the store is not a
// ResultStore.
func SetResult(ctx context.Context, result []byte) error {
	switch v := ctx.Value(claimKey{}).(type) {
	case *claimState:
		if len(result) > MaxResultSize {
			return fmt.Errorf("idempotency: result of %d bytes is over MaxResultSize (%d)", len(result), MaxResultSize)
		}
		if _, ok := v.core.store.(ResultStore); !ok {
			return ErrResultsUnsupported
		}
		kept := append([]byte{}, result...) // the handler may reuse its slice
		v.result.Store(&kept)
		return nil
	case unprotected:
		return nil
	}
	return fmt.Errorf("idempotency: SetResult: %w", ErrNoDelivery)
}

// HandleResult is Handle that also returns a result: the one the handler kept with
// SetResult when it ran (duplicate false), or the one stored with the completion marker when
// the delivery is a duplicate of a completed job (duplicate true; nil if none was kept).
func (m *Middleware[J]) HandleResult(ctx context.Context, job J, next HandlerFunc[J]) (result []byte, duplicate bool, err error) {
	var out resultOut
	err = m.Handle(context.WithValue(ctx, resultKey{}, &out), job, next)
	return out.result, out.duplicate, err
}

// resultOut is where Handle leaves the result for HandleResult.
type resultOut struct {
	result    []byte
	duplicate bool
}

type resultKey struct{}

// giveResult hands a result to HandleResult's caller, if there is one.
func giveResult(ctx context.Context, result []byte, duplicate bool) {
	if out, ok := ctx.Value(resultKey{}).(*resultOut); ok {
		out.result, out.duplicate = result, duplicate
	}
}

// Logger returns the logger the middleware writes to (WithLogger, or slog.Default()), for
// adapters that report on its behalf.
func (m *Middleware[J]) Logger() *slog.Logger { return m.logger }
