-- Failed markers become completion markers without a result: an older version then still
-- acknowledges those keys' duplicates until the retention ends, rather than running jobs
-- that asked for review. (The wider CHECK constraint stays: SQLite cannot narrow it without
-- another rebuild, and older versions never write 'failed'.)
UPDATE idempotency_keys SET state = 'completed', result = NULL WHERE state = 'failed';
