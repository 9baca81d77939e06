// Package downstream holds the handler; the chain crosses two packages.
package downstream

import (
	"context"

	"crosspkg/middle"
	"crosspkg/upstream"

	"github.com/hibiken/asynq"
)

var store *upstream.Store

func HandleCheckout(ctx context.Context, t *asynq.Task) error { // want HandleCheckout:`effects payment:protected\(charge.New\) sql.write:unprotected`
	_ = upstream.Pure()
	return middle.Checkout(ctx, store, t.Type()) // want `handler HandleCheckout: SQL write not safe to repeat: INSERT without conflict handling \(HandleCheckout -> middle.Checkout -> \(\*upstream.Store\).AddLedger -> \(\*pgxpool.Pool\).Exec\); missing: key, enforcement`
}
