// Package outbox is a transactional outbox: a handler writes the messages it means to
// publish into a table, in the same transaction as its state change (Put), and a relay
// publishes them afterwards (Relay), with each message's stable ID as the broker's
// deduplication ID.
//
// It answers the checklist's question "what happens after a partial side effect?" for
// publishing. A handler that changes rows and then publishes can crash between the two: the
// rows are committed and the event is lost, or, retried, the event goes out twice. With the
// outbox the rows and the message commit together or not at all, and the message's ID is
// derived from the job's idempotency key (ID, ClaimID), so a redelivered handler that writes
// the same message again writes nothing (INSERT ... ON CONFLICT (id) DO NOTHING).
//
// Delivery is at least once: the relay publishes a message, then marks it published; a relay
// that dies in between publishes it again, with the same ID. The broker's deduplication on
// that ID (asynq's TaskID, River's unique args, NATS JetStream's Nats-Msg-Id, SQS FIFO's
// MessageDeduplicationId, Kafka's key with an idempotent producer) or the consumer's own
// idempotency (the middleware of package idempotency, keyed by the message ID) absorbs it.
//
// Order: messages of one topic are published in the order they were written (their seq),
// one at a time, and a message that fails holds back the later messages of its topic until
// it is published (head-of-line, as in a Kafka partition); topics do not wait for each other.
// On PostgreSQL several relays may run: each takes a topic lock (a transaction-scoped
// advisory lock) for the topics of its batch and locks the batch's rows with SELECT ... FOR
// UPDATE SKIP LOCKED, so two relays never publish one message at once and never overtake
// each other within a topic. On SQLite run one relay per database.
//
// Tables: idempotency_outbox, created by Migrate (or the SQL files of Migrations). Published
// rows are kept for Config.Retention, which is also how long a repeated Put of the same ID
// stays a no-op, and then deleted by the relay.
//
// Adapters that publish to the brokers of this module: idemasynq.OutboxPublisher,
// idemriver.OutboxPublisher and idemwatermill.OutboxPublisher; docs/runtime.md shows how to
// write a Publisher for NATS, SQS and Kafka.
package outbox
