// Package pgdb is a query helper of another package: it queues the statements it is given // want package:"has effects"
// on a batch it makes, so its callers' statements decide what it writes.
package pgdb

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// BatchTx queues each statement with its parameters and sends the batch on tx.
func BatchTx(ctx context.Context, tx pgx.Tx, sqls []string, params [][]any) error { // want BatchTx:`^effects sql.write:unprotected\(\(pgx.Tx\).SendBatch\)\[statements from param 2\]$`
	b := new(pgx.Batch)
	for i, sql := range sqls {
		b.Queue(sql, params[i]...)
	}
	return tx.SendBatch(ctx, b).Close()
}
