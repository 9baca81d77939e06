// Package branchgates exercises claims that guard the branch they open: if ok { notify() }, // want package:"has effects"
// ok a Redis SETNX's result or a helper's bool reporting a conditional UPDATE. The body runs
// once per key. The branch taken when the claim failed, and a claim whose key is the same
// for every job, guard nothing.
package branchgates

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"sqlgates/repo"
)

var (
	rdb    *redis.Client
	orders *repo.Repo
)

func notify(id string) error {
	_, err := http.Post("https://chat.example.com/notify", "text/plain", strings.NewReader(id))
	return err
}

// FinalizeAndNotify notifies when its conditional UPDATE moved the order on.
func FinalizeAndNotify(ctx context.Context, t *asynq.Task) error { // want FinalizeAndNotify:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	id := string(t.Payload())
	transitioned, err := orders.MarkNotified(ctx, id)
	if err != nil {
		return err
	}
	if transitioned {
		return notify(id)
	}
	return nil
}

// SetOnce notifies when its SETNX took the key.
func SetOnce(ctx context.Context, t *asynq.Task) error { // want SetOnce:`effects http.write:claimed\(http.Post\)`
	id := string(t.Payload())
	ok, err := rdb.SetNX(ctx, "notified:"+id, 1, 24*time.Hour).Result()
	if err != nil {
		return err
	}
	if ok {
		return notify(id)
	}
	return nil
}

// NotifyWhenTaken notifies in the branch where the claim failed: every redelivery does.
func NotifyWhenTaken(ctx context.Context, t *asynq.Task) error { // want NotifyWhenTaken:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	id := string(t.Payload())
	transitioned, _ := orders.MarkNotified(ctx, id)
	if !transitioned {
		_ = notify(id) // want `^handler NotifyWhenTaken: HTTP POST`
	}
	return nil
}

// SharedKey claims one key for every job: the branch runs for the first job only, and the
// finding says why.
func SharedKey(ctx context.Context, t *asynq.Task) error { // want SharedKey:`effects http.write:unprotected\(http.Post\)`
	ok, _ := rdb.SetNX(ctx, "notified", 1, time.Hour).Result()
	if ok {
		return notify(string(t.Payload())) // want `^handler SharedKey: HTTP POST .*guards nothing`
	}
	return nil
}

// store finishes orders with a CTE whose conditional UPDATE's EXISTS it scans.
type store struct{ pool *pgxpool.Pool }

// FinishOnce moves the order from pending to done, and reports whether this call did.
func (s store) FinishOnce(ctx context.Context, id string) (bool, error) { // want FinishOnce:`effects sql.write:protected\(\(\*pgxpool.Pool\).QueryRow\) claims\(result 0\)`
	var done bool
	err := s.pool.QueryRow(ctx, `WITH u AS (UPDATE orders SET status = 'done' WHERE id = $1 AND status = 'pending' RETURNING id)
		SELECT EXISTS (SELECT 1 FROM u)`, id).Scan(&done)
	return done, err
}

// Touched says whether the order exists, through the same scan of an EXISTS that is no
// claim.
func (s store) Touched(ctx context.Context, id string) (bool, error) {
	var found bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM orders WHERE id = $1)`, id).Scan(&found)
	return found, err
}

var orderStore store

// FinishAndNotify notifies when its transition took place.
func FinishAndNotify(ctx context.Context, t *asynq.Task) error { // want FinishAndNotify:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).QueryRow\)`
	id := string(t.Payload())
	if done, err := orderStore.FinishOnce(ctx, id); err != nil || !done {
		return err
	}
	return notify(id)
}

// NotifyIfFound notifies whenever the order exists: every redelivery does.
func NotifyIfFound(ctx context.Context, t *asynq.Task) error { // want NotifyIfFound:`effects http.write:unprotected\(http.Post\)`
	id := string(t.Payload())
	if found, _ := orderStore.Touched(ctx, id); found {
		return notify(id) // want `^handler NotifyIfFound: HTTP POST`
	}
	return nil
}

// finishVia hands back the store's results as they are: its claim is the store's.
func finishVia(ctx context.Context, id string) (bool, error) { return orderStore.FinishOnce(ctx, id) }

// FinishThroughHelper notifies when the helper's forwarded transition took place.
func FinishThroughHelper(ctx context.Context, t *asynq.Task) error { // want FinishThroughHelper:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).QueryRow\)`
	id := string(t.Payload())
	done, err := finishVia(ctx, id)
	if err != nil {
		return err
	}
	if done {
		return notify(id)
	}
	return nil
}
