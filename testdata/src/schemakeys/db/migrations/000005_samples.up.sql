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

-- A run of an evaluation, recorded as it starts: the row says when the run began, left to
-- the clock.
CREATE TABLE strategy_evaluation_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  strategy_id uuid NOT NULL,
  outcome text NOT NULL DEFAULT 'evaluating',
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

-- A sync's runs, whose start the code gives.
CREATE TABLE sync_runs (
  id bigserial PRIMARY KEY,
  source text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz
);

-- A run asked for, to be picked up by a runner later: it has not started when written.
CREATE TABLE pipeline_runs (
  id bigserial PRIMARY KEY,
  pipeline_id text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  queued_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz
);

-- A courier's shift, started when written: a business row, not a run's record.
CREATE TABLE courier_shifts (
  id bigserial PRIMARY KEY,
  courier_id text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
