-- Epochs are at least the clock in microseconds, as idempotency.Token says and the other
-- stores give: the sequence alone grows by one per claim and falls behind the clock. A claim
-- takes its epoch from this function, which moves the sequence a second ahead of the clock
-- whenever the clock has caught up with it, so the store-wide lock that keeps the sequence
-- from ever going back is taken about once a second, not once a claim. Safe to run again.
CREATE OR REPLACE FUNCTION idempotency_next_epoch(now_us bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    n bigint := nextval('idempotency_epoch');
BEGIN
    IF n >= now_us THEN
        RETURN n;
    END IF;
    -- One claim at a time moves the sequence, and only forward: another may have moved it
    -- while this one waited for the lock.
    PERFORM pg_advisory_xact_lock(7308327488571893505);
    n := nextval('idempotency_epoch');
    IF n >= now_us THEN
        RETURN n;
    END IF;
    RETURN setval('idempotency_epoch', now_us + 1000000);
END
$$;
