// Package downstream holds the handler; the chain crosses two packages. // want package:"has effects"
package downstream

import (
	"context"

	"crosspkg/middle"
	"crosspkg/upstream"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var store *upstream.Store

// HandleCheckout and HandleBonus reach the same INSERT through middle.Checkout: each names
// the other. Their payments through the same call are two problems (each passes its own key).
func HandleCheckout(ctx context.Context, t *asynq.Task) error { // want HandleCheckout:`effects payment:protected\(charge.New\) sql.write:unprotected`
	_ = upstream.Pure()
	return middle.Checkout(ctx, store, t.Type()) // want `handler HandleCheckout: SQL write not safe to repeat: INSERT without conflict handling \(HandleCheckout -> middle.Checkout -> \(\*upstream.Store\).AddLedger -> \(\*pgxpool.Pool\).Exec\); handler HandleBonus reaches it too, through middle.Checkout; missing: key, enforcement`
}

// The key helpers take is checked where they are called, across packages: what the
// handler passes decides whether upstream.Charge's idempotency key is stable.

func HandleRefund(ctx context.Context, t *asynq.Task) error { // want HandleRefund:`effects payment:unstable-key\(charge.New\)$`
	return upstream.Charge(uuid.NewString()) // want `handler HandleRefund: payment with an idempotency key, but the key passed to upstream.Charge changes on every retry \(made from uuid.NewString\) \(HandleRefund -> upstream.Charge -> charge.New\); missing: key`
}

func HandleBonus(ctx context.Context, t *asynq.Task) error { // want HandleBonus:`effects payment:unstable-key\(charge.New\) sql.write:unprotected`
	return middle.Checkout(ctx, nil, "bonus") // want `handler HandleBonus: payment with an idempotency key, but the key passed to middle.Checkout is a constant: every job shares it, so the second job is taken for a duplicate \(HandleBonus -> middle.Checkout -> upstream.Charge -> charge.New\); missing: key` `handler HandleBonus: SQL write not safe to repeat`
}

type config struct{ Region string }

var cfg config

func HandleFee(ctx context.Context, t *asynq.Task) error { // want HandleFee:`effects payment:unstable-key\(charge.New\)$`
	return upstream.Charge(cfg.Region) // want `handler HandleFee: payment with an idempotency key, but the key passed to upstream.Charge is made from nothing the job carries \(no parameter of HandleFee reaches it\)`
}

// A key made from the job's payload passes.
func HandleOrder(ctx context.Context, t *asynq.Task) error { // want HandleOrder:`effects payment:protected\(charge.New\)$`
	return upstream.Charge(string(t.Payload()))
}
