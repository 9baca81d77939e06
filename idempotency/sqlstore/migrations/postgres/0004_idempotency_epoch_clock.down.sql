DROP FUNCTION IF EXISTS idempotency_next_epoch(bigint);
