-- A small result kept with a completion marker, returned to duplicates (result replay).
-- Safe to run again.
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS result bytea;
