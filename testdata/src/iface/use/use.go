// Package use calls through interfaces: implementations in view and modelled sinks behind a // want package:"has effects"
// repository's own interface are resolved.
package use

import (
	"context"
	"io"
	"net/http"

	"iface/impl"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Notifier interface{ Notify(to string) error }

var _ Notifier = impl.SMTPNotifier{}

var n Notifier

func Notify(ctx context.Context, t *asynq.Task) error { // want Notify:`effects email.send:unprotected\(smtp.SendMail\)`
	return n.Notify("a@example.com") // want `handler Notify: email sent with no deduplication \(Notify -> impl.SMTPNotifier.Notify|\(impl.SMTPNotifier\).Notify`
}

// DBTX is the interface sqlc generates; *pgxpool.Pool implements it.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

var _ DBTX = (*pgxpool.Pool)(nil)

type Queries struct{ db DBTX }

func (q *Queries) InsertEvent(ctx context.Context) error { // want InsertEvent:`effects sql.write:unprotected\(\(use.DBTX\).Exec\)`
	_, err := q.db.Exec(ctx, "INSERT INTO events (a) VALUES (1)")
	return err
}

var q *Queries

func Record(ctx context.Context, t *asynq.Task) error { // want Record:`effects sql.write:unprotected\(\(use.DBTX\).Exec\)`
	return q.InsertEvent(ctx) // want `handler Record: SQL write not safe to repeat: INSERT without conflict handling \(Record -> \(\*use.Queries\).InsertEvent -> \(use.DBTX\).Exec\)`
}

// A local implementation is in view too.
type logNotifier struct{}

func (logNotifier) Notify(to string) error { return nil }

// A handler that only GETs: resp.Body.Close is a call on an io.ReadCloser, which JobLog (an
// io.Closer with a database write) does not implement.
func Fetch(ctx context.Context, t *asynq.Task) error {
	resp, err := http.Get("https://example.com/status")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return nil
}

// Closing a value whose static type is io.Closer may run JobLog's Close.
func CloseAll(ctx context.Context, t *asynq.Task) error { // want CloseAll:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	var c io.Closer = &impl.JobLog{}
	return c.Close() // want `handler CloseAll: SQL write not safe to repeat: INSERT without conflict handling \(CloseAll -> \(\*impl.JobLog\).Close -> \(\*sql.DB\).Exec\)`
}

// sqlc's shape: a store that embeds *Queries implements a wider interface than Queries does;
// a call on that interface runs the promoted method.
type Store interface {
	InsertEvent(ctx context.Context) error
	InTx(ctx context.Context, fn func(*Queries) error) error
}

type SQLStore struct{ *Queries }

func (s *SQLStore) InTx(ctx context.Context, fn func(*Queries) error) error { return fn(s.Queries) } // want InTx:`calls-params\(1\)`

var store Store = &SQLStore{q}

func RecordViaStore(ctx context.Context, t *asynq.Task) error { // want RecordViaStore:`effects sql.write:unprotected\(\(use.DBTX\).Exec\)`
	return store.InsertEvent(ctx) // want `handler RecordViaStore: SQL write not safe to repeat: INSERT without conflict handling \(RecordViaStore -> \(\*use.Queries\).InsertEvent -> \(use.DBTX\).Exec\)`
}

// Doer is the package's own HTTP client interface, for tests to fake.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// instrumented counts the requests of the Doer it wraps: it implements Doer too.
type instrumented struct{ inner Doer }

func (i *instrumented) Do(r *http.Request) (*http.Response, error) { return i.inner.Do(r) } // want Do:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[request from param 0\]`

// partner is wired here with the *http.Client behind the wrapper: the wrapper's inner call
// may be the client's request.
var partner Doer = &instrumented{inner: http.DefaultClient}

// Ship POSTs through the instrumented client: reported, though the package's own
// implementation of Doer is in view (the *http.Client it puts behind Doer is too).
func Ship(ctx context.Context, t *asynq.Task) error { // want Ship:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://partner.example/ship", nil)
	_, err := partner.Do(req) // want `handler Ship: HTTP POST without an Idempotency-Key header \(Ship -> \(\*http.Client\).Do\)`
	return err
}
