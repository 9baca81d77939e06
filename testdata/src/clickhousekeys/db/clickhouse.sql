CREATE TABLE IF NOT EXISTS orders
(
    id         UInt64,
    status     LowCardinality(String),
    created_at DateTime,
    updated_at DateTime
)
    ENGINE = ReplacingMergeTree(updated_at)
        PARTITION BY toYYYYMM(created_at)
        ORDER BY (created_at, id);

CREATE TABLE IF NOT EXISTS daily_hits
(
    day  Date,
    hits UInt64
)
    ENGINE = SummingMergeTree
        ORDER BY day;
