// Package signals records indicator signals read from the day's bucket in Redis, keyed // want package:"has effects"
// by the candle they were read for; a twin keys them by the clock instead.
package signals

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"

	"schemaorm/db"
)

// Repo reads indicators from Redis and records signals with GORM.
type Repo struct {
	DB  *gorm.DB
	RDB *redis.Client
}

// Zlema reads the hour's indicator of the symbol, whose key is named by the hour, and records
// the signal of the candle it names, dropping the insert's error: a repeat reads the same
// candle and stops at the key.
func (r *Repo) Zlema(ctx context.Context, symbol string) error { // want Zlema:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	val, err := r.RDB.Get(ctx, fmt.Sprintf("indicators:%s:%s", symbol, time.Now().Format("010215"))).Result()
	if err != nil {
		return err
	}
	data := strings.Split(val, ",")
	candle, _ := strconv.ParseInt(data[1], 10, 64)
	r.DB.Create(&db.Strategy{ID: uuid.NewString(), Symbol: symbol, Indicator: "zlema", Timestamp: candle})
	return nil
}

// ZlemaNow records the signal under the time it runs: each run adds a row.
func (r *Repo) ZlemaNow(ctx context.Context, symbol string) error { // want ZlemaNow:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	r.DB.Create(&db.Strategy{ID: uuid.NewString(), Symbol: symbol, Indicator: "zlema", Timestamp: time.Now().Unix()})
	return nil
}

var repo *Repo

// Signal is the handler of Zlema.
func Signal(ctx context.Context, t *asynq.Task) error { // want Signal:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	return repo.Zlema(ctx, string(t.Payload()))
}

// SignalNow is the handler of ZlemaNow: reported.
func SignalNow(ctx context.Context, t *asynq.Task) error { // want SignalNow:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return repo.ZlemaNow(ctx, string(t.Payload())) // want `handler SignalNow: GORM Create \(INSERT\) without conflict handling`
}
