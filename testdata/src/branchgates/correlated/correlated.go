// Package correlated holds a claim made in one branch of an if, and the notification a // want package:"has effects"
// later if makes under the same condition: it runs only when the claim's branch ran, so the
// claim guards it. The other branch's condition, a condition whose variable is assigned
// between the two, a condition that is a method call (which may answer otherwise the
// second time), and a claim made under another condition inside the branch guard nothing.
package correlated

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func notify(id string) error {
	_, err := http.Post("https://chat.example.com/refunded", "text/plain", strings.NewReader(id))
	return err
}

// isReservation says whether a refund is a reservation's, which another job settles.
func isReservation(kind string) bool { return strings.HasPrefix(kind, "reservation:") }

type refunds struct{}

func (refunds) isReservation(kind string) bool { return strings.HasPrefix(kind, "reservation:") }

var rf refunds

// refunded claims the refund in the else branch and notifies under the negated condition.
func refunded(ctx context.Context, t *asynq.Task) error {
	kind := string(t.Payload())
	if isReservation(kind) {
		return nil
	} else {
		ok, err := rdb.SetNX(ctx, "refunded:"+kind, 1, time.Hour).Result()
		if err != nil || !ok {
			return err
		}
	}
	if !isReservation(kind) {
		return notify(kind)
	}
	return nil
}

// refundedOther notifies under the condition of the branch that did not claim.
func refundedOther(ctx context.Context, t *asynq.Task) error {
	kind := string(t.Payload())
	if isReservation(kind) {
		_ = kind
	} else {
		ok, err := rdb.SetNX(ctx, "refunded:"+kind, 1, time.Hour).Result()
		if err != nil || !ok {
			return err
		}
	}
	if isReservation(kind) {
		return notify(kind) // want `handler refundedOther: HTTP POST`
	}
	return nil
}

// refundedRenamed changes what the condition reads between the two ifs.
func refundedRenamed(ctx context.Context, t *asynq.Task) error {
	kind := string(t.Payload())
	if isReservation(kind) {
		_ = kind
	} else {
		ok, err := rdb.SetNX(ctx, "refunded:"+kind, 1, time.Hour).Result()
		if err != nil || !ok {
			return err
		}
	}
	kind = "reservation:" + kind
	if !isReservation(kind) {
		return notify(kind) // want `handler refundedRenamed: HTTP POST`
	}
	return nil
}

// refundedByMethod tests a method's answer twice.
func refundedByMethod(ctx context.Context, t *asynq.Task) error {
	kind := string(t.Payload())
	if rf.isReservation(kind) {
		_ = kind
	} else {
		ok, err := rdb.SetNX(ctx, "refunded:"+kind, 1, time.Hour).Result()
		if err != nil || !ok {
			return err
		}
	}
	if !rf.isReservation(kind) {
		return notify(kind) // want `handler refundedByMethod: HTTP POST`
	}
	return nil
}

// refundedSometimes claims only for some refunds of the branch: the later if runs for all.
func refundedSometimes(ctx context.Context, t *asynq.Task) error {
	kind := string(t.Payload())
	if isReservation(kind) {
		_ = kind
	} else {
		if len(kind) > 10 {
			ok, err := rdb.SetNX(ctx, "refunded:"+kind, 1, time.Hour).Result()
			if err != nil || !ok {
				return err
			}
		}
	}
	if !isReservation(kind) {
		return notify(kind) // want `handler refundedSometimes: HTTP POST`
	}
	return nil
}

// register hands the refund result jobs to the server.
func register(mux *asynq.ServeMux) {
	mux.HandleFunc("refund:result", refunded)
	mux.HandleFunc("refund:other", refundedOther)
	mux.HandleFunc("refund:renamed", refundedRenamed)
	mux.HandleFunc("refund:method", refundedByMethod)
	mux.HandleFunc("refund:sometimes", refundedSometimes)
}

var _ = register
