-- The lease of each key's current claim, as renewals extend it. Renewals write here, not to
-- the key's idempotency_keys row: a handler transaction at REPEATABLE READ or SERIALIZABLE
-- that completes the claim in its own transaction (CompleteTx) updates that row, and fails
-- with a serialization error if another transaction changed it after the handler's snapshot.
-- A claim writes the row with its own lease (so a renewal only ever updates it, and a claim
-- that locks it sees the latest renewal); the lease in force is the later of the two. Rows
-- go with their key (DeleteExpired, Forget). Safe to run again.
CREATE TABLE IF NOT EXISTS idempotency_leases (
    key        text        PRIMARY KEY,
    owner      text        NOT NULL,
    epoch      bigint      NOT NULL,
    expires_at timestamptz NOT NULL
);
