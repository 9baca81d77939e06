// Package streamonce holds Redis Streams consumers whose entries are never delivered twice: // want package:"has effects"
// the package reads its group only from ">" and nothing in it claims or re-reads pending
// entries, so an entry whose handler crashed stays pending and is not read again. Their
// effects run at most once: no finding (the inventory says why).
package streamonce

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

var (
	db  *sql.DB
	rdb *redis.Client
)

// consumeNew inserts each new entry, then acks it.
func consumeNew(ctx context.Context) {
	for {
		streams, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "billing", Consumer: "c1", Streams: []string{"orders", ">"}}).Result()
		if err != nil {
			continue
		}
		for _, s := range streams {
			for _, m := range s.Messages {
				db.Exec("INSERT INTO charges (order_id) VALUES ($1)", m.ID)
				rdb.XAck(ctx, "orders", "billing", m.ID)
			}
		}
	}
}

// consumeArgs reads through a variable holding the arguments: the same.
func consumeArgs(ctx context.Context) {
	args := &redis.XReadGroupArgs{Group: "audit", Consumer: "c1", Streams: []string{"events", ">"}}
	for {
		streams, err := rdb.XReadGroup(ctx, args).Result()
		if err != nil {
			continue
		}
		m := streams[0].Messages[0]
		db.Exec("INSERT INTO audit (event_id) VALUES ($1)", m.ID)
		rdb.XAck(ctx, "events", "audit", m.ID)
	}
}

// consumeBuilt reads new entries with a rueidis XREADGROUP builder chain: the same.
func consumeBuilt(ctx context.Context, client rueidis.Client) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("ledger", "c1").Count(10).Block(1000).Streams().Key("payments").Id(">").Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, e := range streams["payments"] {
			db.Exec("INSERT INTO ledger (payment_id) VALUES ($1)", e.ID)
			client.Do(ctx, client.B().Xack().Key("payments").Group("ledger").Id(e.ID).Build())
		}
	}
}

// payments reads through a helper that builds the XREADGROUP into a variable and returns
// the run's entries, on the client its field holds: the helper is no handler, the loop of
// consume that calls it is, and it reads only new entries: the same. (The client's field
// holds no handler either, though its Do is handed the library's command.)
type payments struct{ client rueidis.Client }

func (p *payments) read(ctx context.Context) (map[string][]rueidis.XRangeEntry, error) { // want read:`receives\(github.com/redis/rueidis\)`
	cmd := p.client.B().Xreadgroup().Group("ledger", "c2").Count(1).Streams().Key("payments").Id(">").Build()
	result := p.client.Do(ctx, cmd)
	if err := result.Error(); err != nil {
		return nil, err
	}
	return result.AsXRead()
}

func (p *payments) ack(ctx context.Context, id string) error {
	return p.client.Do(ctx, p.client.B().Xack().Key("payments").Group("ledger").Id(id).Build()).Error()
}

func (p *payments) consume(ctx context.Context) {
	for {
		streams, err := p.read(ctx)
		if err != nil {
			continue
		}
		for _, e := range streams["payments"] {
			db.Exec("INSERT INTO ledger (payment_id) VALUES ($1)", e.ID)
			p.ack(ctx, e.ID)
		}
	}
}

// readEvents is the go-redis helper of the same shape: consumeEventsThroughHelper is the same.
func readEvents(ctx context.Context) ([]redis.XStream, error) {
	return rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "audit", Consumer: "c2", Streams: []string{"events", ">"}}).Result()
}

func consumeEventsThroughHelper(ctx context.Context) {
	for {
		streams, err := readEvents(ctx)
		if err != nil {
			continue
		}
		for _, m := range streams[0].Messages {
			db.Exec("INSERT INTO audit (event_id) VALUES ($1)", m.ID)
			rdb.XAck(ctx, "events", "audit", m.ID)
		}
	}
}

// consumeValkey reads new entries with a valkey-go XREADGROUP builder chain: the same.
func consumeValkey(ctx context.Context, client valkey.Client) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("ledger", "c3").Streams().Key("refunds").Id(">").Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, e := range streams["refunds"] {
			db.Exec("INSERT INTO refunds (refund_id) VALUES ($1)", e.ID)
			client.Do(ctx, client.B().Xack().Key("refunds").Group("ledger").Id(e.ID).Build())
		}
	}
}
