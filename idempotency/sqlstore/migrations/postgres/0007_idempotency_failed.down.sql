-- Failed markers become completion markers without a result: an older version then still
-- acknowledges those keys' duplicates until the retention ends, rather than running jobs
-- that asked for review.
UPDATE idempotency_keys SET state = 'completed', result = NULL WHERE state = 'failed';
ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_state_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_state_check
    CHECK (state IN ('in_progress', 'completed', 'released')) NOT VALID;
