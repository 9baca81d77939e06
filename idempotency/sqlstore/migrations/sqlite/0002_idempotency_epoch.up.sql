-- The highest epoch the store handed out, kept by the triggers below: a claim's epoch is
-- above it, so epochs grow store-wide whatever the clock does, even for a key whose row was
-- deleted (DeleteExpired, Forget). Safe to run again.
CREATE TABLE IF NOT EXISTS idempotency_epoch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT OR IGNORE INTO idempotency_epoch (id, n) SELECT 1, coalesce(max(epoch), 0) FROM idempotency_keys;
CREATE TRIGGER IF NOT EXISTS idempotency_epoch_insert AFTER INSERT ON idempotency_keys
BEGIN
    UPDATE idempotency_epoch SET n = max(n, NEW.epoch) WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS idempotency_epoch_update AFTER UPDATE OF epoch ON idempotency_keys
BEGIN
    UPDATE idempotency_epoch SET n = max(n, NEW.epoch) WHERE id = 1;
END;
