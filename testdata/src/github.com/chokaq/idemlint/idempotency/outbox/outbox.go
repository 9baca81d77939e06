// Package outbox is a stub of the runtime's transactional outbox, with the real signatures
// of the calls the analyzer recognises and the tests make.
package outbox

import (
	"context"
	"database/sql"
	"time"

	"github.com/jackc/pgx/v5"
)

type Message struct {
	ID      string
	Topic   string
	Payload []byte
	Headers map[string]string
}

func Put(ctx context.Context, tx *sql.Tx, msg Message) error { panic("stub") }

func PutPgx(ctx context.Context, tx pgx.Tx, msg Message) error { panic("stub") }

func ID(parts ...string) (string, error) { panic("stub") }

func ClaimID(ctx context.Context, name string) (string, error) { panic("stub") }

type Publisher interface {
	Publish(ctx context.Context, msg Message) error
}

type PublisherFunc func(ctx context.Context, msg Message) error

func (f PublisherFunc) Publish(ctx context.Context, msg Message) error { return f(ctx, msg) }

type Config struct {
	Dialect   Dialect
	Publisher Publisher
	Retention time.Duration
}

type Dialect uint8

const (
	Postgres Dialect = iota + 1
	SQLite
)

type Relay struct{}

func NewRelay(db *sql.DB, cfg Config) (*Relay, error) { panic("stub") }

func (r *Relay) Run(ctx context.Context) error { panic("stub") }
