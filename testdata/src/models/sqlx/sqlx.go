// Package sqlx exercises the sqlx model: named and Must* statements, Get with RETURNING, // want package:"has effects"
// and prepared named statements, beside database/sql's methods that sqlx.DB embeds.
package sqlx

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
)

var db *sqlx.DB

type Charge struct {
	OrderID string `db:"order_id"`
	Amount  int64  `db:"amount"`
}

func NamedInsert(ctx context.Context, t *asynq.Task) error { // want NamedInsert:`effects sql.write:unprotected\(\(\*sqlx.DB\).NamedExecContext\)`
	_, err := db.NamedExecContext(ctx, `INSERT INTO ledger (order_id, amount) VALUES (:order_id, :amount)`, Charge{}) // want `handler NamedInsert: SQL write not safe to repeat: INSERT without conflict handling \(NamedInsert -> \(\*sqlx.DB\).NamedExecContext\); missing: key, enforcement`
	return err
}

func NamedUpsert(ctx context.Context, t *asynq.Task) error { // want NamedUpsert:`effects sql.write:protected\(\(\*sqlx.DB\).NamedExec\)`
	_, err := db.NamedExec(`INSERT INTO ledger (order_id, amount) VALUES (:order_id, :amount)
		ON CONFLICT (order_id) DO NOTHING`, Charge{})
	return err
}

func MustRelative(ctx context.Context, t *asynq.Task) error { // want MustRelative:`effects sql.write:unprotected\(\(\*sqlx.Tx\).MustExec\)`
	tx, err := db.Beginx()
	if err != nil {
		return err
	}
	tx.MustExec("UPDATE wallets SET balance = balance - $1 WHERE id = $2", 5, 1) // want `handler MustRelative: SQL write not safe to repeat: relative UPDATE`
	return tx.Commit()
}

func EmbeddedExec(ctx context.Context, t *asynq.Task) error { // want EmbeddedExec:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	// Exec is database/sql's, promoted through the embedded *sql.DB.
	_, err := db.ExecContext(ctx, "INSERT INTO audit (event) VALUES ($1)", t.Type()) // want `handler EmbeddedExec: SQL write not safe to repeat: INSERT without conflict handling \(EmbeddedExec -> \(\*sql.DB\).ExecContext\)`
	return err
}

func GetReturning(ctx context.Context, t *asynq.Task) error { // want GetReturning:`effects sql.write:unprotected\(\(\*sqlx.DB\).GetContext\)`
	var id int64
	return db.GetContext(ctx, &id, "INSERT INTO invoices (order_id) VALUES ($1) RETURNING id", t.Type()) // want `handler GetReturning: SQL write not safe to repeat: INSERT without conflict handling \(GetReturning -> \(\*sqlx.DB\).GetContext\)`
}

func GetRead(ctx context.Context, t *asynq.Task) error {
	var id int64
	return db.Get(&id, "SELECT id FROM invoices WHERE order_id = $1", t.Type())
}

func PackageNamedExec(ctx context.Context, t *asynq.Task) error { // want PackageNamedExec:`effects sql.write:unprotected\(sqlx.NamedExec\)`
	_, err := sqlx.NamedExec(db, `INSERT INTO ledger (order_id, amount) VALUES (:order_id, :amount)`, Charge{}) // want `handler PackageNamedExec: SQL write not safe to repeat: INSERT without conflict handling \(PackageNamedExec -> sqlx.NamedExec\)`
	return err
}

func PreparedNamed(ctx context.Context, t *asynq.Task) error { // want PreparedNamed:`effects sql.write:unprotected\(\(\*sqlx.NamedStmt\).ExecContext\)`
	stmt, err := db.PrepareNamed(`INSERT INTO ledger (order_id, amount) VALUES (:order_id, :amount)`)
	if err != nil {
		return err
	}
	_, err = stmt.ExecContext(ctx, Charge{}) // want `handler PreparedNamed: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func PreparedNamedUpsert(ctx context.Context, t *asynq.Task) error { // want PreparedNamedUpsert:`effects sql.write:protected\(\(\*sqlx.NamedStmt\).MustExec\)`
	stmt, err := db.PrepareNamed(`INSERT INTO ledger (order_id, amount) VALUES (:order_id, :amount) ON CONFLICT DO NOTHING`)
	if err != nil {
		return err
	}
	stmt.MustExec(Charge{})
	return nil
}

// repo holds an ExtContext so that a DB and a Tx both fit: its ExecContext is a write.
type repo struct{ db sqlx.ExtContext }

func (r repo) Insert(ctx context.Context, t *asynq.Task) error { // want Insert:`effects sql.write:unprotected\(\(sqlx.ExecerContext\).ExecContext\)`
	_, err := r.db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", t.Type()) // want `handler \(repo\).Insert: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func (r repo) Upsert(ctx context.Context, t *asynq.Task) error { // want Upsert:`effects sql.write:protected\(\(sqlx.ExecerContext\).ExecContext\)`
	_, err := r.db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", t.Type())
	return err
}

func Routes(mux *asynq.ServeMux, r repo) { // want Routes:`effects sql.write:unprotected\(\(sqlx.ExecerContext\).ExecContext\)`
	mux.HandleFunc("insert", r.Insert)
	mux.HandleFunc("upsert", r.Upsert)
}
