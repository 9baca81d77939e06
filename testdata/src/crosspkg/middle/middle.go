// Package middle only calls upstream: effects pass through it. // want package:"has effects"
package middle

import (
	"context"

	"crosspkg/upstream"
)

func Checkout(ctx context.Context, s *upstream.Store, orderID string) error { // want Checkout:`effects payment:protected\(charge.New\)\[key from params 2\] sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	if err := upstream.Charge(orderID); err != nil {
		return err
	}
	return s.AddLedger(ctx)
}
