DROP TRIGGER IF EXISTS idempotency_epoch_update;
DROP TRIGGER IF EXISTS idempotency_epoch_insert;
DROP TABLE IF EXISTS idempotency_epoch;
