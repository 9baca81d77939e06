// Package events reads the library's Stream in a pool of workers: the workers' loop is
// the handler.
package events

import (
	"database/sql"

	"example.com/mq"
	"github.com/streadway/amqp"
)

// Start runs n workers over the events queue.
func Start(db *sql.DB, ch *amqp.Channel, n int) error {
	msgs, err := mq.Stream(ch, "events")
	if err != nil {
		return err
	}
	for range n {
		go func() {
			for m := range msgs {
				if _, err := db.Exec("INSERT INTO events (body) VALUES ($1)", m.Body); err != nil {
					continue
				}
				_ = m.Ack()
			}
		}()
	}
	return nil
}
