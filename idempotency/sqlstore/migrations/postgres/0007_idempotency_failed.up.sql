-- A failed marker for manual review (idempotency.NeedsReview): state 'failed', with the
-- error's text in result, kept for the retention like a completion marker. The check is
-- replaced by a wider one, NOT VALID since every row already passes it (so the table is not
-- scanned under the lock). Safe to run again.
ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_state_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_state_check
    CHECK (state IN ('in_progress', 'completed', 'released', 'failed')) NOT VALID;
