package txgates

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
)

// PayLocked locks the order, returns when it is already paid, and writes the ledger and the
// new status in the same transaction: the ledger row commits with the state the check reads.
// The POST made before the commit, and the insert on the pool, are not undone by a crash
// before the commit: they stay reported.
func PayLocked(ctx context.Context, t *asynq.Task) error { // want PayLocked:`effects http.write:unprotected\(http.Post\) sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	id := string(t.Payload())
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var status string
	if err := tx.QueryRow(ctx, "SELECT status FROM orders WHERE id = $1 FOR UPDATE", id).Scan(&status); err != nil {
		return err
	}
	if status == "paid" {
		return nil
	}
	if _, err := tx.Exec(ctx, "INSERT INTO ledger (order_id, amount) VALUES ($1, 10)", id); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, "INSERT INTO audit (order_id) VALUES ($1)", id); err != nil { // want `handler PayLocked: SQL write not safe to repeat: INSERT without conflict handling \(PayLocked -> \(\*pgxpool.Pool\).Exec\); missing: key, enforcement, partial \(\S.* do not commit together\)$`
		return err
	}
	if err := notify(id); err != nil { // want `handler PayLocked: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(PayLocked -> txgates.notify -> http.Post\); missing: key, enforcement, partial \(\S.* do not commit together\)$`
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// PayUnchecked locks the order but never checks its status: the ledger row is added on
// every delivery.
func PayUnchecked(ctx context.Context, t *asynq.Task) error { // want PayUnchecked:`effects sql.write:unprotected\(\(pgx.Tx\).Exec\)`
	id := string(t.Payload())
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var status string
	if err := tx.QueryRow(ctx, "SELECT status FROM orders WHERE id = $1 FOR UPDATE", id).Scan(&status); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "INSERT INTO ledger (order_id, amount) VALUES ($1, 10)", id); err != nil { // want `handler PayUnchecked: SQL write not safe to repeat: INSERT without conflict handling \(PayUnchecked -> \(pgx.Tx\).Exec\); missing: key, enforcement$`
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// PayStateless checks the locked status but never writes it: a redelivery after the commit
// finds it unchanged and adds the ledger row again.
func PayStateless(ctx context.Context, t *asynq.Task) error { // want PayStateless:`effects sql.write:unprotected\(\(pgx.Tx\).Exec\)`
	id := string(t.Payload())
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var status string
	if err := tx.QueryRow(ctx, "SELECT status FROM orders WHERE id = $1 FOR UPDATE", id).Scan(&status); err != nil {
		return err
	}
	if status == "paid" {
		return nil
	}
	if _, err := tx.Exec(ctx, "INSERT INTO ledger (order_id, amount) VALUES ($1, 10)", id); err != nil { // want `handler PayStateless: SQL write not safe to repeat: INSERT without conflict handling \(PayStateless -> \(pgx.Tx\).Exec\); missing: key, enforcement$`
		return err
	}
	return tx.Commit(ctx)
}

// ShipClaimed moves the order from paid to shipped on the transaction and returns when it
// moved nothing: the shipment row commits with that transition.
func ShipClaimed(ctx context.Context, t *asynq.Task) error { // want ShipClaimed:`effects sql.write:protected\(\(pgx.Tx\).Exec\)`
	id := string(t.Payload())
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, "UPDATE orders SET status = 'shipped' WHERE id = $1 AND status = 'paid'", id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	if err := insertShipment(ctx, tx, id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// ShipOnPool makes the same transition but writes the shipment on the pool: another
// connection, committed whatever the transaction does.
func ShipOnPool(ctx context.Context, t *asynq.Task) error { // want ShipOnPool:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	id := string(t.Payload())
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, "UPDATE orders SET status = 'shipped' WHERE id = $1 AND status = 'paid'", id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	if _, err := pool.Exec(ctx, "INSERT INTO shipments (order_id) VALUES ($1)", id); err != nil { // want `handler ShipOnPool: SQL write not safe to repeat: INSERT without conflict handling \(ShipOnPool -> \(\*pgxpool.Pool\).Exec\); missing: key, enforcement$`
		return err
	}
	return tx.Commit(ctx)
}

// insertShipment writes the shipment on the transaction it is given.
func insertShipment(ctx context.Context, tx pgx.Tx, id string) error {
	_, err := tx.Exec(ctx, "INSERT INTO shipments (order_id) VALUES ($1)", id)
	return err
}
