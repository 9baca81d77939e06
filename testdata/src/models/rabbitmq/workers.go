package rabbitmq

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"
)

// dispatch forwards each delivery to a pool of workers over a channel of its own: the
// dispatcher is no handler, each worker's loop is.
func dispatch(ch *amqp.Channel) {
	msgs, _ := ch.Consume("payments", "", false, false, false, false, nil)
	jobs := make(chan amqp.Delivery)
	for i := 0; i < 4; i++ {
		go func() {
			for d := range jobs {
				db.Exec("INSERT INTO payments (id) VALUES ($1)", string(d.Body)) // want `handler receive loop in func literal in dispatch: SQL write not safe to repeat: INSERT without conflict handling`
				d.Ack(false)
			}
		}()
	}
	for d := range msgs {
		jobs <- d
	}
}

// dispatchSafe is dispatch with an upsert in the workers.
func dispatchSafe(ch *amqp.Channel) {
	msgs, _ := ch.Consume("payments", "", false, false, false, false, nil)
	jobs := make(chan amqp.Delivery)
	go worker(jobs)
	for d := range msgs {
		jobs <- d
	}
}

// worker receives the deliveries as a parameter.
func worker(jobs <-chan amqp.Delivery) {
	for d := range jobs {
		db.Exec("INSERT INTO payments (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", string(d.Body))
		d.Ack(false)
	}
}

// consume hands each delivery to a callback and acks it: a registration wrapper, whose
// callers' functions are the handlers.
func consume(ctx context.Context, ch *amqp.Channel, queue string, h func(context.Context, amqp.Delivery) error) {
	msgs, _ := ch.Consume(queue, "", false, false, false, false, nil)
	for d := range msgs {
		if err := h(ctx, d); err != nil {
			d.Nack(false, true)
			continue
		}
		d.Ack(false)
	}
}

func handleRefund(ctx context.Context, d amqp.Delivery) error {
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance + 10 WHERE id = $1", string(d.Body)) // want `handler handleRefund: SQL write not safe to repeat: relative UPDATE of balance \(handleRefund -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
	return err
}

func handleStatus(ctx context.Context, d amqp.Delivery) error {
	_, err := db.ExecContext(ctx, "UPDATE orders SET status = 'refunded' WHERE id = $1", string(d.Body))
	return err
}

func run(ctx context.Context, ch *amqp.Channel) {
	consume(ctx, ch, "refunds", handleRefund)
	consume(ctx, ch, "status", handleStatus)
}

// Consumer calls the handler its field holds for each delivery: what is stored there
// (handleCredit) is the handler, not the loop.
type Consumer struct {
	msgs   <-chan amqp.Delivery
	handle func(amqp.Delivery) error
}

func (c *Consumer) loop() { // want loop:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	for d := range c.msgs {
		if c.handle(d) == nil {
			d.Ack(false)
		}
	}
}

func handleCredit(d amqp.Delivery) error {
	_, err := db.Exec("INSERT INTO credits (id) VALUES ($1)", string(d.Body)) // want `handler handleCredit: SQL write not safe to repeat: INSERT without conflict handling \(handleCredit -> \(\*sql.DB\).Exec\)`
	return err
}

func startCredits(ch *amqp.Channel) {
	msgs, _ := ch.Consume("credits", "", false, false, false, false, nil)
	c := &Consumer{msgs: msgs, handle: handleCredit}
	go c.loop()
}
