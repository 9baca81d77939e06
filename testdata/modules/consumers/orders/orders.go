// Package orders hands the company library a callback it keeps: the callback is the
// handler, and its INSERT is reported.
package orders

import (
	"context"
	"database/sql"

	"example.com/mq"
	"github.com/streadway/amqp"
)

// Service stores orders.
type Service struct{ db *sql.DB }

// Start runs the orders consumer.
func (s *Service) Start(ctx context.Context, ch *amqp.Channel) error {
	return mq.NewConsumer(ch, "orders", s.place).Run(ctx)
}

func (s *Service) place(ctx context.Context, m mq.Message) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO orders (body) VALUES ($1)", m.Body)
	return err
}
