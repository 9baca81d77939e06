// Package failurecount holds asynq handlers that record their failures: a retry counter // want package:"has effects"
// keyed by the task, bumped only when the work failed, and a contention counter a helper
// bumps when the lock it was asked for was taken, count failures; an error alert POSTed to
// a chat webhook, given the error, reports one. A repeat that fails again is one more. The
// same counter bumped on success, an INCRBY of an amount on a failure path (it hands the
// amount back), a counter under a test of something else than an error, and a customer
// notified on failure without the error stay reported.
package failurecount

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{Addr: "localhost:6379"})

var errLocked = errors.New("locked")

func charge(ctx context.Context, id string) error { return nil }

func lock(ctx context.Context, id string) error { return errLocked }

// RetryCounted bumps the task's retry counter when the charge failed.
func RetryCounted(ctx context.Context, t *asynq.Task) error { // want RetryCounted:`effects store.write:protected\(\(redis.cmdable\).Incr\)`
	id := string(t.Payload())
	if err := charge(ctx, id); err != nil {
		rdb.Incr(ctx, "retry:"+id)
		return err
	}
	return nil
}

// recordContention counts a taken lock for the pair; callers call it when locking failed.
func recordContention(ctx context.Context, pair string) {
	rdb.Incr(ctx, "contention:"+pair)
}

// ContentionCounted counts the contention through a helper, in the else of err == nil.
func ContentionCounted(ctx context.Context, t *asynq.Task) error { // want ContentionCounted:`effects store.write:protected\(\(redis.cmdable\).Incr\)`
	pair := string(t.Payload())
	if err := lock(ctx, pair); err == nil {
		return charge(ctx, pair)
	} else {
		recordContention(ctx, pair)
		return err
	}
}

// SuccessCounted bumps the counter when the charge went through: a repeat counts twice.
func SuccessCounted(ctx context.Context, t *asynq.Task) error { // want SuccessCounted:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	id := string(t.Payload())
	if err := charge(ctx, id); err == nil {
		rdb.Incr(ctx, "charged") // want `handler SuccessCounted: Redis INCR sent with no deduplication`
	}
	return nil
}

// AmountReturned hands the amount back to a Redis balance when the charge failed: a
// repeat hands it back twice.
func AmountReturned(ctx context.Context, t *asynq.Task) error { // want AmountReturned:`effects store.write:unprotected\(\(redis.cmdable\).IncrBy\)`
	id := string(t.Payload())
	if err := charge(ctx, id); err != nil {
		rdb.IncrBy(ctx, "balance:"+id, 100) // want `handler AmountReturned: Redis INCRBY sent with no deduplication`
		return err
	}
	return nil
}

// FlagCounted bumps the counter under a test of a flag, not of an error.
func FlagCounted(ctx context.Context, t *asynq.Task) error { // want FlagCounted:`effects store.write:unprotected\(\(redis.cmdable\).Incr\)`
	var done *bool
	if done != nil {
		rdb.Incr(ctx, "flagged") // want `handler FlagCounted: Redis INCR sent with no deduplication`
	}
	return nil
}

// notifyError posts the error to the team's chat, in a goroutine so as not to block.
func notifyError(err error) {
	go func() {
		_, _ = http.Post("https://chat.example.com/hooks/ops", "application/json", strings.NewReader(err.Error()))
	}()
}

// notifyCustomer tells the customer the charge did not go through.
func notifyCustomer(ctx context.Context, id string) error {
	_, err := http.Post("https://push.example.com/send", "application/json", strings.NewReader(id))
	return err
}

// Alerted reports the failure to the team, wrapped: one alert per failed run.
func Alerted(ctx context.Context, t *asynq.Task) error { // want Alerted:`effects http.write:protected\(http.Post\)`
	id := string(t.Payload())
	if err := charge(ctx, id); err != nil {
		notifyError(fmt.Errorf("charge %s: %w", id, err))
		return err
	}
	return nil
}

// CustomerNotified tells the customer on failure: a repeat tells them twice.
func CustomerNotified(ctx context.Context, t *asynq.Task) error { // want CustomerNotified:`effects http.write:unprotected\(http.Post\)`
	id := string(t.Payload())
	if err := charge(ctx, id); err != nil {
		_ = notifyCustomer(ctx, id) // want `handler CustomerNotified: HTTP POST without an Idempotency-Key header`
		return err
	}
	return nil
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("alerted", Alerted)
	mux.HandleFunc("customer", CustomerNotified)
	mux.HandleFunc("nested", NestedAlert)
	mux.HandleFunc("retry", RetryCounted)
	mux.HandleFunc("contention", ContentionCounted)
	mux.HandleFunc("success", SuccessCounted)
	mux.HandleFunc("amount", AmountReturned)
	mux.HandleFunc("flag", FlagCounted)
	mux.HandleFunc("scrape", scrape)
	mux.HandleFunc("scrape:kept", scrapeKept)
}

// NestedAlert reports the error of a cleanup that failed while handling a failed charge:
// the inner test's error is the one it is given.
func NestedAlert(ctx context.Context, t *asynq.Task) error { // want NestedAlert:`effects http.write:protected\(http.Post\)`
	id := string(t.Payload())
	if err := charge(ctx, id); err != nil {
		if cleanupErr := lock(ctx, id); cleanupErr != nil {
			notifyError(cleanupErr)
		}
		return err
	}
	return nil
}

var db *sql.DB

// recordScrapeError keeps the failed run's error: one row per failed run by design.
func recordScrapeError(site, message string) error {
	_, err := db.Exec("INSERT INTO scraping_errors (site, message) VALUES ($1, $2)", site, message)
	return err
}

// recordScrape keeps what a run found.
func recordScrape(site, message string) error {
	_, err := db.Exec("INSERT INTO scrapes (site, message) VALUES ($1, $2)", site, message)
	return err
}

// scrape records its failure, given the error's text: a repeat that fails again records a
// second failed run.
func scrape(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	if err := charge(ctx, id); err != nil {
		_ = recordScrapeError(id, err.Error())
	}
	return nil
}

// scrapeKept records the failure under a name that is no report's: judged as usual.
func scrapeKept(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	if err := charge(ctx, id); err != nil {
		_ = recordScrape(id, err.Error()) // want `handler scrapeKept: SQL write not safe to repeat: INSERT`
	}
	return nil
}
