CREATE TABLE orders (
    id BIGSERIAL PRIMARY KEY,
    external_id TEXT NOT NULL UNIQUE,
    amount BIGINT NOT NULL
);

CREATE TABLE events (
    id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
    payload JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE payments (
    id SERIAL PRIMARY KEY,
    order_id TEXT NOT NULL,
    CONSTRAINT payments_order_key UNIQUE (order_id)
);
