-- A price intent queue: one pending intent per product (a partial key on a status), and
-- one live handle per account (a partial key on rows not deleted).
CREATE TABLE intents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id bigint NOT NULL,
  status text NOT NULL
);
CREATE UNIQUE INDEX intents_one_pending ON intents (product_id) WHERE status = 'pending';

CREATE TABLE handles (
  id bigserial PRIMARY KEY,
  handle text NOT NULL,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX handles_live ON handles (handle) WHERE deleted_at IS NULL;
