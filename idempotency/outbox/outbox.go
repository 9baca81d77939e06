package outbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chokaq/idemlint/idempotency"
)

// Message is one message of the outbox.
type Message struct {
	// ID identifies the message for ever: a second Put of the same ID writes nothing, and
	// the relay hands it to the broker as the deduplication ID. Derive it from the job's
	// idempotency key (ID, ClaimID), never from time or randomness, or a redelivered
	// handler writes a second message. Brokers limit its length (SQS: 128 characters); the
	// IDs of ID and ClaimID are 64 hex digits.
	ID string
	// Topic is where the message goes: a topic, subject, queue, task type or job kind, as
	// the Publisher reads it. Messages of one topic are published in order.
	Topic string
	// Payload is the message body.
	Payload []byte
	// Headers are the message's metadata (nil for none).
	Headers map[string]string
}

// ErrInvalidMessage is matched by the error Put returns for a message without an ID or a
// topic. Nothing was written.
var ErrInvalidMessage = errors.New("outbox: invalid message")

// ErrNoClaim is returned by ClaimID when the context carries no idempotency claim: the
// handler does not run under the middleware of package idempotency.
var ErrNoClaim = errors.New("outbox: no idempotency claim in the context")

// insert is the one statement of Put, in both dialects: SQLite numbers $N parameters by N
// (modernc.org/sqlite and mattn/go-sqlite3 both bind them by position), and the table's
// defaults fill in the times.
const insert = `INSERT INTO idempotency_outbox (id, topic, payload, headers) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`

func args(msg Message) (string, error) {
	if msg.ID == "" {
		return "", fmt.Errorf("%w: empty ID (topic %q)", ErrInvalidMessage, msg.Topic)
	}
	if msg.Topic == "" {
		return "", fmt.Errorf("%w: empty topic (ID %q)", ErrInvalidMessage, msg.ID)
	}
	if len(msg.Headers) == 0 {
		return "{}", nil
	}
	h, err := json.Marshal(msg.Headers)
	if err != nil {
		return "", fmt.Errorf("outbox: headers: %w", err)
	}
	return string(h), nil
}

// Put writes msg into the outbox in tx, the handler's own database/sql transaction, on
// PostgreSQL or SQLite: the message is published only if tx commits. A message with the
// same ID already in the outbox (a redelivered handler writing it again) is left as it is
// and the call does nothing: the first write's topic, payload and headers stand.
//
// On SQLite, begin the handler's transaction with sqlstore's Store.BeginTx when the handler
// runs under the middleware (pass its Tx field), as for CompleteTx.
func Put(ctx context.Context, tx *sql.Tx, msg Message) error {
	if tx == nil {
		return errors.New("outbox: Put: nil *sql.Tx")
	}
	h, err := args(msg)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, insert, msg.ID, msg.Topic, payload(msg.Payload), h); err != nil {
		return fmt.Errorf("outbox: put %q: %w", msg.ID, err)
	}
	return nil
}

// PutPgx is Put for a pgx transaction (pgx.Tx, as pgx.Conn.Begin and pgxpool.Pool.Begin
// return it) on PostgreSQL.
func PutPgx(ctx context.Context, tx pgx.Tx, msg Message) error {
	if tx == nil {
		return errors.New("outbox: PutPgx: nil pgx.Tx")
	}
	h, err := args(msg)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, insert, msg.ID, msg.Topic, payload(msg.Payload), h); err != nil {
		return fmt.Errorf("outbox: put %q: %w", msg.ID, err)
	}
	return nil
}

// payload keeps a nil payload from becoming SQL NULL.
func payload(p []byte) []byte {
	if p == nil {
		return []byte{}
	}
	return p
}

// ID derives a message ID from parts that identify the message for ever: typically the
// handler's name, the job's idempotency key and the message's name within the job
// (ID("charge", j.PaymentAttemptID, "charged")). It is the hex SHA-256 of the parts joined
// by idempotency.Key, so the same parts always give the same ID and different lists of parts
// never do. An empty part is an error matching idempotency.ErrEmptyKey: an ID made from an
// empty key would be shared by every job without one, and all but the first message dropped.
func ID(parts ...string) (string, error) {
	k, err := idempotency.Key(parts...)
	if err != nil {
		return "", fmt.Errorf("outbox: ID: %w", err)
	}
	return idempotency.StoreKey("outbox", k), nil
}

// ClaimID derives a message ID from the idempotency claim the middleware put in ctx (its
// stored key, which is namespaced by handler and service) and the message's name within the
// job: ID(claim.StoreKey, name). Every delivery of the job gets the same ID for the same
// name. Without a claim in ctx it returns ErrNoClaim.
func ClaimID(ctx context.Context, name string) (string, error) {
	c, ok := idempotency.ClaimFromContext(ctx)
	if !ok {
		return "", ErrNoClaim
	}
	return ID(c.StoreKey, name)
}
