DROP SEQUENCE IF EXISTS idempotency_epoch;
