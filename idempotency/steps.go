package idempotency

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// StepStore is a Store that can keep recovery points: the results of the named steps of a
// claim (Step), so that a later delivery of the same key, after a crash or a failure that
// released the claim, gets them back instead of running the steps again. Every store in this
// module is one. It is a separate interface so that stores written before it keep compiling;
// with a store that lacks it, Step fails without running its function (ErrStepsUnsupported).
//
// A key's steps belong to its record: only the token holding the key can add one, Forget
// removes them, and they are kept for the retention of the claim that recorded them, counted
// from the last step recorded (so a key's steps expire together), through releases and
// takeovers of the claim. A record whose retention ran out, and so a fresh run of the job,
// starts with no steps.
type StepStore interface {
	Store
	// LoadSteps returns the results of key's steps that are kept, by name (nil or empty when
	// none). Stores may return them to anyone: only the holder's Step calls it.
	LoadSteps(ctx context.Context, key string) (map[string][]byte, error)
	// SaveStep records the result of step name for the InProgress claim held by token, kept
	// for retention from now (the key's other kept steps too). Repeating it with the same
	// token succeeds. It returns ErrConflict when token does not hold an InProgress claim on
	// the key, so a worker whose claim was taken over cannot record a step.
	SaveStep(ctx context.Context, key string, token Token, name string, result []byte, retention time.Duration) error
}

// ErrStepsUnsupported is returned by Step, without running its function, when the
// middleware's store is not a StepStore.
var ErrStepsUnsupported = errors.New("idempotency: the store cannot keep steps (it is not a StepStore)")

// ErrNoDelivery is returned by Step, StepInTx, SetResult, CompleteInTx and RenewInTx when ctx
// is not the context of a handler run by the middleware: there is no claim to record
// anything under. Step then does not run its function either: a handler that is not wrapped
// (a wiring mistake) must not take its steps for protected ones.
var ErrNoDelivery = errors.New("idempotency: the context is not that of a handler run by the idempotency middleware")

// stepState is a delivery's view of its key's steps: loaded from the store at the first Step,
// and kept up to date by its own Step calls (only the claim's holder writes them).
type stepState struct {
	mu     sync.Mutex
	loaded bool
	steps  map[string][]byte
}

// Step runs fn as the step called name of the job that ctx's handler runs under, once per
// key: the first run that succeeds has its result recorded with the key's record (a
// recovery point), and a later delivery of the same key, after a crash or after a failure
// that released the claim, gets that result back without running fn. A handler of several
// external effects wraps each in a step, so a retry resumes after the last one recorded:
//
//	id, err := idempotency.Step(ctx, "charge", func(ctx context.Context) (string, error) { return provider.Charge(ctx, j) })
//
// The result is encoded as JSON (a []byte as it is, like SetResult's), and must fit in
// MaxResultSize once encoded; use a T that survives a JSON round trip. What is not closed:
// a crash after fn's effect and before its result is recorded runs fn again on the next
// delivery, so each step should still be idempotent where it can be (a provider key); steps
// shrink the window to one effect, they do not remove it.
//
// fn's error is returned as it is, and nothing is recorded: the next delivery runs fn again.
// When the result cannot be recorded after fn succeeded, Step returns fn's result with the
// error: a *StoreError (the store failed; the next delivery runs fn again), an error over
// MaxResultSize, or one matching ErrConflict when the claim was taken over, which also makes
// the delivery end as complete_conflict whatever the handler returns.
//
// Step names must be unique within a handler and stable across versions of it (a renamed
// step runs again), and 1 to 200 bytes of UTF-8 without NUL. Call steps one after another, not from concurrent goroutines with one
// name. Under the RunUnprotected empty-key policy Step runs fn with nothing recorded, as the
// policy says. Outside a handler run by the middleware it fails with ErrNoDelivery, and with
// a store that is not a StepStore with ErrStepsUnsupported, in both cases without running fn.
func Step[T any](ctx context.Context, name string, fn func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	st, err := stepClaim(ctx, name, "Step")
	if err != nil || st == nil {
		if err != nil {
			return zero, err
		}
		return fn(ctx) // RunUnprotected
	}
	ss, ok := st.core.store.(StepStore)
	if !ok {
		return zero, ErrStepsUnsupported
	}
	if st.completedInTx.Load() {
		// The claim is completed already: nothing can be recorded under it, and a step now
		// would turn the delivery's success into a conflict.
		return zero, fmt.Errorf("idempotency: Step %q after the claim was completed in the handler's transaction (CompleteTx): steps come before it", name)
	}
	if v, found, err := st.loadStep(ctx, ss, name); err != nil || found {
		if err != nil {
			return zero, err
		}
		return decodeStep[T](name, v)
	}
	v, err := fn(ctx)
	if err != nil {
		return v, err
	}
	enc, err := encodeStep(name, v)
	if err != nil {
		return v, err
	}
	c := st.core
	err = c.retry(ctx, opStep, 3, func(sctx context.Context) error {
		return ss.SaveStep(sctx, st.claim.StoreKey, st.claim.Token, name, enc, st.claim.Retention)
	})
	switch {
	case err == nil:
		st.steps.mu.Lock()
		if st.steps.steps == nil {
			st.steps.steps = map[string][]byte{}
		}
		st.steps.steps[name] = enc
		st.steps.mu.Unlock()
		return v, nil
	case errors.Is(err, ErrConflict):
		err = fmt.Errorf("idempotency: step %q ran but its claim was taken over, so its result was not recorded: %w", name, err)
		st.conflictErr.Store(&err)
		return v, err
	}
	c.metrics.storeError(ctx, opStep)
	c.log(ctx, slog.LevelError, "idempotency: a step ran but its result was not recorded; the next delivery runs it again", st.claim.StoreKey,
		slog.String("step", name), slog.Any("error", err))
	return v, &StoreError{Op: opStep, Err: err}
}

