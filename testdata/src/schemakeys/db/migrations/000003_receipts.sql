-- +goose Up
CREATE TABLE receipts (
    order_id TEXT NOT NULL,
    line INT NOT NULL,
    PRIMARY KEY (order_id, line)
);

-- +goose Down
DROP TABLE receipts;
