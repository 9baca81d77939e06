// Package statusmarks exercises a status check read through a getter (order.Status()) of // want package:"has effects"
// an order looked up by the job's key, where the code then marks that status by a method
// named for it (MarkCompensated): a redelivery finds the status written and leaves. What
// the unit of work's literal writes before the mark, on the same repositories, commits
// with it. Twins check a status the code never marks, mark it outside the unit of work,
// or check nothing: their writes are reported.
package statusmarks

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"

	"statusmarks/store"
)

type orderFailed struct {
	OrderID      string `json:"order_id"`
	TicketTypeID string `json:"ticket_type_id"`
	Quantity     int    `json:"quantity"`
}

var (
	uow    *store.UnitOfWork
	orders *store.Orders
)

// compensate puts the tickets of a failed order back once: a redelivery finds the order
// compensated and leaves.
func compensate(ctx context.Context, t *asynq.Task) error {
	var ev orderFailed
	if err := json.Unmarshal(t.Payload(), &ev); err != nil {
		return err
	}
	return uow.Do(ctx, func(r *store.Repositories) error {
		order, err := r.Order.GetByID(ctx, ev.OrderID)
		if err != nil {
			return err
		}
		if order.Status() == store.OrderStatusCompensated {
			return nil
		}
		if err := r.Ticket.IncrementTicket(ctx, ev.TicketTypeID, ev.Quantity); err != nil {
			return err
		}
		return r.Order.MarkCompensated(ctx, ev.OrderID)
	})
}

// compensateUnchecked checks nothing: a redelivery puts the tickets back again.
func compensateUnchecked(ctx context.Context, t *asynq.Task) error {
	var ev orderFailed
	if err := json.Unmarshal(t.Payload(), &ev); err != nil {
		return err
	}
	return uow.Do(ctx, func(r *store.Repositories) error { // want `handler compensateUnchecked: SQL write not safe to repeat: relative UPDATE of available \(compensateUnchecked `
		if err := r.Ticket.IncrementTicket(ctx, ev.TicketTypeID, ev.Quantity); err != nil {
			return err
		}
		return r.Order.MarkCompensated(ctx, ev.OrderID)
	})
}

// compensateUnlessPaid leaves on a status it never marks: the order stays failed, and a
// redelivery puts the tickets back again.
func compensateUnlessPaid(ctx context.Context, t *asynq.Task) error {
	var ev orderFailed
	if err := json.Unmarshal(t.Payload(), &ev); err != nil {
		return err
	}
	return uow.Do(ctx, func(r *store.Repositories) error { // want `handler compensateUnlessPaid: SQL write not safe to repeat: relative UPDATE of available \(compensateUnlessPaid `
		order, err := r.Order.GetByID(ctx, ev.OrderID)
		if err != nil {
			return err
		}
		if order.Status() == store.OrderStatusPaid {
			return nil
		}
		if err := r.Ticket.IncrementTicket(ctx, ev.TicketTypeID, ev.Quantity); err != nil {
			return err
		}
		return r.Order.MarkCompensated(ctx, ev.OrderID)
	})
}

// compensateMarkedApart marks the order on a repository of its own, which commits apart:
// a crash between the two puts the tickets back again on the redelivery.
func compensateMarkedApart(ctx context.Context, t *asynq.Task) error {
	var ev orderFailed
	if err := json.Unmarshal(t.Payload(), &ev); err != nil {
		return err
	}
	return uow.Do(ctx, func(r *store.Repositories) error { // want `handler compensateMarkedApart: SQL write not safe to repeat: relative UPDATE of available \(compensateMarkedApart `
		order, err := r.Order.GetByID(ctx, ev.OrderID)
		if err != nil {
			return err
		}
		if order.Status() == store.OrderStatusCompensated {
			return nil
		}
		if err := r.Ticket.IncrementTicket(ctx, ev.TicketTypeID, ev.Quantity); err != nil {
			return err
		}
		return orders.MarkCompensated(ctx, ev.OrderID)
	})
}

// cancel marks the order cancelled by a method named for the status (MarkAsCancelled for
// "CANCELLED"), then tells the customer: the notice after the mark is sent at most once.
// The notice sent before the mark is outside what the transaction undoes, and is sent
// again when a crash comes before the commit.
func cancel(ctx context.Context, t *asynq.Task) error {
	var ev orderFailed
	if err := json.Unmarshal(t.Payload(), &ev); err != nil {
		return err
	}
	return uow.Do(ctx, func(r *store.Repositories) error { // want `handler cancel: HTTP POST without an Idempotency-Key header \(cancel -> .* -> statusmarks.notify -> \(\*http.Client\).Do\); missing`
		order, err := r.Order.GetByID(ctx, ev.OrderID)
		if err != nil {
			return err
		}
		if order.Status() == store.OrderStatusCancelled {
			return nil
		}
		if err := notify(ctx, "cancelling "+ev.OrderID); err != nil {
			return err
		}
		if err := r.Ticket.IncrementTicket(ctx, ev.TicketTypeID, ev.Quantity); err != nil {
			return err
		}
		if err := r.Order.MarkAsCancelled(ctx, ev.OrderID); err != nil {
			return err
		}
		return notify(ctx, "cancelled "+ev.OrderID)
	})
}

func notify(ctx context.Context, text string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://push.example.com/notices", strings.NewReader(text))
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

// Register runs the handlers on the mux.
func Register(mux *asynq.ServeMux) { // want Register:`effects http.write:unprotected\(\(\*http.Client\).Do\) sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)$`
	mux.HandleFunc("compensate", compensate)
	mux.HandleFunc("compensateUnchecked", compensateUnchecked)
	mux.HandleFunc("compensateUnlessPaid", compensateUnlessPaid)
	mux.HandleFunc("compensateMarkedApart", compensateMarkedApart)
	mux.HandleFunc("cancel", cancel)
}
