package idempotency

import (
	"errors"
	"fmt"
	"time"
)

// ErrEmptyKey is returned, without running the handler, when the key function gives an empty
// key and the middleware is set to RejectEmptyKey. Retrying cannot help: it is permanent.
var ErrEmptyKey = permanentError{errors.New("idempotency: empty idempotency key; the job was not run")}

// ErrNoRetention is returned, without running the handler, when a job that reports its own
// retention (see Job) reports none and the middleware has no WithRetention fallback. It is
// permanent.
var ErrNoRetention = permanentError{errors.New("idempotency: the job reports no retention for its completion marker; the job was not run")}

// RetentionError is returned, without running the handler, when a job that reports its own
// retention (see Job) reports one above zero but under the 1ms that WithRetention takes at
// least: a unit mistake, such as 72 meant as hours. The WithRetention fallback is not used,
// since the job did mean a retention of its own. It matches ErrNoRetention and is permanent.
type RetentionError struct {
	// Retention is what the job reported.
	Retention time.Duration
}

func (e *RetentionError) Error() string {
	return fmt.Sprintf("idempotency: the job reports a retention of %s, under the 1ms minimum (a unit mistake?); the job was not run", e.Retention)
}

// Is makes errors.Is(err, ErrNoRetention) true.
func (e *RetentionError) Is(target error) bool { return target == ErrNoRetention }
func (e *RetentionError) permanent()           {}

// ErrInProgress is matched (errors.Is) by the *InProgressError that the RetryLater policy
// returns for a duplicate of a job that is still running.
var ErrInProgress = errors.New("idempotency: a duplicate of this job is in progress")

// ErrLeaseLost is the cause (context.Cause) of the handler's context when the middleware
// could no longer renew the claim: the handler should stop, since another worker may take
// the job over.
var ErrLeaseLost = errors.New("idempotency: the claim's lease could not be renewed")

// InProgressError asks the queue to deliver the job again later: another worker holds a live
// claim on its key. Adapters turn it into the queue's retry or snooze.
type InProgressError struct {
	// RetryAfter is a hint: the policy's delay, or the rest of the holder's lease (by the
	// store's clock) if that is sooner.
	RetryAfter time.Duration
}

func (e *InProgressError) Error() string {
	return fmt.Sprintf("idempotency: a duplicate of this job is in progress; retry after %s", e.RetryAfter)
}

// Is makes errors.Is(err, ErrInProgress) true.
func (e *InProgressError) Is(target error) bool { return target == ErrInProgress }

// CompleteConflictError is returned when the handler finished but its completion marker could
// not be stored because its claim had expired and was taken over (or completed) by another
// worker. The handler's effects may have happened twice; the adapters make it a
// non-retryable failure, and an operator should investigate.
type CompleteConflictError struct {
	// KeyHash is the short hash of the key that the logs carry too.
	KeyHash string
	// Token is the claim this worker held.
	Token Token
	// Err is the store's error (it matches ErrConflict) joined with the handler's, if any.
	Err error
}

func (e *CompleteConflictError) Error() string {
	return fmt.Sprintf("idempotency: complete_conflict: the handler finished but its claim (key hash %s, epoch %d) was taken over by another worker, so no completion was recorded; investigate a possible duplicate side effect: %v",
		e.KeyHash, e.Token.Epoch, e.Err)
}

func (e *CompleteConflictError) Unwrap() error { return e.Err }
func (e *CompleteConflictError) permanent()    {}

// FingerprintMismatchError is returned, without running the handler, when a job's key is
// already claimed or completed for a different payload: the key is not a key for this job,
// which is a bug to fix, not a duplicate to drop. It is permanent.
type FingerprintMismatchError struct {
	KeyHash string
	// Status is what the key's record was: StatusInProgress, StatusCompleted or StatusFailed.
	Status Status
}

func (e *FingerprintMismatchError) Error() string {
	return fmt.Sprintf("idempotency: fingerprint_mismatch: key hash %s is %s for a different payload; the job was not run", e.KeyHash, e.Status)
}

func (e *FingerprintMismatchError) permanent() {}

// permanentError marks a sentinel as permanent while keeping it comparable with ==.
type permanentError struct{ error }

func (e permanentError) Unwrap() error { return e.error }
func (e permanentError) permanent()    {}

// IsPermanent reports whether err, returned by the middleware, must not be retried: running
// the job again would fail the same way or repeat a side effect. Adapters use it to pick the
// queue's non-retryable failure (asynq.SkipRetry, river.JobCancel, a poison queue).
func IsPermanent(err error) bool {
	var p interface{ permanent() }
	return errors.As(err, &p)
}

// StoreError is a store call that failed (a timeout, a lost connection, a full memory
// store): the job was not run, or its claim could not be released. It is retryable.
type StoreError struct {
	// Op is "claim", "renew", "complete", "release", "step" or "fail".
	Op  string
	Err error
}

func (e *StoreError) Error() string { return fmt.Sprintf("idempotency: %s: %v", e.Op, e.Err) }
func (e *StoreError) Unwrap() error { return e.Err }

// CompletionNotStoredError is returned when the handler succeeded but its completion marker
// could not be stored (outcome "complete_failed"): the claim runs out with its lease and a
// redelivery then runs the job again. It is retryable, but the handler's effects happened:
// only an effect that is idempotent itself (or transactional completion) makes the rerun
// harmless.
type CompletionNotStoredError struct {
	KeyHash string
	Token   Token
	Err     error
}

func (e *CompletionNotStoredError) Error() string {
	return fmt.Sprintf("idempotency: the handler succeeded but its completion marker (key hash %s) was not stored; the job may run again after the lease: %v", e.KeyHash, e.Err)
}
func (e *CompletionNotStoredError) Unwrap() error { return e.Err }
