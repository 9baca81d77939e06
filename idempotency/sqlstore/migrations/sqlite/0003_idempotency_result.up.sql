-- A small result kept with a completion marker, returned to duplicates (result replay).
-- SQLite has no ADD COLUMN IF NOT EXISTS: Migrate skips this statement when the column is
-- there already; other migration tools apply the file once.
ALTER TABLE idempotency_keys ADD COLUMN result BLOB;
