package statements

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
)

// Session statements change the connection, not the data: an analytics job that loads
// an extension and attaches a database before it reads writes nothing.
func Analyse(ctx context.Context, t *asynq.Task) error {
	for _, q := range []string{"INSTALL httpfs", "LOAD httpfs", "SET threads = 4", "PRAGMA memory_limit = '1GB'", "RESET ALL", "SHOW TABLES", "USE analytics"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if _, err := db.ExecContext(ctx, "ATTACH 'warehouse.db' AS warehouse"); err != nil {
		return err
	}
	var n int
	return db.QueryRowContext(ctx, "SELECT count(*) FROM warehouse.orders").Scan(&n)
}

// AnalyseAndRecord is its twin that also records the run without conflict handling: the
// session statements around it do not hide the write.
func AnalyseAndRecord(ctx context.Context, t *asynq.Task) error { // want AnalyseAndRecord:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if _, err := db.ExecContext(ctx, "BEGIN; SET LOCAL statement_timeout = '5s'; COMMIT"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSTALL httpfs; INSERT INTO analysis_runs (task) VALUES ($1)", t.Type()) // want `handler AnalyseAndRecord: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

// A statement the handler is given as text runs whatever its sender wrote: nothing known
// of it shows a write.
func RunScript(ctx context.Context, conn *sql.Conn, t *asynq.Task) error {
	_, err := conn.ExecContext(ctx, string(t.Payload()))
	return err
}
