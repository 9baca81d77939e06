package idempotencytest

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

// Op names a Store method.
type Op string

const (
	OpClaim    Op = "claim"
	OpRenew    Op = "renew"
	OpComplete Op = "complete"
	OpRelease  Op = "release"
	// OpStep is SaveStep (StepStore); LoadSteps passes straight through.
	OpStep Op = "step"
	// OpFail is Fail (ReviewStore); Retry passes straight through.
	OpFail Op = "fail"
)

// FaultKind is what an injected fault does to one call.
type FaultKind uint8

const (
	// FailBefore returns the fault's error without calling the store: the request never
	// arrived.
	FailBefore FaultKind = iota + 1
	// FailAfter calls the store and then returns the fault's error: the change is committed,
	// but the caller is told it failed.
	FailAfter
	// LoseReply calls the store, then waits for the caller's context to end and returns its
	// error: the change is committed and the reply never comes.
	LoseReply
	// PauseBefore stops the call before it reaches the store until Resume: a worker frozen
	// (or crashed) mid-call. The call then goes on, whatever its context says by then.
	PauseBefore
	// PauseAfter calls the store and then holds the reply until Resume: the change is
	// committed and the worker is frozen before it learns so.
	PauseAfter
)

// ErrInjected is the error a fault returns unless told otherwise.
var ErrInjected = errors.New("idempotencytest: injected fault")

// Fault is one injected failure, armed for the next call of its Op.
type Fault struct {
	op      Op
	kind    FaultKind
	err     error
	reached chan struct{}
	resume  chan struct{}
	once    sync.Once
}

// Reached is closed when a call meets the fault; for FailAfter, LoseReply and PauseAfter,
// once the store has done the call's work.
func (f *Fault) Reached() <-chan struct{} { return f.reached }

// Resume lets a paused call go on. Calling it more than once is harmless.
func (f *Fault) Resume() { f.once.Do(func() { close(f.resume) }) }

// FaultyStore wraps a Store and injects faults into chosen calls; calls without a fault pass
// straight through. It is safe for concurrent use.
type FaultyStore struct {
	inner idempotency.Store

	mu     sync.Mutex
	faults map[Op][]*Fault
	calls  map[Op]int
}

// NewFaultyStore wraps inner.
func NewFaultyStore(inner idempotency.Store) *FaultyStore {
	return &FaultyStore{inner: inner, faults: map[Op][]*Fault{}, calls: map[Op]int{}}
}

// Inject arms a fault for the next call of op that has none armed yet; faults on one op are
// met in the order injected.
func (s *FaultyStore) Inject(op Op, kind FaultKind) *Fault {
	return s.InjectErr(op, kind, ErrInjected)
}

// InjectErr is Inject with the error the fault returns.
func (s *FaultyStore) InjectErr(op Op, kind FaultKind, err error) *Fault {
	f := &Fault{op: op, kind: kind, err: err, reached: make(chan struct{}), resume: make(chan struct{})}
	s.mu.Lock()
	s.faults[op] = append(s.faults[op], f)
	s.mu.Unlock()
	return f
}

// Calls returns how many calls of op the wrapper has seen, faulty or not.
func (s *FaultyStore) Calls(op Op) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[op]
}

func (s *FaultyStore) next(op Op) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[op]++
	q := s.faults[op]
	if len(q) == 0 {
		return nil
	}
	s.faults[op] = q[1:]
	return q[0]
}

// do runs call under the fault armed for op, if any.
func (s *FaultyStore) do(ctx context.Context, op Op, call func(context.Context) error) error {
	f := s.next(op)
	if f == nil {
		return call(ctx)
	}
	if f.kind == FailBefore || f.kind == PauseBefore {
		close(f.reached)
		if f.kind == FailBefore {
			return f.err
		}
		<-f.resume
		return call(context.WithoutCancel(ctx))
	}
	err := call(ctx)
	close(f.reached)
	if err != nil {
		return err
	}
	switch f.kind {
	case FailAfter:
		return f.err
	case LoseReply:
		<-ctx.Done()
		return ctx.Err()
	case PauseAfter:
		<-f.resume
	}
	return nil
}

