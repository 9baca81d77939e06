-- A payment per attempt: the order's key goes, no other takes its place.
ALTER TABLE payments DROP CONSTRAINT payments_order_key;
ALTER TABLE payments ADD COLUMN attempt INT NOT NULL DEFAULT 0;
