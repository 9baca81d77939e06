-- Recovery points: the results of the named steps of a key's claims (idempotency.Step), so a
-- redelivery after a crash or a released claim skips the steps already done. A key's steps
-- live and expire together: they are kept while the latest of their expires_at (Unix
-- microseconds: the last step's, or the failed marker's) is ahead, and a new run of a key
-- whose steps all expired starts without them. Safe to run again.
CREATE TABLE IF NOT EXISTS idempotency_steps (
    key        TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    result     BLOB    NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (key, name)
);

-- Lets DeleteExpired find expired steps without scanning the table.
CREATE INDEX IF NOT EXISTS idempotency_steps_expires_at ON idempotency_steps (expires_at);