// Claim implements idempotency.Store.
func (s *FaultyStore) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	var res idempotency.ClaimResult
	err := s.do(ctx, OpClaim, func(ctx context.Context) error {
		var err error
		res, err = s.inner.Claim(ctx, req)
		return err
	})
	return res, err
}

// Renew implements idempotency.Store.
func (s *FaultyStore) Renew(ctx context.Context, key string, token idempotency.Token, lease time.Duration) error {
	return s.do(ctx, OpRenew, func(ctx context.Context) error { return s.inner.Renew(ctx, key, token, lease) })
}

// Complete implements idempotency.Store.
func (s *FaultyStore) Complete(ctx context.Context, key string, token idempotency.Token, retention time.Duration) error {
	return s.do(ctx, OpComplete, func(ctx context.Context) error { return s.inner.Complete(ctx, key, token, retention) })
}

// Release implements idempotency.Store.
func (s *FaultyStore) Release(ctx context.Context, key string, token idempotency.Token) error {
	return s.do(ctx, OpRelease, func(ctx context.Context) error { return s.inner.Release(ctx, key, token) })
}

// CompleteWithResult implements idempotency.ResultStore when the wrapped store does; faults
// armed for OpComplete apply to it too.
func (s *FaultyStore) CompleteWithResult(ctx context.Context, key string, token idempotency.Token, retention time.Duration, result []byte) error {
	return s.do(ctx, OpComplete, func(ctx context.Context) error {
		rs, ok := s.inner.(idempotency.ResultStore)
		if !ok {
			return idempotency.ErrResultsUnsupported
		}
		return rs.CompleteWithResult(ctx, key, token, retention, result)
	})
}

// LoadSteps implements idempotency.StepStore when the wrapped store does (else it fails with
// idempotency.ErrStepsUnsupported); it takes no faults.
func (s *FaultyStore) LoadSteps(ctx context.Context, key string) (map[string][]byte, error) {
	ss, ok := s.inner.(idempotency.StepStore)
	if !ok {
		return nil, idempotency.ErrStepsUnsupported
	}
	return ss.LoadSteps(ctx, key)
}

// SaveStep implements idempotency.StepStore when the wrapped store does; faults armed for
// OpStep apply to it.
func (s *FaultyStore) SaveStep(ctx context.Context, key string, token idempotency.Token, name string, result []byte, retention time.Duration) error {
	return s.do(ctx, OpStep, func(ctx context.Context) error {
		ss, ok := s.inner.(idempotency.StepStore)
		if !ok {
			return idempotency.ErrStepsUnsupported
		}
		return ss.SaveStep(ctx, key, token, name, result, retention)
	})
}

// errNotReviewStore is what Fail and Retry return when the wrapped store is no
// idempotency.ReviewStore.
var errNotReviewStore = errors.New("idempotencytest: the wrapped store is not an idempotency.ReviewStore")

// Fail implements idempotency.ReviewStore when the wrapped store does; faults armed for
// OpFail apply to it.
func (s *FaultyStore) Fail(ctx context.Context, key string, token idempotency.Token, retention time.Duration, reason string) error {
	return s.do(ctx, OpFail, func(ctx context.Context) error {
		rs, ok := s.inner.(idempotency.ReviewStore)
		if !ok {
			return errNotReviewStore
		}
		return rs.Fail(ctx, key, token, retention, reason)
	})
}

// Retry implements idempotency.ReviewStore when the wrapped store does; it takes no faults.
func (s *FaultyStore) Retry(ctx context.Context, key string) error {
	rs, ok := s.inner.(idempotency.ReviewStore)
	if !ok {
		return errNotReviewStore
	}
	return rs.Retry(ctx, key)
}
