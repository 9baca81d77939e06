-- Recovery points: the results of the named steps of a key's claims (idempotency.Step), so a
-- redelivery after a crash or a released claim skips the steps already done. A key's steps
-- live and expire together: they are kept while the latest of their expires_at (the last
-- step's, or the failed marker's) is ahead, and a new run of a key whose steps all expired
-- starts without them. Rows go with their key (Forget) or when expired (DeleteExpired). Safe
-- to run again.
CREATE TABLE IF NOT EXISTS idempotency_steps (
    key        text        NOT NULL,
    name       text        NOT NULL,
    result     bytea       NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (key, name)
);

-- Lets DeleteExpired find expired steps without scanning the table.
CREATE INDEX IF NOT EXISTS idempotency_steps_expires_at ON idempotency_steps (expires_at);
