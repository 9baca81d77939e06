// Package articles subscribes through a library function that acks before it calls back:
// its callback runs at most once, and its INSERT is no finding.
package articles

import (
	"database/sql"

	"example.com/mq"
	"github.com/streadway/amqp"
)

// Article is what the queue carries.
type Article struct{ URL string }

// Start indexes articles.
func Start(db *sql.DB, ch *amqp.Channel) error {
	return mq.Subscribe(ch, "articles", func(a *Article) {
		_, _ = db.Exec("INSERT INTO seen (url) VALUES ($1)", a.URL)
	})
}
