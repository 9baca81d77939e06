// Package outbox is a stub of the runtime's transactional outbox, with the real signatures
// of the calls the analyzer recognises and the tests make.
package outbox

import (
	"context"
	"database/sql"

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
