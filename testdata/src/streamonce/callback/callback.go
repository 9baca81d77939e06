// Package callback is a consumer library whose loop reads only new entries of its group // want package:"has effects"
// through a converting helper, reclaims nothing, and runs the callback it was given on each
// entry: the callbacks its callers pass run at most once (service's Orders.Handle).
package callback

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

// Message is the library's own form of an entry.
type Message struct{ ID string }

type Consumer struct{ client valkey.Client }

// Run reads and hands each message to handler.
func (c *Consumer) Run(ctx context.Context, handler func(ctx context.Context, m Message) error) { // want Run:`calls-params\(1\) registers\(1 github.com/valkey-io/valkey-go once\)`
	for {
		messages, err := c.read(ctx)
		if err != nil {
			continue
		}
		for _, m := range messages {
			c.handle(ctx, m, handler)
		}
	}
}

func (c *Consumer) read(ctx context.Context) ([]Message, error) { // want read:`receives\(github.com/valkey-io/valkey-go\)`
	result, err := c.client.Do(ctx, c.client.B().Xreadgroup().Group("g", "c").Streams().Key("orders").Id(">").Build()).AsXRead()
	if err != nil {
		return nil, err
	}
	var out []Message
	for _, e := range result["orders"] {
		out = append(out, Message{ID: e.ID})
	}
	return out, nil
}

func (c *Consumer) handle(ctx context.Context, m Message, handler func(ctx context.Context, m Message) error) { // want handle:`calls-params\(2\) registers\(2 github.com/valkey-io/valkey-go once\)`
	if err := handler(ctx, m); err != nil {
		return
	}
	c.client.Do(ctx, c.client.B().Xack().Key("orders").Group("g").Id(m.ID).Build())
}
