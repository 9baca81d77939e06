// Package txgates exercises the gates a transaction gives: a row locked with SELECT ... FOR
// UPDATE, checked and written in one transaction, or a conditional UPDATE made on it, guards
// what commits with the transaction; and an INSERT whose unique-violation error is taken as
// success is the unique-constraint pattern.
package txgates

import (
	"database/sql"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"sqlgates/repo"
)

var (
	pool   *pgxpool.Pool
	db     *sql.DB
	orders *repo.Repo
)

func notify(id string) error {
	_, err := http.Post("https://hooks.example.com/orders", "text/plain", strings.NewReader(id))
	return err
}
