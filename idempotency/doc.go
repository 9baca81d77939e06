// Package idempotency is runtime middleware that makes a job or message handler safe to
// deliver more than once, for the duplicates that the handler's own process can see.
//
// Queues and brokers deliver at least once: a handler can run again after a crash, a lease
// expiry or a redelivery. The middleware wraps a handler of the shape
//
//	func(ctx context.Context, job J) error
//
// and, for the idempotency key that a key function derives from the job:
//
//   - writes an InProgress claim before the handler runs, so a concurrent duplicate is
//     deferred (or skipped, or waited for) instead of running in parallel;
//   - keeps the claim alive while a long handler runs, and cancels the handler's context if
//     it can no longer do so;
//   - writes a completion marker, kept for an explicit retention, after the handler succeeds,
//     so a later duplicate is acknowledged without running;
//   - releases the claim when the handler fails, so a retry can run.
//
// Every claim carries an owner token with an epoch that grows each time the key is claimed.
// Completing, renewing and releasing are compare-and-set on that token, so a worker whose
// lease expired and was taken over cannot record a completion: it gets a
// *CompleteConflictError instead (outcome "complete_conflict"), which must be investigated.
//
// What it does not do: make an external system exactly-once. If the process dies after an
// external side effect and before the completion marker is stored, the job runs again once
// the lease expires. Close that window where the effect lives: a provider idempotency key, a
// database unique constraint, or, for effects in the same SQL database as the store,
// transactional completion (package sqlstore's CompleteTx), which commits the business rows
// and the completion marker together.
//
// After a partial side effect: a handler of several effects wraps each in Step, a recovery
// point recorded with the key's record, so a redelivery resumes after the steps already done
// (sqlstore's StepTx records one in the handler's transaction); and a failure that no retry
// may repair is returned as NeedsReview(err), which marks the key failed for a person to
// review: later deliveries are acknowledged without running until ReviewStore.Retry or
// Inspector.Forget.
//
// Keys are namespaced by handler (WithName, or the job's Go type), by service if WithService
// is set (for services that share a store), and hashed before they reach the store
// (StoreKey), so two handlers never share a key and any key fits any store; an
// empty key is rejected, and so is a key built by Key from an empty part ("charge" and an
// empty ID). Build keys of several parts with Key: a concatenation such as "charge:" + ID
// cannot be told from a key that ends in ':' (a URL, a path), so it is taken as it is.
//
// A handler wrapped twice (the middleware installed for a whole mux and on the handler) runs
// under one claim: the inner install sees the claim on its key in the context and passes the
// job through.
//
// Outcomes are counted on the OpenTelemetry counter "chokaq.idempotency.claims" with the
// attribute "outcome" (see Outcome). Keys never appear in metrics; logs carry a short hash of
// the stored key.
//
// Stores: MemoryStore here (the default, for one process), package sqlstore (PostgreSQL and
// SQLite over database/sql) and package redisstore (Redis). Adapters for asynq, River and
// Watermill live in idemasynq, idemriver and idemwatermill; package idempotencytest holds
// the conformance suite every store passes, a fake clock and a fault-injecting store.
package idempotency
