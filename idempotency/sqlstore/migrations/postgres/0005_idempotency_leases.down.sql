DROP TABLE IF EXISTS idempotency_leases;
