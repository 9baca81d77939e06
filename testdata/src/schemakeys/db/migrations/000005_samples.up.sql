-- Observations a scheduled job takes: a keyword's frequency and a delivery quote, each
-- stamped with the time it was taken; a price check whose time the job gives; and a
-- shipment log stamped only with when it was written.
CREATE TABLE keyword_frequency_samples (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  keyword_id uuid NOT NULL,
  frequency int NOT NULL,
  checked_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE delivery_quotes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id bigint NOT NULL,
  region text NOT NULL,
  days int,
  captured_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
  UNIQUE (product_id, region, captured_at)
);

CREATE TABLE shipment_log (
  id bigserial PRIMARY KEY,
  order_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stock_snapshots (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id bigint NOT NULL,
  stock int NOT NULL,
  captured_at timestamptz NOT NULL DEFAULT now()
);

-- A payment captured at the time of the insert: a capture, not an observation.
CREATE TABLE card_captures (
  id bigserial PRIMARY KEY,
  order_id text NOT NULL,
  captured_at timestamptz NOT NULL DEFAULT now()
);
