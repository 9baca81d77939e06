// Package tasks holds the shop's asynq task types, their payloads and the
// handlers that process them.
package tasks

import (
	"encoding/json"
	"fmt"

	"github.com/hibiken/asynq"
)

// Task type names, used both to enqueue and to route on the ServeMux.
const (
	TypeOrderCreated   = "order:created"
	TypeCharge         = "payment:charge"
	TypeShipmentUpdate = "shipment:update"
	TypeCarrierPing    = "shipment:carrier_ping"
)

// OrderCreatedPayload is the payload of a TypeOrderCreated task.
type OrderCreatedPayload struct {
	OrderID    string `json:"order_id"`
	CustomerID string `json:"customer_id"`
	Email      string `json:"email"`
	TotalCents int64  `json:"total_cents"`
	Currency   string `json:"currency"`
}

// ChargePayload is the payload of a TypeCharge task.
type ChargePayload struct {
	OrderID     string `json:"order_id"`
	AmountCents int64  `json:"amount_cents"`
}

// ShipmentUpdatePayload is the payload of a TypeShipmentUpdate task.
type ShipmentUpdatePayload struct {
	OrderID   string `json:"order_id"`
	StatusURL string `json:"status_url"`
}

// CarrierPingPayload is the payload of a TypeCarrierPing task.
type CarrierPingPayload struct {
	ShipmentRef string `json:"shipment_ref"`
	CarrierURL  string `json:"carrier_url"`
}

// NewOrderCreatedTask returns the task that records a new order and emails
// its receipt. The task ID makes a second enqueue for the same order fail
// with asynq.ErrTaskIDConflict.
func NewOrderCreatedTask(p OrderCreatedPayload) (*asynq.Task, error) {
	return newTask(TypeOrderCreated, p, asynq.TaskID("order-created:"+p.OrderID))
}

// NewChargeTask returns the task that charges an order.
func NewChargeTask(p ChargePayload) (*asynq.Task, error) {
	return newTask(TypeCharge, p, asynq.TaskID("charge:"+p.OrderID), asynq.MaxRetry(5))
}

// NewShipmentUpdateTask returns the task that marks an order shipped and
// publishes its shipment status.
func NewShipmentUpdateTask(p ShipmentUpdatePayload) (*asynq.Task, error) {
	return newTask(TypeShipmentUpdate, p)
}

// NewCarrierPingTask returns the task that tells the carrier a parcel is
// ready for pickup.
func NewCarrierPingTask(p CarrierPingPayload) (*asynq.Task, error) {
	return newTask(TypeCarrierPing, p, asynq.Queue("shipping"))
}

func newTask(typename string, payload any, opts ...asynq.Option) (*asynq.Task, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("tasks: encode %s payload: %w", typename, err)
	}
	return asynq.NewTask(typename, b, opts...), nil
}

// decode unmarshals the payload of t into v. A payload that cannot be decoded
// will not decode on a retry either, so the error also wraps asynq.SkipRetry.
func decode(t *asynq.Task, v any) error {
	if err := json.Unmarshal(t.Payload(), v); err != nil {
		return fmt.Errorf("tasks: decode %s payload: %w: %w", t.Type(), err, asynq.SkipRetry)
	}
	return nil
}
