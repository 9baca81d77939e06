package tasks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hibiken/asynq"

	"github.com/chokaq/idemlint/examples/shop/billing"
	"github.com/chokaq/idemlint/examples/shop/notify"
	"github.com/chokaq/idemlint/examples/shop/store"
)

// Dependencies of the function handlers. asynq calls a HandlerFunc without a
// receiver, so they are set once by Configure before the server starts.
var (
	orders   *store.Store
	notifier *notify.Notifier
)

// Configure sets the store and notifier used by HandleOrderCreated,
// HandleShipmentUpdate and HandleCarrierPing. Call it before serving.
func Configure(s *store.Store, n *notify.Notifier) {
	orders, notifier = s, n
}

// HandleOrderCreated records a new order and emails the receipt.
//
// idemlint: flagged, email.send without a key (the order insert is an upsert)
func HandleOrderCreated(ctx context.Context, t *asynq.Task) error {
	var p OrderCreatedPayload
	if err := decode(t, &p); err != nil {
		return err
	}
	order := store.Order{
		ID:         p.OrderID,
		CustomerID: p.CustomerID,
		Email:      p.Email,
		TotalCents: p.TotalCents,
		Currency:   p.Currency,
	}
	if err := orders.CreateOrder(ctx, order); err != nil {
		return fmt.Errorf("order created %s: %w", p.OrderID, err)
	}
	if err := notifier.SendReceipt(ctx, p.Email, p.OrderID); err != nil {
		return fmt.Errorf("order created %s: %w", p.OrderID, err)
	}
	return nil
}

// ChargeHandler charges an order and books the charge in the ledger.
type ChargeHandler struct {
	Billing *billing.Client
	Store   *store.Store
}

// ProcessTask implements asynq.Handler.
//
// idemlint: flagged, sql.write plain INSERT into ledger (the Stripe charge has a stable key)
func (h *ChargeHandler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	var p ChargePayload
	if err := decode(t, &p); err != nil {
		return err
	}
	paymentIntentID, err := h.Billing.Charge(ctx, p.OrderID, p.AmountCents)
	if err != nil {
		return fmt.Errorf("charge %s: %w", p.OrderID, err)
	}
	entry := store.LedgerEntry{
		OrderID:     p.OrderID,
		Kind:        "charge",
		AmountCents: p.AmountCents,
		Reference:   paymentIntentID,
	}
	if err := h.Store.AddLedgerEntry(ctx, entry); err != nil {
		return fmt.Errorf("charge %s: %w", p.OrderID, err)
	}
	return nil
}

// shipmentStatus is the document published at a shipment's status URL.
type shipmentStatus struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
}

// HandleShipmentUpdate marks an order shipped and publishes its status.
//
// idemlint: clean, converging UPDATE and HTTP PUT
func HandleShipmentUpdate(ctx context.Context, t *asynq.Task) error {
	var p ShipmentUpdatePayload
	if err := decode(t, &p); err != nil {
		return err
	}
	if err := orders.MarkShipped(ctx, p.OrderID); err != nil {
		return fmt.Errorf("shipment update %s: %w", p.OrderID, err)
	}
	order, err := orders.Order(ctx, p.OrderID)
	if err != nil {
		return fmt.Errorf("shipment update %s: %w", p.OrderID, err)
	}
	body, err := json.Marshal(shipmentStatus{OrderID: order.ID, Status: order.Status})
	if err != nil {
		return fmt.Errorf("shipment update %s: encode status: %w", p.OrderID, err)
	}
	if err := notifier.PutShipmentStatus(ctx, p.StatusURL, body); err != nil {
		return fmt.Errorf("shipment update %s: %w", p.OrderID, err)
	}
	return nil
}

// pickupNotice is the body the carrier's pickup endpoint expects.
type pickupNotice struct {
	ShipmentReference string `json:"shipment_reference"`
}

// HandleCarrierPing tells the carrier that a parcel is ready for pickup.
//
// idemlint: clean, http.write suppressed by an ignore directive
func HandleCarrierPing(ctx context.Context, t *asynq.Task) error {
	var p CarrierPingPayload
	if err := decode(t, &p); err != nil {
		return err
	}
	body, err := json.Marshal(pickupNotice{ShipmentReference: p.ShipmentRef})
	if err != nil {
		return fmt.Errorf("carrier ping %s: encode notice: %w", p.ShipmentRef, err)
	}
	//idemlint:ignore http.write -- carrier API deduplicates on our shipment reference
	if err := notifier.NotifyCarrier(ctx, p.CarrierURL, body); err != nil {
		return fmt.Errorf("carrier ping %s: %w", p.ShipmentRef, err)
	}
	return nil
}
