// Command worker wires the store into the handlers.
package main

import (
	"context"
	"database/sql"
	"io"

	"layered/joblog"
	"layered/mailer"
	"layered/orders"
	"layered/pg"
)

func main() {
	db, _ := sql.Open("postgres", "")
	var closer io.Closer = &joblog.Log{DB: db}
	defer closer.Close()
	h := &orders.Handler{Store: &pg.Orders{DB: db, Notifier: mailer.SMTP{Addr: "localhost:25"}}}
	_ = h.Handle(context.Background(), "42")
	_ = orders.Status(context.Background(), "http://example.com")
}
