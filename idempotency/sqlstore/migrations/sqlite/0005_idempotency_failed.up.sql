-- A failed marker for manual review (idempotency.NeedsReview): state 'failed', with the
-- error's text in result. SQLite cannot change a CHECK constraint, so the table is rebuilt
-- with the wider one (and its index and the epoch triggers of migration 0002 with it, since
-- they go with the old table). Safe to run again: it only rebuilds once more.
CREATE TABLE IF NOT EXISTS idempotency_keys_0005 (
    key         TEXT    PRIMARY KEY NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('in_progress', 'completed', 'released', 'failed')),
    owner       TEXT    NOT NULL,
    epoch       INTEGER NOT NULL,
    fingerprint BLOB,
    expires_at  INTEGER NOT NULL,
    result      BLOB
);
INSERT INTO idempotency_keys_0005 (key, state, owner, epoch, fingerprint, expires_at, result)
SELECT key, state, owner, epoch, fingerprint, expires_at, result FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_0005 RENAME TO idempotency_keys;
CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at ON idempotency_keys (expires_at);
CREATE TRIGGER IF NOT EXISTS idempotency_epoch_insert AFTER INSERT ON idempotency_keys
BEGIN
    UPDATE idempotency_epoch SET n = max(n, NEW.epoch) WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS idempotency_epoch_update AFTER UPDATE OF epoch ON idempotency_keys
BEGIN
    UPDATE idempotency_epoch SET n = max(n, NEW.epoch) WHERE id = 1;
END;
