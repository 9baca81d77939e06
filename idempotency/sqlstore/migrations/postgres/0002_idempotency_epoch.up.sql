-- Epochs come from this sequence, so they grow store-wide whatever the clocks do: a deleted
-- row (DeleteExpired, Forget) or a database clock that stepped back cannot hand a new holder
-- an epoch below a zombie's. It starts at the clock in microseconds, past every epoch on
-- record, so epochs keep their old magnitude. Safe to run again: setval never goes back.
CREATE SEQUENCE IF NOT EXISTS idempotency_epoch AS bigint;
SELECT setval('idempotency_epoch', greatest(
    (SELECT last_value FROM idempotency_epoch),
    (extract(epoch FROM clock_timestamp()) * 1000000)::bigint,
    (SELECT coalesce(max(epoch), 0) FROM idempotency_keys)));
