// Package spawn holds a consumer library's loop that reads through a helper converting the // want package:"has effects"
// entries into its own message type, and runs the callback it was given on each in a
// goroutine bounded by a semaphore, acking after it: the callbacks its callers pass are the
// handlers (service's Orders.Handle), and the loop, the helper and the goroutine are none.
package spawn

import (
	"context"
	"errors"
	"sync"

	"github.com/valkey-io/valkey-go"
)

// Message is the library's own form of an entry.
type Message struct {
	ID     string
	Values map[string]string
}

type Config struct {
	Group, Name, Stream string
	Concurrency         int
}

type Consumer struct {
	client valkey.Client
	cfg    Config
}

func (c *Consumer) config() (Config, error) {
	if c.cfg.Concurrency <= 0 {
		return Config{}, errors.New("no concurrency")
	}
	return c.cfg, nil
}

// Run reads and hands each message to handler.
func (c *Consumer) Run(ctx context.Context, handler func(ctx context.Context, m Message) error) error { // want Run:`calls-params\(1\) registers\(1 github.com/valkey-io/valkey-go\)`
	cfg, err := c.config()
	if err != nil {
		return err
	}
	sem := make(chan struct{}, cfg.Concurrency)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		messages, err := c.read(ctx, cfg)
		if err != nil {
			continue
		}
		for _, m := range messages {
			c.spawn(ctx, cfg, sem, &wg, m, handler)
		}
	}
}

func (c *Consumer) read(ctx context.Context, cfg Config) ([]Message, error) { // want read:`receives\(github.com/valkey-io/valkey-go\)`
	cmd := c.client.B().Xreadgroup().Group(cfg.Group, cfg.Name).Count(10).Streams().Key(cfg.Stream).Id("0").Build()
	result, err := c.client.Do(ctx, cmd).AsXRead()
	if err != nil {
		return nil, err
	}
	var out []Message
	for stream, entries := range result {
		if stream != cfg.Stream {
			continue
		}
		for _, e := range entries {
			out = append(out, Message{ID: e.ID, Values: e.FieldValues})
		}
	}
	return out, nil
}

func (c *Consumer) spawn(ctx context.Context, cfg Config, sem chan struct{}, wg *sync.WaitGroup, m Message, handler func(ctx context.Context, m Message) error) { // want spawn:`calls-params\(5\) registers\(5 github.com/valkey-io/valkey-go\)`
	sem <- struct{}{}
	wg.Add(1)
	go func(m Message) {
		defer wg.Done()
		defer func() { <-sem }()
		c.handle(ctx, cfg, m, handler)
	}(m)
}

func (c *Consumer) handle(ctx context.Context, cfg Config, m Message, handler func(ctx context.Context, m Message) error) { // want handle:`calls-params\(3\) registers\(3 github.com/valkey-io/valkey-go\)`
	if err := handler(ctx, m); err != nil {
		return
	}
	c.client.Do(ctx, c.client.B().Xack().Key(cfg.Stream).Group(cfg.Group).Id(m.ID).Build())
}
