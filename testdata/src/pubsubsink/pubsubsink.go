// Package pubsubsink declares Redis PUBLISH a sink in its .idemlint.yml (its subscribers // want package:"has effects"
// apply the orders they receive): a handler that publishes is reported, where the built-in
// models alone report nothing (models/redis's NotifyWorker).
package pubsubsink

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func PublishOrder(ctx context.Context, t *asynq.Task) error { // want PublishOrder:`effects publish:unprotected\(\(redis.cmdable\).Publish\)`
	return rdb.Publish(ctx, "orders", t.Payload()).Err() // want `^handler PublishOrder: Redis PUBLISH sent with no deduplication \(PublishOrder -> \(redis.cmdable\).Publish\); missing: key, enforcement$`
}

func Register(mux *asynq.ServeMux) { // want Register:`effects publish:unprotected\(\(redis.cmdable\).Publish\)`
	mux.HandleFunc("order:publish", PublishOrder)
}
