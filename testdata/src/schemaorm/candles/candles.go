// Package candles holds handlers of a store method that drops its insert's duplicate-key // want package:"has effects"
// error and reports an error of its own: the key each handler gives decides.
package candles

import (
	"context"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"schemaorm/dropped/store"
)

var s *store.Store

// Candle hands on Candle's error, which is not the insert's: the key it gives stops a
// repeat at the key.
func Candle(ctx context.Context, t *asynq.Task) error { // want Candle:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	return s.Candle(string(t.Payload()))
}

// CandleFresh gives Candle a key made anew: a row on every run.
func CandleFresh(ctx context.Context, t *asynq.Task) error { // want CandleFresh:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return s.Candle(uuid.NewString()) // want `handler CandleFresh: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders: a new row on every run`
}
