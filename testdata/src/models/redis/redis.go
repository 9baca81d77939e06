// Package redis exercises the go-redis model: commands that do not converge (INCR, LPUSH, // want package:"has effects"
// RPUSH, XADD) and those that do (SET, HSET, DEL), PUBLISH, which is no sink (Redis Pub/Sub
// keeps nothing: a repeat is one more notification), and the SETNX gate, which claims a job
// before its effects when its false result returns early.
package redis

import (
	"context"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/riverqueue/river"
)

var (
	rdb  = redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	urdb redis.UniversalClient
)

type ChargeArgs struct{ OrderID string }

func (ChargeArgs) Kind() string { return "charge" }

// CountWorker counts orders with no gate: every redelivery counts again.
type CountWorker struct {
	river.WorkerDefaults[ChargeArgs]
}

func (w *CountWorker) Work(ctx context.Context, job *river.Job[ChargeArgs]) error { // want Work:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	rdb.Set(ctx, "order:"+job.Args.OrderID+":seen", 1, 0)
	rdb.HSet(ctx, "order:"+job.Args.OrderID, "state", "charged")
	rdb.Del(ctx, "cart:"+job.Args.OrderID)
	return rdb.Incr(ctx, "orders:count").Err() // want `handler \(\*CountWorker\).Work: Redis INCR sent with no deduplication \(\(\*CountWorker\).Work -> \(redis.cmdable\).Incr\); missing: key, enforcement$`
}

// NotifyWorker pushes and publishes through the UniversalClient interface: the push is
// reported, the publish is not.
type NotifyWorker struct {
	river.WorkerDefaults[ChargeArgs]
}

func (w *NotifyWorker) Work(ctx context.Context, job *river.Job[ChargeArgs]) error { // want Work:`effects store.write:unprotected\(\(redis.ListCmdable\).LPush\)`
	urdb.LPush(ctx, "notifications", job.Args.OrderID) // want `handler \(\*NotifyWorker\).Work: Redis LPUSH sent with no deduplication \(\(\*NotifyWorker\).Work -> \(redis.ListCmdable\).LPush\); missing: key, enforcement$`
	return urdb.Publish(ctx, "orders", job.Args.OrderID).Err()
}

// GatedWorker claims the order with SETNX and returns when an earlier delivery did: its
// effects run at most once. The key is answered; enforcement stays open, as for the runtime
// middleware's claim: a crash between the claim and an effect loses the effect. Partial stays
// open too: a crash between the two effects leaves one done and the other never done.
type GatedWorker struct {
	river.WorkerDefaults[ChargeArgs]
}

func (w *GatedWorker) Work(ctx context.Context, job *river.Job[ChargeArgs]) error { // want Work:`effects http.write:claimed\(http.Post\) store.write:claimed\(\(redis.cmdable\).Incr\)`
	ok, err := rdb.SetNX(ctx, "charge:"+job.Args.OrderID, 1, 24*time.Hour).Result()
	if err != nil {
		return err
	}
	if !ok {
		return nil // already done by an earlier delivery
	}
	if err := rdb.Incr(ctx, "orders:count").Err(); err != nil {
		return err
	}
	return notify(job.Args.OrderID)
}

func notify(orderID string) error {
	_, err := http.Post("https://hooks.example.com/orders", "text/plain", strings.NewReader(orderID))
	return err
}

// BeforeWorker pushes before the gate: that effect runs on every delivery.
type BeforeWorker struct {
	river.WorkerDefaults[ChargeArgs]
}

func (w *BeforeWorker) Work(ctx context.Context, job *river.Job[ChargeArgs]) error { // want Work:`effects store.write:unprotected\(\(redis.cmdable\).RPush\)`
	ok, err := rdb.SetNX(ctx, "charge:"+job.Args.OrderID, 1, 24*time.Hour).Result()
	rdb.RPush(ctx, "orders", job.Args.OrderID) // want `handler \(\*BeforeWorker\).Work: Redis RPUSH sent with no deduplication \(\(\*BeforeWorker\).Work -> \(redis.cmdable\).RPush\); missing: key, enforcement$`
	if err != nil || !ok {
		return err
	}
	return rdb.Incr(ctx, "orders:count").Err()
}

// Stream appends to a stream behind a SETNX gate read with Val, through the interface.
func Stream(ctx context.Context, t *asynq.Task) error { // want Stream:`effects store.write:claimed\(\(redis.StreamCmdable\).XAdd\)`
	if !urdb.SetNX(ctx, "stream:"+string(t.Payload()), 1, time.Hour).Val() {
		return nil
	}
	return urdb.XAdd(ctx, &redis.XAddArgs{Stream: "orders", Values: t.Payload()}).Err()
}

