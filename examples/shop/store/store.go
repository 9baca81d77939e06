// Package store is the shop's PostgreSQL data access layer, built on pgx v5.
//
// Each write below is deliberately a different shape so that idemlint has
// something to say about it: an upsert, a plain insert, a relative update, a
// converging state transition, a statement assembled at run time and an
// outbox insert inside the caller's transaction.
package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrOrderNotFound is returned by Order when no order has the given ID.
var ErrOrderNotFound = errors.New("store: order not found")

// Order is a customer order as stored in the orders table.
type Order struct {
	ID         string
	CustomerID string
	Email      string
	TotalCents int64
	Currency   string
	Status     string
	CreatedAt  time.Time
}

// LedgerEntry is one line of the accounting ledger.
type LedgerEntry struct {
	OrderID     string
	Kind        string // "charge", "refund", "payout"
	AmountCents int64
	Reference   string // provider reference, e.g. a Stripe PaymentIntent ID
}

// OutboxEvent is an event waiting in the outbox table to be relayed to the
// message broker.
type OutboxEvent struct {
	EventID string
	Topic   string
	Payload []byte
}

// Store runs the shop's queries on a pgx connection pool.
type Store struct {
	pool *pgxpool.Pool
}

// New returns a Store that uses pool.
func New(pool *pgxpool.Pool) *Store {
	return &Store{pool: pool}
}

// CreateOrder inserts o unless an order with the same ID already exists. The
// primary key on orders.id plus ON CONFLICT makes a repeated call a no-op.
func (s *Store) CreateOrder(ctx context.Context, o Order) error {
	_, err := s.pool.Exec(ctx,
		`INSERT INTO orders (id, customer_id, email, total_cents, currency, status)
		 VALUES ($1, $2, $3, $4, $5, 'pending')
		 ON CONFLICT (id) DO NOTHING`,
		o.ID, o.CustomerID, o.Email, o.TotalCents, o.Currency)
	if err != nil {
		return fmt.Errorf("store: create order %s: %w", o.ID, err)
	}
	return nil
}

// AddLedgerEntry appends e to the ledger. The ledger has no natural unique
// key, so every call adds a row.
func (s *Store) AddLedgerEntry(ctx context.Context, e LedgerEntry) error {
	_, err := s.pool.Exec(ctx,
		`INSERT INTO ledger (order_id, kind, amount_cents, reference)
		 VALUES ($1, $2, $3, $4)`,
		e.OrderID, e.Kind, e.AmountCents, e.Reference)
	if err != nil {
		return fmt.Errorf("store: add %s ledger entry for order %s: %w", e.Kind, e.OrderID, err)
	}
	return nil
}

// DebitWallet subtracts amountCents from the customer's store-credit wallet.
// The update is relative to the current balance.
func (s *Store) DebitWallet(ctx context.Context, customerID string, amountCents int64) error {
	_, err := s.pool.Exec(ctx,
		`UPDATE wallets SET balance = balance - $1 WHERE customer_id = $2`,
		amountCents, customerID)
	if err != nil {
		return fmt.Errorf("store: debit wallet of customer %s: %w", customerID, err)
	}
	return nil
}

// MarkShipped moves a paid order to shipped. The status condition makes the
// transition converge: once shipped, a repeat matches no row.
func (s *Store) MarkShipped(ctx context.Context, orderID string) error {
	_, err := s.pool.Exec(ctx,
		`UPDATE orders SET status = 'shipped' WHERE id = $1 AND status = 'paid'`,
		orderID)
	if err != nil {
		return fmt.Errorf("store: mark order %s shipped: %w", orderID, err)
	}
	return nil
}

// RecordAudit appends payload to the audit table named by table. The table
// name is chosen by the caller, so the statement is assembled at run time.
// The caller must pass a trusted, constant table name.
func (s *Store) RecordAudit(ctx context.Context, table string, payload []byte) error {
	_, err := s.pool.Exec(ctx, "INSERT INTO "+table+" (payload) VALUES ($1)", payload)
	if err != nil {
		return fmt.Errorf("store: record audit in %s: %w", table, err)
	}
	return nil
}

// InsertOutbox stores e in the outbox within tx, so the event is committed
// together with the caller's state change. The unique event_id makes a
// repeated insert a no-op.
func InsertOutbox(ctx context.Context, tx pgx.Tx, e OutboxEvent) error {
	_, err := tx.Exec(ctx,
		`INSERT INTO outbox (event_id, topic, payload)
		 VALUES ($1, $2, $3)
		 ON CONFLICT (event_id) DO NOTHING`,
		e.EventID, e.Topic, e.Payload)
	if err != nil {
		return fmt.Errorf("store: insert outbox event %s: %w", e.EventID, err)
	}
	return nil
}

// Order returns the order with the given ID. It only reads.
func (s *Store) Order(ctx context.Context, id string) (Order, error) {
	var o Order
	err := s.pool.QueryRow(ctx,
		`SELECT id, customer_id, email, total_cents, currency, status, created_at
		 FROM orders WHERE id = $1`, id).
		Scan(&o.ID, &o.CustomerID, &o.Email, &o.TotalCents, &o.Currency, &o.Status, &o.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return Order{}, fmt.Errorf("%w: %s", ErrOrderNotFound, id)
	}
	if err != nil {
		return Order{}, fmt.Errorf("store: load order %s: %w", id, err)
	}
	return o, nil
}
