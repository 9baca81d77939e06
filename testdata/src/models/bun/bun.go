// Package bun exercises the bun model: INSERT chains with and without On/Ignore, and raw // want package:"has effects"
// statements on the DB and in a transaction.
package bun

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/uptrace/bun"
)

var db *bun.DB

type Ledger struct {
	OrderID string
	Amount  int64
}

func InsertPlain(ctx context.Context, t *asynq.Task) error { // want InsertPlain:`effects sql.write:unprotected\(\(\*bun.InsertQuery\).Exec\)`
	_, err := db.NewInsert().Model(&Ledger{OrderID: t.Type()}).Exec(ctx) // want `handler InsertPlain: bun INSERT without conflict handling \(InsertPlain -> \(\*bun.InsertQuery\).Exec\); missing: key, enforcement`
	return err
}

func InsertOnConflict(ctx context.Context, t *asynq.Task) error { // want InsertOnConflict:`effects sql.write:protected\(\(\*bun.InsertQuery\).Exec\)`
	_, err := db.NewInsert().Model(&Ledger{OrderID: t.Type()}).On("CONFLICT (order_id) DO NOTHING").Exec(ctx)
	return err
}

func InsertIgnoreVar(ctx context.Context, t *asynq.Task) error { // want InsertIgnoreVar:`effects sql.write:protected\(\(\*bun.InsertQuery\).Scan\)`
	q := db.NewInsert().Model(&Ledger{OrderID: t.Type()}).Ignore()
	var id int64
	return q.Returning("id").Scan(ctx, &id)
}

func InTx(ctx context.Context, t *asynq.Task) error { // want InTx:`effects sql.write:unprotected\(\(bun.Tx\).ExecContext\)`
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { // want `handler InTx: SQL write not safe to repeat: relative UPDATE of balance \(InTx -> \(bun.Tx\).ExecContext\)`
		if _, err := tx.NewInsert().Model(&Ledger{OrderID: t.Type()}).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "UPDATE wallets SET balance = balance - ? WHERE id = ?", 5, 1)
		return err
	})
}

func RawAbsolute(ctx context.Context, t *asynq.Task) error { // want RawAbsolute:`effects sql.write:protected\(\(\*bun.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = ?", t.Type())
	return err
}

func QueryReturning(ctx context.Context, t *asynq.Task) error { // want QueryReturning:`effects sql.write:unprotected\(\(\*bun.DB\).QueryRowContext\)`
	var id int64
	return db.QueryRowContext(ctx, "INSERT INTO invoices (order_id) VALUES (?) RETURNING id", t.Type()).Scan(&id) // want `handler QueryReturning: SQL write not safe to repeat: INSERT without conflict handling \(QueryReturning -> \(\*bun.DB\).QueryRowContext\)`
}