// StepInTx is for stores that can record a step in the handler's own transaction (see
// sqlstore.StepTx); handlers call the store's function, not this. It is Step with the
// step's result read and written by the store inside that transaction: load reads the
// step's kept result (found false when there is none), seeing the transaction's own writes;
// save records it, and must fail with an error matching ErrConflict when the claim is no
// longer held. So the step's business rows and its recovery point commit together, or
// neither does. The delivery's own view of its steps is read again from the store at its
// next Step, since only the store knows whether the transaction committed.
//
// Under RunUnprotected it runs fn with nothing recorded; outside a handler run by the
// middleware it fails with ErrNoDelivery without running fn.
func StepInTx[T any](ctx context.Context, name string,
	load func(c Claim) (result []byte, found bool, err error),
	save func(c Claim, result []byte) error,
	fn func(ctx context.Context) (T, error),
) (T, error) {
	var zero T
	st, err := stepClaim(ctx, name, "StepInTx")
	if err != nil || st == nil {
		if err != nil {
			return zero, err
		}
		return fn(ctx)
	}
	if st.completedInTx.Load() {
		return zero, fmt.Errorf("idempotency: StepInTx %q after the claim was completed in the handler's transaction (CompleteTx): steps come before it", name)
	}
	v, found, err := load(st.claim)
	if err != nil {
		return zero, fmt.Errorf("idempotency: step %q: reading its result: %w", name, err)
	}
	if found {
		return decodeStep[T](name, v)
	}
	out, err := fn(ctx)
	if err != nil {
		return out, err
	}
	enc, err := encodeStep(name, out)
	if err != nil {
		return out, err
	}
	err = save(st.claim, enc)
	st.steps.mu.Lock()
	st.steps.loaded = false // committed or not, the store knows; read it again
	st.steps.mu.Unlock()
	if errors.Is(err, ErrConflict) {
		st.conflictErr.Store(&err)
	}
	return out, err
}

// maxStepName bounds a step's name, which stores keep beside the key (a SQL primary key).
const maxStepName = 200

// stepClaim finds the claim a step runs under: nil with no error under RunUnprotected.
func stepClaim(ctx context.Context, name, fn string) (*claimState, error) {
	switch v := ctx.Value(claimKey{}).(type) {
	case *claimState:
		if name == "" || len(name) > maxStepName || !utf8.ValidString(name) || strings.ContainsRune(name, 0) {
			return nil, fmt.Errorf("idempotency: %s: step name %q must be 1 to %d bytes of UTF-8 without NUL", fn, name, maxStepName)
		}
		return v, nil
	case unprotected:
		return nil, nil
	}
	return nil, fmt.Errorf("idempotency: %s %q: %w", fn, name, ErrNoDelivery)
}

// loadStep returns the kept result of step name, loading the key's steps once per delivery.
func (st *claimState) loadStep(ctx context.Context, ss StepStore, name string) ([]byte, bool, error) {
	st.steps.mu.Lock()
	defer st.steps.mu.Unlock()
	if !st.steps.loaded {
		c := st.core
		var steps map[string][]byte
		err := c.retry(ctx, opStep, 2, func(sctx context.Context) error {
			var err error
			steps, err = ss.LoadSteps(sctx, st.claim.StoreKey)
			return err
		})
		if err != nil {
			c.metrics.storeError(ctx, opStep)
			return nil, false, &StoreError{Op: opStep, Err: err}
		}
		st.steps.steps, st.steps.loaded = steps, true
	}
	v, ok := st.steps.steps[name]
	return v, ok, nil
}

// encodeStep encodes a step's result: a []byte as it is, anything else as JSON.
func encodeStep[T any](name string, v T) ([]byte, error) {
	var enc []byte
	if b, ok := any(v).([]byte); ok {
		enc = append([]byte{}, b...)
	} else {
		var err error
		if enc, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("idempotency: step %q: encoding its result: %w", name, err)
		}
	}
	if len(enc) > MaxResultSize {
		return nil, fmt.Errorf("idempotency: step %q: result of %d bytes is over MaxResultSize (%d), so it was not recorded", name, len(enc), MaxResultSize)
	}
	return enc, nil
}

func decodeStep[T any](name string, enc []byte) (T, error) {
	var v T
	if p, ok := any(&v).(*[]byte); ok {
		*p = append([]byte{}, enc...)
		return v, nil
	}
	if err := json.Unmarshal(enc, &v); err != nil {
		return v, fmt.Errorf("idempotency: step %q: decoding its recorded result (did its type change?): %w", name, err)
	}
	return v, nil
}
