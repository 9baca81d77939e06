// Package statusfeed publishes orders' statuses to JetStream, where the program's own
// status consumer stores each message it gets: a status event is no finding by itself, but
// a consumer of the program that is not safe to repeat keeps its publish reported.
package statusfeed

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/hibiken/asynq"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

var (
	js     jetstream.Publisher
	legacy nats.JetStream
	db     *sql.DB
)

// statusEvent says which order and the status it has now.
type statusEvent struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
}

// HandleStatusShipped publishes that the order shipped.
func HandleStatusShipped(ctx context.Context, t *asynq.Task) error {
	b, err := json.Marshal(statusEvent{OrderID: string(t.Payload()), Status: "shipped"})
	if err != nil {
		return err
	}
	_, err = js.Publish(ctx, "orders.status", b)
	return err
}

// onStatus stores every status message it is given, as a new row.
func onStatus(m *nats.Msg) {
	_, _ = db.ExecContext(context.Background(), "INSERT INTO order_status_log (payload) VALUES ($1)", m.Data)
}

// Subscribe registers onStatus for the orders' statuses.
func Subscribe() error {
	_, err := legacy.Subscribe("orders.status", onStatus)
	return err
}
