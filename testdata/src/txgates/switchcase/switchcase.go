// Package switchcase checks a locked order's status in a switch whose terminal cases // want package:"has effects"
// return: the case clause is the check an if would be, and the writes after the switch
// commit with the status it reads.
package switchcase

import (
	"context"
	"log"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
)

var pool *pgxpool.Pool

// Settle returns on the terminal statuses and writes the ledger and the new status in
// the locking transaction: protected.
func Settle(ctx context.Context, t *asynq.Task) error { // want Settle:`effects sql.write:protected\(\(pgx.Tx\).Exec\)`
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
	switch status {
	case "settled", "cancelled":
		return nil
	case "pending":
		log.Printf("settling %s", id)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO ledger (order_id, amount) VALUES ($1, 10)", id); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE orders SET status = 'settled' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// SettleLogged only logs the terminal status and goes on: the ledger row is added on every
// delivery.
func SettleLogged(ctx context.Context, t *asynq.Task) error { // want SettleLogged:`effects sql.write:unprotected\(\(pgx.Tx\).Exec\)`
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
	switch status {
	case "settled":
		log.Printf("%s settled before", id)
	case "cancelled":
		break
	}
	if _, err := tx.Exec(ctx, "INSERT INTO ledger (order_id, amount) VALUES ($1, 10)", id); err != nil { // want `handler SettleLogged: SQL write not safe to repeat: INSERT without conflict handling`
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE orders SET status = 'settled' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
