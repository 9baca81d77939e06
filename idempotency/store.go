package idempotency

import (
	"context"
	"errors"
	"time"
)

// Store keeps one record per idempotency key: an InProgress claim with a lease, or a
// completion marker with a retention. Implementations must make each method atomic with
// respect to the others on the same key, and must be safe for concurrent use.
//
// The idempotencytest package runs the same conformance suite against every implementation.
type Store interface {
	// Claim takes the key for req.Owner when it is free: never seen, released, or its lease
	// or retention has run out. Otherwise it reports who holds it. A store error means the
	// claim may or may not have been written; so a live InProgress claim already held by
	// req.Owner is claimed again (same token, lease extended), which makes a client's retry
	// after a lost reply safe.
	Claim(ctx context.Context, req ClaimRequest) (ClaimResult, error)

	// Renew extends the lease of the InProgress claim held by token to lease from now. It
	// returns ErrConflict when token no longer holds an InProgress claim on the key.
	Renew(ctx context.Context, key string, token Token, lease time.Duration) error

	// Complete turns the claim held by token into a completion marker kept for retention.
	// Repeating it with the same token succeeds, so a caller can retry after a lost reply.
	// It returns ErrConflict when token does not hold the key.
	Complete(ctx context.Context, key string, token Token, retention time.Duration) error

	// Release frees the InProgress claim held by token so the key can be claimed again at
	// once. Repeating it succeeds. It returns ErrConflict when token does not hold an
	// InProgress claim (for example, the key was taken over or already completed).
	Release(ctx context.Context, key string, token Token) error
}

// ClaimRequest asks a Store to claim a key.
type ClaimRequest struct {
	// Key is the idempotency key; never empty.
	Key string
	// Owner identifies this attempt; the store pairs it with a fresh epoch in the Token.
	Owner string
	// Fingerprint is a digest of the job's payload, or nil. The store keeps it with the claim
	// and returns the holder's in ClaimResult; it does not compare fingerprints itself. The
	// store may keep the slice, so callers must not change it afterwards.
	Fingerprint []byte
	// Lease is how long the claim holds without renewal.
	Lease time.Duration
}

// Status says what Claim found.
type Status uint8

const (
	// StatusClaimed: the caller now holds the key; ClaimResult.Token is its token.
	StatusClaimed Status = iota + 1
	// StatusInProgress: another owner holds a live claim; ClaimResult.Token is theirs.
	StatusInProgress
	// StatusCompleted: a completion marker within its retention exists.
	StatusCompleted
	// StatusFailed: a failed marker within its retention exists: the handler asked for
	// manual review (NeedsReview), so later deliveries are acknowledged without running it
	// until an operator calls Retry or Forget (ReviewStore). Only a ReviewStore reports it.
	StatusFailed
)

func (s Status) String() string {
	switch s {
	case StatusClaimed:
		return "claimed"
	case StatusInProgress:
		return "in_progress"
	case StatusCompleted:
		return "completed"
	case StatusFailed:
		return "failed"
	}
	return "unknown"
}

// ClaimResult is what a Store found or did for a ClaimRequest.
type ClaimResult struct {
	Status Status
	// Token of the record's holder: the caller's new token when Status is StatusClaimed.
	Token Token
	// Fingerprint stored with the existing record (nil when it has none). Meaningless when
	// Status is StatusClaimed.
	Fingerprint []byte
	// ExpiresIn is how long the record lives on, by the store's clock: the rest of the lease
	// for a claim, the rest of the retention for a completion marker. Measuring it on the
	// store's side keeps worker clock skew out of retry delays.
	ExpiresIn time.Duration
	// Result kept with a completion marker (ResultStore), when Status is StatusCompleted.
	Result []byte
	// Reason kept with a failed marker (ReviewStore.Fail), when Status is StatusFailed: the
	// text of the error that asked for review.
	Reason string
}

// Token identifies one claim of one key. Epoch grows with every claim of the key: it is at
// least the store's clock in microseconds, and always greater than the epoch of any earlier
// claim of the same key, even one whose record has since expired, been deleted or forgotten,
// and even after the store's clock stepped back (each store keeps a store-wide high-water
// mark: an atomic counter, a PostgreSQL sequence, a counter row or key). It so serves as a
// fencing token for external systems that can compare numbers.
type Token struct {
	Owner string
	Epoch int64
}

// Clock tells the time to stores that keep time themselves. Tests pass a fake one
// (idempotencytest.Clock) to move leases and retentions forward without waiting.
type Clock interface {
	Now() time.Time
}

// ErrConflict is returned by Store methods when the token no longer holds the key: its
// lease expired and another owner claimed it, or it was already completed or released.
var ErrConflict = errors.New("idempotency: the claim is no longer held by this token")

// ErrStoreFull is returned by MemoryStore.Claim when the store holds as many live records as
// it may. The job is not run; the error is retryable.
var ErrStoreFull = errors.New("idempotency: memory store is full")

// Inspector is implemented by stores that can show and delete one key's record: every store
// in this module. It is for operators (what holds this key? let a dead-lettered job run
// again) and for tests; the middleware never calls it. Find a job's key with
// Middleware.StoreKeyOf.
type Inspector interface {
	// Inspect returns the key's live record; a zero Record (Status 0) when there is none
	// (never claimed, released, or expired).
	Inspect(ctx context.Context, key string) (Record, error)
	// Forget deletes the key's record, whatever its state, so the next delivery runs the
	// job. Forgetting a live claim lets a duplicate run beside its holder (which is fenced:
	// its completion becomes a complete_conflict); forgetting a completion marker lets the
	// job run again. Epochs keep growing across it.
	Forget(ctx context.Context, key string) error
}

// Record is a key's live record as Inspect shows it.
type Record struct {
	// Status is StatusInProgress, StatusCompleted or StatusFailed; 0 when the key has no live
	// record.
	Status      Status
	Token       Token
	Fingerprint []byte
	// ExpiresIn is the rest of the lease or the retention, by the store's clock.
	ExpiresIn time.Duration
	// Reason is a failed marker's error text (StatusFailed).
	Reason string
	// Steps are the key's recorded steps (Step), by name, encoded as Step stores them; a
	// StepStore shows them while they are kept, also when Status is 0 (the claim that
	// recorded them was released, and the next delivery will skip them).
	Steps map[string][]byte
}
