// Package statusevents holds handlers that publish a transfer's status: a message that // want package:"has effects"
// says only which transfer and the status it has now restates that status on a repeat, so
// it is not reported, whether the handler builds it in the publisher's call or in a local
// variable whose status it sets to one constant or another. A message that says more (an
// amount), one whose identity is random or the same for every job, and one whose status is
// not a constant stay new messages on every repeat.
package statusevents

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/segmentio/kafka-go"

	"statusevents/events"
)

var (
	pub *events.Pub
	kw  *kafka.Writer
)

func sign(id string) error { return nil }

// pending publishes the transfer's status as it starts.
func pending(ctx context.Context, t *asynq.Task) error {
	return pub.Send(ctx, events.Event{TrackingID: string(t.Payload()), Status: events.Pending})
}

// settled publishes the status the signing left.
func settled(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	ev := events.Event{TrackingID: id, Status: events.Sent}
	if err := sign(id); err != nil {
		ev.Status = events.Failed
	}
	return pub.Send(ctx, ev)
}

// record is the dispatch row the handler updates.
type record struct {
	ID     string
	Status string
}

// dispatched publishes the status of the row it updates, set to one constant or another.
func dispatched(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	upd := record{ID: id, Status: events.Sent}
	if err := sign(id); err != nil {
		upd.Status = events.Failed
	}
	return pub.Send(ctx, events.Event{TrackingID: id, Status: upd.Status})
}

// resolved publishes the status it gives the row in each branch, none in the literal.
func resolved(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	upd := record{ID: id}
	if sign(id) == nil {
		upd.Status = events.Sent
	} else {
		upd.Status = events.Failed
	}
	return pub.Send(ctx, events.Event{TrackingID: id, Status: upd.Status})
}

// explained publishes a status the error names.
func explained(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	upd := record{ID: id, Status: events.Sent}
	if err := sign(id); err != nil {
		upd.Status = err.Error()
	}
	return pub.Send(ctx, events.Event{TrackingID: id, Status: upd.Status}) // want `handler explained: JetStream message without a deduplication id`
}

// computed publishes a status a function works out.
func computed(ctx context.Context, t *asynq.Task) error {
	id := string(t.Payload())
	return pub.Send(ctx, events.Event{TrackingID: id, Status: statusOf(id)}) // want `handler computed: JetStream message without a deduplication id`
}

func statusOf(id string) string { return id[:1] }

// shipment is an order's status, written to Kafka.
type shipment struct {
	OrderID string `json:"order_id"`
	State   string `json:"state"`
}

// shipped writes the order's status to Kafka.
func shipped(ctx context.Context, t *asynq.Task) error {
	b, err := json.Marshal(shipment{OrderID: string(t.Payload()), State: "shipped"})
	if err != nil {
		return err
	}
	return kw.WriteMessages(ctx, kafka.Message{Key: t.Payload(), Value: b})
}

// payout says more than a status: the amount paid.
type payout struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
	Amount  int    `json:"amount"`
}

// paidOut writes an event that carries an amount.
func paidOut(ctx context.Context, t *asynq.Task) error {
	b, err := json.Marshal(payout{OrderID: string(t.Payload()), Status: "paid", Amount: len(t.Payload())})
	if err != nil {
		return err
	}
	return kw.WriteMessages(ctx, kafka.Message{Value: b}) // want `handler paidOut: Kafka message`
}

// randomID names the transfer anew on every run.
func randomID(ctx context.Context, t *asynq.Task) error {
	return pub.Send(ctx, events.Event{TrackingID: uuid.NewString(), Status: events.Pending}) // want `handler randomID: JetStream message without a deduplication id`
}

// everyJob names the same transfer for every job.
func everyJob(ctx context.Context, t *asynq.Task) error {
	return pub.Send(ctx, events.Event{TrackingID: "all", Status: events.Pending}) // want `handler everyJob: JetStream message without a deduplication id`
}

// forwarded publishes the status the task carries, whatever it is.
func forwarded(ctx context.Context, t *asynq.Task) error {
	var in events.Event
	if err := json.Unmarshal(t.Payload(), &in); err != nil {
		return err
	}
	return pub.Send(ctx, events.Event{TrackingID: in.TrackingID, Status: in.Status}) // want `handler forwarded: JetStream message without a deduplication id`
}

// retitled sets another field of the event after its literal.
func retitled(ctx context.Context, t *asynq.Task) error {
	ev := events.Event{TrackingID: string(t.Payload()), Status: events.Sent}
	ev.TrackingID = ev.TrackingID + ":retry"
	return pub.Send(ctx, ev) // want `handler retitled: JetStream message without a deduplication id`
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("transfer:pending", pending)
	mux.HandleFunc("transfer:settled", settled)
	mux.HandleFunc("order:shipped", shipped)
	mux.HandleFunc("order:paid", paidOut)
	mux.HandleFunc("transfer:random", randomID)
	mux.HandleFunc("transfer:all", everyJob)
	mux.HandleFunc("transfer:forwarded", forwarded)
	mux.HandleFunc("transfer:retitled", retitled)
	mux.HandleFunc("transfer:dispatched", dispatched)
	mux.HandleFunc("transfer:explained", explained)
	mux.HandleFunc("transfer:resolved", resolved)
	mux.HandleFunc("transfer:computed", computed)
}
