// Package idemwatermill runs Watermill message handlers under the idempotency middleware, as
// router middleware.
//
//	mw, err := idemwatermill.New("charge", idemwatermill.MetadataKey("event_id"),
//		idempotency.WithStore(store), idempotency.WithRetention(72*time.Hour),
//		idempotency.WithFingerprint(idemwatermill.PayloadFingerprint))
//	poison, err := idemwatermill.PoisonQueue(publisher, "events.poison")
//	router.AddConsumerHandler("charge", "payments", sub, charge).AddMiddleware(poison, mw)
//
// A middleware belongs to one router handler, named by router.AddHandler's first argument:
// its keys are namespaced by that name, and it runs only that handler's messages, passing
// every other handler's straight through. So one event consumed by several handlers (a
// fan-out: a charge and a receipt handler on one topic) runs once in each, even on a shared
// store, and a middleware installed for the whole router (router.AddMiddleware) leaves other
// handlers alone. Build one per handler: a middleware shared by two handlers shares their
// keys, and the second to see an event would take it for a duplicate of the first's.
//
// A duplicate of a completed message is acknowledged. A duplicate of a message still being
// handled is nacked after its RetryAfter: the middleware waits that long (or until the
// message's context ends) before returning the error, since most Watermill subscribers
// redeliver a nacked message at once and a duplicate would otherwise spin, claiming the key
// thousands of times a second. The wait occupies the handler meanwhile. Watermill has no
// non-retryable error of its own: the errors that retrying cannot fix (complete_conflict,
// fingerprint_mismatch, an empty key) satisfy idempotency.IsPermanent, and PoisonQueue and
// ShouldRetry route them away from redelivery.
//
// Messages a handler produces are published by the router after the middleware has stored
// the completion marker. They are kept with the marker (result replay, with any store in this
// module), so if that publish fails, the redelivery, acknowledged as a duplicate, returns the
// same messages (same UUIDs, metadata and payloads) and the router publishes them again:
// consumers see them at least once. What is kept is each message's UUID, metadata and payload
// with a few bytes of framing (KeptSize says how many in all). Produced messages whose
// KeptSize is over idempotency.MaxResultSize are published but not kept, and the middleware's
// logger (idempotency.WithLogger) says so at warning level: if their publish fails, they are
// lost. For those, publish through an outbox in the same transaction as the handler's state
// (Watermill's forwarder, or sqlstore.Store.CompleteTx).
//
// A handler that asks for manual review (idempotency.NeedsReview) fails with a permanent
// error (PoisonQueue routes it away), and its key is marked failed. A later message of that
// key is acknowledged without running the handler, with or without
// idempotency.WithNeedsReviewReplay: the first one carries the failure for the reviewer, who
// lets the key run again with the store's Retry (or Forget) and republishes it.
package idemwatermill

import (
	"context"
	"errors"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"github.com/chokaq/idemlint/idempotency"
)

// New builds the middleware for the router handler named handler (router.AddHandler's first
// argument) and returns it as Watermill router middleware. Its keys are namespaced by handler
// unless the options name it otherwise (idempotency.WithName), so handlers that consume the
// same event never share a key; see Middleware for which messages it runs.
func New(handler string, key idempotency.KeyFunc[*message.Message], opts ...idempotency.Option) (message.HandlerMiddleware, error) {
	if handler == "" {
		return nil, errors.New("idemwatermill: New: empty handler name")
	}
	mw, err := idempotency.New(key, append([]idempotency.Option{idempotency.WithName(handler)}, opts...)...)
	if err != nil {
		return nil, err
	}
	return Middleware(mw, handler), nil
}

// Middleware returns Watermill router middleware that runs the messages of the router
// handler named handler through mw, and every other handler's straight to the next handler.
// A message whose context names no handler (a handler called directly, outside a router)
// is run through mw. The handler sees the claim in the message's context (msg.Context()).
//
// mw's keys are namespaced by its name (idempotency.WithName, or the job type when unnamed,
// which every Watermill middleware shares): give each handler a middleware of its own, with
// a name of its own, or a fan-out of one event to several handlers runs in only one of them.
func Middleware(mw *idempotency.Middleware[*message.Message], handler string) message.HandlerMiddleware {
	k := &keeper{log: mw.Logger(), handler: handler}
	return func(h message.HandlerFunc) message.HandlerFunc {
		return func(msg *message.Message) ([]*message.Message, error) {
			if name := message.HandlerNameFromCtx(msg.Context()); name != "" && name != handler {
				return h(msg)
			}
			var produced []*message.Message
			outer := msg.Context()
			kept, duplicate, err := mw.HandleResult(outer, msg, func(ctx context.Context, msg *message.Message) error {
				msg.SetContext(ctx)
				defer msg.SetContext(outer)
				var err error
				produced, err = h(msg)
				if err == nil && len(produced) > 0 {
					k.keep(ctx, msg, produced)
				}
				return err
			})
			if err == nil && duplicate && kept != nil {
				return k.replay(msg, kept), nil
			}
			if nr := (*idempotency.NeedsReviewError)(nil); errors.As(err, &nr) && nr.Duplicate {
				return nil, nil // a message of a key awaiting review: acknowledged
			}
			var ip *idempotency.InProgressError
			if errors.As(err, &ip) {
				delayNack(outer, ip.RetryAfter)
			}
			if err != nil {
				return nil, err
			}
			return produced, nil
		}
	}
}

// minNackDelay keeps a duplicate that meets a lease about to end from coming straight back.
const minNackDelay = 100 * time.Millisecond

// delayNack waits d (at least minNackDelay) or until ctx ends.
func delayNack(ctx context.Context, d time.Duration) {
	t := time.NewTimer(max(d, minNackDelay))
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// MetadataKey takes the key from a message metadata field, such as an event ID the
// publisher sets. A missing field gives an empty key, for the middleware's empty-key policy.
func MetadataKey(field string) idempotency.KeyFunc[*message.Message] {
	return func(msg *message.Message) (string, error) { return msg.Metadata.Get(field), nil }
}

// UUIDKey takes the message's UUID as the key. It recognises redeliveries of one message,
// not a second message published for the same business event: prefer a business key.
func UUIDKey(msg *message.Message) (string, error) { return msg.UUID, nil }

// PayloadFingerprint is a fingerprint function (idempotency.WithFingerprint) over the
// message's payload.
func PayloadFingerprint(msg *message.Message) ([]byte, error) { return msg.Payload, nil }

// ShouldRetry is for middleware.Retry's ShouldRetry: it stops retrying errors that retrying
// cannot fix.
func ShouldRetry(p middleware.RetryParams) bool { return !idempotency.IsPermanent(p.Err) }

// PoisonQueue returns middleware that publishes messages failing with a permanent
// idempotency error to topic, and acknowledges them, instead of letting them be redelivered
// forever. Add it before (outside) the idempotency middleware.
func PoisonQueue(pub message.Publisher, topic string) (message.HandlerMiddleware, error) {
	if pub == nil {
		return nil, errors.New("idemwatermill: nil publisher")
	}
	return middleware.PoisonQueueWithFilter(pub, topic, idempotency.IsPermanent)
}
