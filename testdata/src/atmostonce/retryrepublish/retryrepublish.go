// Package retryrepublish holds RabbitMQ consumers that retry a delivery they failed to // want package:"has effects"
// handle by publishing it again, with a retry count, then acking the original: on the
// failure of the handler (in `if err != nil`, or after `if err == nil { ack; return }`). A
// crash between the republish and the ack leaves two copies of the delivery, which the
// handler meets as it meets any redelivery: the republish is the delivery's retry. An event
// published on the failure that is not the delivery, and a delivery published again on
// success, stay reported.
package retryrepublish

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"
)

// Conn consumes a service's events.
type Conn struct{ ch *amqp.Channel }

type event struct{ Name string }

func decode(body []byte) (event, error) { return event{Name: string(body)}, nil }

// retry publishes the delivery again to the retry queue, one attempt more.
func (c *Conn) retry(ctx context.Context, d amqp.Delivery) error { // want retry:`effects publish:unprotected\(\(\*amqp091.Channel\).PublishWithContext\)`
	return c.ch.PublishWithContext(ctx, "", "events.retry", false, false, amqp.Publishing{Body: d.Body})
}

// announce publishes an event that the handling failed.
func (c *Conn) announce(ctx context.Context, name string) error { // want announce:`effects publish:unprotected\(\(\*amqp091.Channel\).PublishWithContext\)`
	return c.ch.PublishWithContext(ctx, "", "events.failed", false, false, amqp.Publishing{Body: []byte(name)})
}

// Consume retries each delivery its handler fails on.
func (c *Conn) Consume(ctx context.Context, handle func(context.Context, event) error) error { // want Consume:`effects publish:protected\(\(\*amqp091.Channel\).PublishWithContext\) calls-params\(1\) registers\(1 github.com/rabbitmq/amqp091-go\)`
	msgs, err := c.ch.Consume("events", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		ev, err := decode(d.Body)
		if err != nil {
			_ = c.retry(ctx, d)
			_ = d.Ack(false)
			continue
		}
		if err := handle(ctx, ev); err != nil {
			_ = c.retry(ctx, d)
		}
		_ = d.Ack(false)
	}
	return nil
}

// dispatch acks a delivery its handler took, and otherwise publishes it for a retry.
func (c *Conn) dispatch(ctx context.Context, d amqp.Delivery, handle func(context.Context, event) error) { // want dispatch:`effects publish:protected\(\(\*amqp091.Channel\).PublishWithContext\) calls-params\(2\) registers\(2 github.com/rabbitmq/amqp091-go\)`
	ev, _ := decode(d.Body)
	err := handle(ctx, ev)
	if err == nil {
		_ = d.Ack(false)
		return
	}
	_ = c.ch.PublishWithContext(ctx, "", "events.retry", false, false, amqp.Publishing{Body: d.Body})
	_ = d.Ack(false)
}

// Serve hands each delivery to dispatch.
func (c *Conn) Serve(ctx context.Context, handle func(context.Context, event) error) error { // want Serve:`effects publish:protected\(\(\*amqp091.Channel\).PublishWithContext\) calls-params\(1\) registers\(1 github.com/rabbitmq/amqp091-go\)`
	msgs, err := c.ch.Consume("orders", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		c.dispatch(ctx, d, handle)
	}
	return nil
}

// ConsumeAnnounced publishes an event of the failure, which is not the delivery: a
// repeat that fails again announces it again.
func (c *Conn) ConsumeAnnounced(ctx context.Context) error { // want ConsumeAnnounced:`effects publish:unprotected\(\(\*amqp091.Channel\).PublishWithContext\)`
	msgs, err := c.ch.Consume("payments", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		if _, err := decode(d.Body); err != nil {
			_ = c.announce(ctx, string(d.Body)) // want `handler receive loop in \(\*Conn\).ConsumeAnnounced: RabbitMQ message`
		}
		_ = d.Ack(false)
	}
	return nil
}

// Forward publishes every delivery on to the next queue, failed or not.
func (c *Conn) Forward(ctx context.Context) error { // want Forward:`effects publish:unprotected\(\(\*amqp091.Channel\).PublishWithContext\)`
	msgs, err := c.ch.Consume("intake", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		_ = c.retry(ctx, d) // want `handler receive loop in \(\*Conn\).Forward: RabbitMQ message`
		_ = d.Ack(false)
	}
	return nil
}
