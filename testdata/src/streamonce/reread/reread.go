// Package reread holds the twins: a consumer that first re-reads its pending entries // want package:"has effects"
// (XREADGROUP from "0") after a restart, and a consumer of the same shape as streamonce's
// in a package that reclaims dead consumers' entries (XAUTOCLAIM). Both deliver an entry
// again after a crash: reported.
package reread

import (
	"context"
	"database/sql"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	db  *sql.DB
	rdb *redis.Client
)

// consumePendingFirst reads its own pending entries first, then new ones.
func consumePendingFirst(ctx context.Context) {
	id := "0"
	for {
		streams, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "billing", Consumer: "c1", Streams: []string{"orders", id}}).Result()
		if err != nil {
			continue
		}
		if len(streams[0].Messages) == 0 {
			id = ">"
			continue
		}
		m := streams[0].Messages[0]
		db.Exec("INSERT INTO charges (order_id) VALUES ($1)", m.ID) // want `^handler receive loop in consumePendingFirst: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in consumePendingFirst -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
		rdb.XAck(ctx, "orders", "billing", m.ID)
	}
}

// consumeNew reads only new entries, but reclaim below hands its crashed entries to
// another consumer.
func consumeNew(ctx context.Context) {
	for {
		streams, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "billing", Consumer: "c2", Streams: []string{"orders", ">"}}).Result()
		if err != nil {
			continue
		}
		m := streams[0].Messages[0]
		db.Exec("INSERT INTO refunds (order_id) VALUES ($1)", m.ID) // want `^handler receive loop in consumeNew: SQL write not safe to repeat: INSERT without conflict handling`
		rdb.XAck(ctx, "orders", "billing", m.ID)
	}
}

// reclaim takes over what a dead consumer left pending, and only logs it.
func reclaim(ctx context.Context) {
	msgs, _, _ := rdb.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: "orders", Group: "billing", MinIdle: time.Minute, Start: "0", Consumer: "c2"}).Result()
	_ = msgs
}

// consumeNoAck reads with NOACK: its entries are never pending, so the reclaim above cannot
// take them over, and nothing delivers one twice. No finding.
func consumeNoAck(ctx context.Context) {
	for {
		streams, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "audit", Consumer: "c1", Streams: []string{"events", ">"}, NoAck: true}).Result()
		if err != nil {
			continue
		}
		m := streams[0].Messages[0]
		db.Exec("INSERT INTO audit (event_id) VALUES ($1)", m.ID)
	}
}
