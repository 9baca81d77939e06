// Package upstream performs the effects; its facts travel to importers. // want package:"has effects"
package upstream

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
)

type Store struct{ Pool *pgxpool.Pool }

func (s *Store) AddLedger(ctx context.Context) error { // want AddLedger:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	_, err := s.Pool.Exec(ctx, "INSERT INTO ledger (a) VALUES (1)")
	return err
}

func (s *Store) Upsert(ctx context.Context) error { // want Upsert:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	_, err := s.Pool.Exec(ctx, "INSERT INTO orders (id) VALUES (1) ON CONFLICT DO NOTHING")
	return err
}

func Charge(orderID string) error { // want Charge:`effects payment:protected\(charge.New\)\[key from params 0\]$`
	p := &stripe.ChargeParams{}
	p.SetIdempotencyKey("charge-" + orderID)
	_, err := charge.New(p)
	return err
}

func Pure() int { return 1 }
