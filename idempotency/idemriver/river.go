// Package idemriver runs River workers under the idempotency middleware, as River worker
// middleware.
//
//	mw, err := idemriver.New("charge", idemriver.ArgsKey(func(a ChargeArgs) string { return a.PaymentAttemptID }),
//		idempotency.WithStore(store), idempotency.WithRetention(72*time.Hour),
//		idempotency.WithFingerprint(idemriver.ArgsFingerprint))
//	client, err := river.NewClient(driver, &river.Config{Middleware: []rivertype.Middleware{mw}, ...})
//
// A middleware is scoped to the job kinds it has a key for: installed on the client, it runs
// jobs of any other kind straight through.
//
// A duplicate of a completed job is completed without running. A duplicate of a running job
// is snoozed (river.JobSnooze) for the in-progress policy's delay, which does not use up an
// attempt. Errors that retrying cannot fix (complete_conflict, fingerprint_mismatch, an empty
// key) cancel the job (river.JobCancel), keeping the message for a person to look at.
//
// A worker that asks for manual review (idempotency.NeedsReview) has its job cancelled, and
// its key marked failed. A later job of that key is not worked and is cancelled too (with an
// error matching idempotency.ErrNeedsReview), rather than completed as if it had run; the
// reviewer lets the key run again with the store's Retry (or Forget) and retries the job.
//
// With River on the same PostgreSQL database as a sqlstore.Store, the handler can complete
// the key in its own transaction (sqlstore.Store.CompleteTx) next to river.JobCompleteTx.
package idemriver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// New builds the middleware for jobs of kind and returns it as River worker middleware. Its
// keys are namespaced by kind unless the options name it otherwise (idempotency.WithName).
func New(kind string, key idempotency.KeyFunc[*rivertype.JobRow], opts ...idempotency.Option) (rivertype.WorkerMiddleware, error) {
	if kind == "" {
		return nil, errors.New("idemriver: New: empty job kind")
	}
	mw, err := idempotency.New(key, append([]idempotency.Option{idempotency.WithName(kind)}, opts...)...)
	if err != nil {
		return nil, err
	}
	return Middleware(mw, kind), nil
}

// Middleware returns River worker middleware that runs jobs of the given kinds through mw
// and every other job straight through. Install it on the client (river.Config.Middleware)
// or on one worker (its Middleware method).
func Middleware(mw *idempotency.Middleware[*rivertype.JobRow], kind string, more ...string) rivertype.WorkerMiddleware {
	return &workerMiddleware{mw: mw, kinds: append([]string{kind}, more...)}
}

type workerMiddleware struct {
	river.MiddlewareDefaults
	mw    *idempotency.Middleware[*rivertype.JobRow]
	kinds []string
}

// minSnooze keeps a duplicate that meets a lease about to end from coming straight back:
// JobSnooze(0) would make it available at once.
const minSnooze = 100 * time.Millisecond

func (m *workerMiddleware) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	if !slices.Contains(m.kinds, job.Kind) {
		return doInner(ctx)
	}
	out, err := m.mw.HandleOutcome(ctx, job, func(ctx context.Context, _ *rivertype.JobRow) error { return doInner(ctx) })
	var inProgress *idempotency.InProgressError
	switch {
	case out == idempotency.OutcomeNeedsReviewDuplicate:
		if err == nil {
			err = errNeedsReview
		}
		return river.JobCancel(err)
	case err == nil:
		return nil
	case errors.As(err, &inProgress):
		return river.JobSnooze(max(inProgress.RetryAfter, minSnooze))
	case idempotency.IsPermanent(err):
		return river.JobCancel(err)
	}
	return err
}

// errNeedsReview cancels a job whose key awaits manual review, when the middleware does not
// replay the failure (idempotency.WithNeedsReviewReplay).
var errNeedsReview = fmt.Errorf("idemriver: the job was not worked: %w", idempotency.ErrNeedsReview)

// ArgsKey derives the key from the job's arguments, decoded into A, prefixed with the job
// kind. An empty key is left to the middleware's empty-key policy; arguments that do not
// decode fail the job with a permanent *idempotency.KeyError (cancelled).
func ArgsKey[A any](key func(args A) string) idempotency.KeyFunc[*rivertype.JobRow] {
	return func(job *rivertype.JobRow) (string, error) {
		var a A
		if err := json.Unmarshal(job.EncodedArgs, &a); err != nil {
			return "", fmt.Errorf("idemriver: decoding the %s arguments: %w", job.Kind, err)
		}
		k := key(a)
		if k == "" {
			return "", idempotency.ErrEmptyKey
		}
		return job.Kind + ":" + k, nil
	}
}

// ArgsFingerprint is a fingerprint function (idempotency.WithFingerprint) over the job's kind
// and encoded arguments.
func ArgsFingerprint(job *rivertype.JobRow) ([]byte, error) {
	return append([]byte(job.Kind+"\x00"), job.EncodedArgs...), nil
}
