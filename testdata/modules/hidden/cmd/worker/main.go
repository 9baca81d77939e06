// Command worker wires the store into the worker.
package main

import (
	"database/sql"

	"hidden/store"
	"hidden/worker"
)

func main() {
	db, _ := sql.Open("postgres", "")
	w := &worker.Worker{Store: store.New(db)}
	_ = w
}
