-- The transactional outbox: one row per message, written by outbox.Put in the handler's
-- transaction and published by outbox.Relay. Safe to run again: every statement checks first.
-- Times are Unix microseconds.
CREATE TABLE IF NOT EXISTS idempotency_outbox (
    -- The order messages were written in; the relay publishes a topic's messages by it.
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The stable message ID: the broker's deduplication ID. A second Put of it does nothing.
    id              TEXT    NOT NULL UNIQUE,
    topic           TEXT    NOT NULL,
    payload         BLOB    NOT NULL,
    -- A JSON object of strings.
    headers         TEXT    NOT NULL DEFAULT '{}',
    created_at      INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER)),
    -- Failed publishes so far, and when the next may be tried (backoff).
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER)),
    last_error      TEXT,
    -- Set when the message was published; the row is deleted after the retention.
    published_at    INTEGER
);

-- The pending messages in order, and by topic.
CREATE INDEX IF NOT EXISTS idempotency_outbox_pending ON idempotency_outbox (seq) WHERE published_at IS NULL;
CREATE INDEX IF NOT EXISTS idempotency_outbox_pending_topic ON idempotency_outbox (topic, seq) WHERE published_at IS NULL;
-- The pending messages backing off, which hold back their topics.
CREATE INDEX IF NOT EXISTS idempotency_outbox_backoff ON idempotency_outbox (next_attempt_at) WHERE published_at IS NULL;
-- The published messages, for the retention's deletes.
CREATE INDEX IF NOT EXISTS idempotency_outbox_published ON idempotency_outbox (published_at) WHERE published_at IS NOT NULL;
