package franzgo

import (
	"context"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Consumer is the application's own consumer: Run polls, hands each record to the
// callback it is given and commits it. The callbacks its callers pass are the handlers.
type Consumer struct{ cl *kgo.Client }

func (c *Consumer) Run(ctx context.Context, handle func(*kgo.Record) error) { // want Run:`calls-params\(1\) registers\(1 github.com/twmb/franz-go\)`
	for {
		fetches := c.cl.PollFetches(ctx)
		fetches.EachRecord(func(r *kgo.Record) {
			if err := handle(r); err == nil {
				c.cl.CommitRecords(ctx, r)
			}
		})
	}
}

// RunPartitions hands each record of each partition to the callback.
func (c *Consumer) RunPartitions(ctx context.Context, handle func(context.Context, []byte) error) { // want RunPartitions:`calls-params\(1\) registers\(1 github.com/twmb/franz-go\)`
	for {
		fetches := c.cl.PollFetches(ctx)
		fetches.EachPartition(func(p kgo.FetchTopicPartition) {
			for _, r := range p.Records {
				handle(ctx, r.Value)
			}
		})
	}
}

// Retry only calls its callback: what its callers pass is no handler.
func Retry(f func() error) error { // want Retry:`calls-params\(0\)`
	for i := 0; i < 3; i++ {
		if err := f(); err == nil {
			return nil
		}
	}
	return nil
}

func wire(ctx context.Context, c *Consumer) {
	c.Run(ctx, func(r *kgo.Record) error {
		_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", string(r.Key)) // want `handler func literal in wire: SQL write not safe to repeat: INSERT without conflict handling \(func literal in wire -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
		return err
	})
	c.RunPartitions(ctx, store)
	c.Run(ctx, func(r *kgo.Record) error {
		_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1) ON CONFLICT DO NOTHING", string(r.Key))
		return err
	})
	Retry(func() error {
		_, err := db.ExecContext(ctx, "INSERT INTO pings (at) VALUES (now())")
		return err
	})
}

func store(ctx context.Context, b []byte) error {
	_, err := db.ExecContext(ctx, "UPDATE totals SET n = n + 1") // want `handler store: SQL write not safe to repeat: relative UPDATE of n \(store -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
	return err
}
