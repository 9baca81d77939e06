-- One row per idempotency key: an InProgress claim with a lease, a completion marker with a
-- retention, or a released claim. Safe to run again: every statement checks first.
CREATE TABLE IF NOT EXISTS idempotency_keys (
    key         TEXT    PRIMARY KEY NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('in_progress', 'completed', 'released')),
    -- The owner token: a random owner ID and an epoch that grows with every claim of the key.
    owner       TEXT    NOT NULL,
    epoch       INTEGER NOT NULL,
    -- SHA-256 of the job's payload, when the middleware has a fingerprint function.
    fingerprint BLOB,
    -- End of the lease (in_progress) or of the retention (completed), in Unix microseconds.
    expires_at  INTEGER NOT NULL
);

-- Lets DeleteExpired find expired rows without scanning the table.
CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at ON idempotency_keys (expires_at);