// HashGate claims with HSETNX: a constant hash, the job's field.
func HashGate(ctx context.Context, t *asynq.Task) error { // want HashGate:`effects store.write:claimed\(\(redis.cmdable\).Incr\)`
	if set := rdb.HSetNX(ctx, "charges", string(t.Payload()), 1).Val(); set == false {
		return nil
	}
	return rdb.Incr(ctx, "charges:count").Err()
}

// RandomGate claims a fresh key on every delivery: the claim never fails, it guards nothing.
func RandomGate(ctx context.Context, t *asynq.Task) error { // want RandomGate:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	if !rdb.SetNX(ctx, "charge:"+uuid.NewString(), 1, time.Hour).Val() {
		return nil
	}
	return rdb.Incr(ctx, "orders:count").Err() // want `handler RandomGate: Redis INCR sent with no deduplication; the Redis SETNX gate at redis.go:111 guards nothing: its key changes on every retry \(made from uuid.NewString\) .*; missing: key, enforcement$`
}

// ConstantGate claims one key for every job: the first job turns all the others away.
func ConstantGate(ctx context.Context, t *asynq.Task) error { // want ConstantGate:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	if !rdb.SetNX(ctx, "charge", 1, time.Hour).Val() {
		return nil
	}
	return rdb.Incr(ctx, "orders:count").Err() // want `handler ConstantGate: Redis INCR sent with no deduplication; the Redis SETNX gate at redis.go:119 guards nothing: its key is a constant.*; missing: key, enforcement$`
}

// IgnoredGate sets the key but never reads whether it did.
func IgnoredGate(ctx context.Context, t *asynq.Task) error { // want IgnoredGate:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	rdb.SetNX(ctx, "charge:"+string(t.Payload()), 1, time.Hour)
	return rdb.Incr(ctx, "orders:count").Err() // want `handler IgnoredGate: Redis INCR sent with no deduplication \(IgnoredGate -> \(redis.cmdable\).Incr\); missing: key, enforcement$`
}

// LoggedGate reads the claim but goes on when it failed.
func LoggedGate(ctx context.Context, t *asynq.Task) error { // want LoggedGate:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	if !rdb.SetNX(ctx, "charge:"+string(t.Payload()), 1, time.Hour).Val() {
		log.Print("duplicate delivery")
	}
	return rdb.Incr(ctx, "orders:count").Err() // want `handler LoggedGate: Redis INCR sent with no deduplication \(LoggedGate -> \(redis.cmdable\).Incr\); missing: key, enforcement$`
}

// ScopedGate claims inside a block: the INCR after it is not guarded; the claimed HIncrBy is one more sink.
func ScopedGate(ctx context.Context, t *asynq.Task) error { // want ScopedGate:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	for range 1 {
		if !rdb.SetNX(ctx, "charge:"+string(t.Payload()), 1, time.Hour).Val() {
			return nil
		}
		rdb.HIncrBy(ctx, "stats", "charges", 1)
	}
	return rdb.Incr(ctx, "orders:count").Err() // want `handler ScopedGate: Redis INCR sent with no deduplication \(ScopedGate -> \(redis.cmdable\).Incr\); missing: key, enforcement$`
}

func Register(mux *asynq.ServeMux, workers *river.Workers) { // want Register:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	mux.HandleFunc("stream", Stream)
	mux.HandleFunc("hash", HashGate)
	mux.HandleFunc("random", RandomGate)
	mux.HandleFunc("constant", ConstantGate)
	mux.HandleFunc("ignored", IgnoredGate)
	mux.HandleFunc("logged", LoggedGate)
	mux.HandleFunc("scoped", ScopedGate)
	river.AddWorker(workers, &CountWorker{})
	river.AddWorker(workers, &NotifyWorker{})
	river.AddWorker(workers, &GatedWorker{})
	river.AddWorker(workers, &BeforeWorker{})
}

// InitGate reads the claim in the if statement's own initialisation.
func InitGate(ctx context.Context, t *asynq.Task) error { // want InitGate:`effects store.write:claimed\(\(redis.cmdable\).Incr\)`
	if ok, _ := rdb.SetNX(ctx, "charge:"+string(t.Payload()), 1, time.Hour).Result(); !ok {
		return nil
	}
	return rdb.Incr(ctx, "orders:count").Err()
}

// HelperGate calls a helper that claims before its effect: the claim travels with it.
func HelperGate(ctx context.Context, t *asynq.Task) error { // want HelperGate:`effects store.write:claimed\(\(redis.cmdable\).Incr\)`
	return countOnce(ctx, string(t.Payload()))
}

func countOnce(ctx context.Context, orderID string) error {
	if !rdb.SetNX(ctx, "count:"+orderID, 1, time.Hour).Val() {
		return nil
	}
	return rdb.Incr(ctx, "orders:count").Err()
}
