package redis

import (
	"context"
	"database/sql"
	"time"

	"github.com/redis/go-redis/v9"
)

var sdb *sql.DB

// consumeGroup reads a consumer group with XREADGROUP and acks each entry after its
// insert: an entry left pending by a crash is read again, and inserted again.
func consumeGroup(ctx context.Context) {
	for {
		streams, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "billing", Consumer: "c1", Streams: []string{"orders", ">"}, Block: time.Second}).Result()
		if err != nil {
			continue
		}
		for _, s := range streams {
			for _, m := range s.Messages {
				sdb.Exec("INSERT INTO charges (order_id) VALUES ($1)", m.ID) // want `handler receive loop in consumeGroup: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in consumeGroup -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
				rdb.XAck(ctx, "orders", "billing", m.ID)
			}
		}
	}
}

// consumeGroupSafe is its twin with conflict handling: no finding.
func consumeGroupSafe(ctx context.Context) {
	for {
		streams, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "billing", Consumer: "c1", Streams: []string{"orders", ">"}}).Result()
		if err != nil {
			continue
		}
		for _, s := range streams {
			for _, m := range s.Messages {
				sdb.Exec("INSERT INTO charges (order_id) VALUES ($1) ON CONFLICT DO NOTHING", m.ID)
				rdb.XAck(ctx, "orders", "billing", m.ID)
			}
		}
	}
}

// reclaim takes over entries a dead consumer left pending (XAUTOCLAIM) and republishes
// each to another stream: a second reclaim after a crash adds it again.
func reclaim(ctx context.Context, c redis.UniversalClient) {
	start := "0"
	for {
		msgs, next, err := c.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: "orders", Group: "billing", MinIdle: time.Minute, Start: start, Consumer: "c1"}).Result()
		if err != nil {
			return
		}
		for _, m := range msgs {
			c.XAdd(ctx, &redis.XAddArgs{Stream: "invoices", Values: m.Values}) // want `handler receive loop in reclaim: Redis XADD sent with no deduplication \(receive loop in reclaim -> \(redis.StreamCmdable\).XAdd\); missing: key, enforcement$`
			c.XAck(ctx, "orders", "billing", m.ID)
		}
		start = next
	}
}

// claimOne reclaims one entry by id (XCLAIM), acks it first, then counts it: after the XACK
// the entry is no longer pending and is not read again, so the count is not repeated (the
// handler ends at the XACK).
func claimOne(ctx context.Context, id string) {
	for {
		msgs, err := rdb.XClaim(ctx, &redis.XClaimArgs{Stream: "orders", Group: "billing", Consumer: "c1", MinIdle: time.Minute, Messages: []string{id}}).Result()
		if err != nil || len(msgs) == 0 {
			return
		}
		if err := rdb.XAck(ctx, "orders", "billing", msgs[0].ID).Err(); err != nil {
			return
		}
		rdb.Incr(ctx, "orders:reclaimed")
	}
}

// setGated claims each event in a set of processed ids before its effect: SADD returns 0
// when an earlier delivery added the id, and the loop goes on to the next entry.
func setGated(ctx context.Context) {
	for {
		streams, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: []string{"events", ">"}}).Result()
		if err != nil {
			continue
		}
		m := streams[0].Messages[0]
		added, err := rdb.SAdd(ctx, "processed", m.ID).Result()
		if err != nil || added == 0 {
			continue
		}
		rdb.Incr(ctx, "events:count")
	}
}

// setUngated ignores SADD's result: the count runs on every delivery.
func setUngated(ctx context.Context) {
	for {
		streams, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: []string{"events", ">"}}).Result()
		if err != nil {
			continue
		}
		m := streams[0].Messages[0]
		rdb.SAdd(ctx, "processed", m.ID)
		rdb.Incr(ctx, "events:count") // want `handler receive loop in setUngated: Redis INCR sent with no deduplication \(receive loop in setUngated -> \(redis.cmdable\).Incr\); missing: key, enforcement$`
	}
}
