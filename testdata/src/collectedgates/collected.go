// Package collectedgates exercises collections filled under a claim: a loop claims the // want package:"has effects"
// job's orders one by one and collects those it claimed, then acts on what it collected
// (if len(fresh) > 0 { notify(fresh) }; for _, d := range pending { send(d) }), in the
// same function or in one the collection is handed to. A redelivery claims nothing and
// sends nothing. A collection filled before its claim, or by a function that claims
// nothing, is reported.
package collectedgates

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"

	"sqlgates/repo"
)

var orders *repo.Repo

type batch struct{ IDs []string }

func decode(t *asynq.Task) batch {
	var b batch
	_ = json.Unmarshal(t.Payload(), &b)
	return b
}

func notifyAll(ids []string) error {
	_, err := http.Post("https://chat.example.com/notify", "text/plain", strings.NewReader(strings.Join(ids, ",")))
	return err
}

// NotifyNew claims each order and notifies those it claimed, at once.
func NotifyNew(ctx context.Context, t *asynq.Task) error { // want NotifyNew:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	var fresh []string
	for _, id := range decode(t).IDs {
		ok, err := orders.MarkNotified(ctx, id)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		fresh = append(fresh, id)
	}
	if len(fresh) > 0 && orders != nil {
		return notifyAll(fresh)
	}
	return nil
}

// NotifyBatch leaves when it claimed nothing, then notifies what it claimed.
func NotifyBatch(ctx context.Context, t *asynq.Task) error { // want NotifyBatch:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	fresh := make([]string, 0, 8)
	for _, id := range decode(t).IDs {
		if ok, err := orders.MarkNotified(ctx, id); err != nil || !ok {
			continue
		}
		fresh = append(fresh, id)
	}
	if len(fresh) == 0 {
		return nil
	}
	return notifyAll(fresh)
}

// NotifySeen collects every order before its claim: a redelivery notifies them all again.
func NotifySeen(ctx context.Context, t *asynq.Task) error { // want NotifySeen:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	var seen []string
	for _, id := range decode(t).IDs {
		seen = append(seen, id)
		if ok, _ := orders.MarkNotified(ctx, id); !ok {
			continue
		}
	}
	if len(seen) > 0 {
		return notifyAll(seen) // want `^handler NotifySeen: HTTP POST`
	}
	return nil
}

// NotifyRetried also collects, with no claim, the orders the job marks as retried: a
// redelivery notifies those again.
func NotifyRetried(ctx context.Context, t *asynq.Task) error { // want NotifyRetried:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	var fresh []string
	for _, id := range decode(t).IDs {
		if strings.HasPrefix(id, "retry-") {
			fresh = append(fresh, id)
			continue
		}
		if ok, _ := orders.MarkNotified(ctx, id); !ok {
			continue
		}
		fresh = append(fresh, id)
	}
	if len(fresh) > 0 {
		return notifyAll(fresh) // want `^handler NotifyRetried: HTTP POST`
	}
	return nil
}

// delivery is a message collected for one order.
type delivery struct{ ID, Text string }

// process claims an order and, when it did, collects its delivery.
func process(ctx context.Context, id string, pending map[string]delivery) error {
	claimed, err := orders.MarkNotified(ctx, id)
	if err != nil {
		return err
	}
	if !claimed {
		return nil
	}
	return collect(id, pending)
}

func collect(id string, pending map[string]delivery) error {
	if _, ok := pending[id]; ok {
		return nil
	}
	pending[id] = delivery{ID: id, Text: "done"}
	return nil
}

// Send sends each pending delivery, one goroutine each.
func Send(pending map[string]delivery) error { // want Send:`effects http.write:unprotected\(http.Post\)\[on the elements of param 0\]`
	errs := make(chan error, len(pending))
	for _, d := range pending {
		go func(d delivery) {
			_, err := http.Post("https://chat.example.com/send", "text/plain", strings.NewReader(d.Text))
			errs <- err
		}(d)
	}
	return nil
}

// Sweep claims each order in one function, which collects the claimed ones in the map it
// is handed, and sends them from another.
func Sweep(ctx context.Context, t *asynq.Task) error { // want Sweep:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	pending := map[string]delivery{}
	for _, id := range decode(t).IDs {
		if err := process(ctx, id, pending); err != nil {
			return err
		}
	}
	return Send(pending)
}

// SweepUnclaimed collects every order with no claim: reported.
func SweepUnclaimed(ctx context.Context, t *asynq.Task) error { // want SweepUnclaimed:`effects http.write:unprotected\(http.Post\)`
	pending := make(map[string]delivery)
	for _, id := range decode(t).IDs {
		_ = collect(id, pending)
	}
	return Send(pending) // want `^handler SweepUnclaimed: HTTP POST`
}

// SweepPrefilled starts from a delivery no claim made: reported.
func SweepPrefilled(ctx context.Context, t *asynq.Task) error { // want SweepPrefilled:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	pending := map[string]delivery{"ops": {ID: "ops", Text: "sweep started"}}
	for _, id := range decode(t).IDs {
		if err := process(ctx, id, pending); err != nil {
			return err
		}
	}
	return Send(pending) // want `^handler SweepPrefilled: HTTP POST`
}
