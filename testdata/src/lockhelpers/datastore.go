// The repository behind an interface. // want package:"has effects"

package lockhelpers

import (
	"context"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"lockhelpers/store"
)

// Datastore is the repository as the handlers hold it: store.Store in the service, wrapped
// in metrics, and a mock generated into the package's own files for its tests.
type Datastore interface {
	OutboxForUpdate(ctx context.Context, dbi sqlx.QueryerContext, id string) (*store.Outbox, error)
	InsertCredentials(ctx context.Context, tx *sqlx.Tx, id string) error
	UpdateOutboxCompleted(ctx context.Context, tx *sqlx.Tx, id string, at time.Time) error
}

var ds Datastore = withMetrics{base: repo}

// withMetrics is a generated decorator: each method times the call and hands it on.
type withMetrics struct{ base Datastore }

func (d withMetrics) OutboxForUpdate(ctx context.Context, dbi sqlx.QueryerContext, id string) (o *store.Outbox, err error) { // want OutboxForUpdate:`locks\(result 0\)`
	defer observe(time.Now())
	return d.base.OutboxForUpdate(ctx, dbi, id)
}

func (d withMetrics) InsertCredentials(ctx context.Context, tx *sqlx.Tx, id string) error { // want InsertCredentials:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)`
	defer observe(time.Now())
	return d.base.InsertCredentials(ctx, tx, id)
}

func (d withMetrics) UpdateOutboxCompleted(ctx context.Context, tx *sqlx.Tx, id string, at time.Time) error { // want UpdateOutboxCompleted:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)`
	defer observe(time.Now())
	return d.base.UpdateOutboxCompleted(ctx, tx, id, at)
}

func observe(start time.Time) {}

// MockDatastore is a mock in mockgen's shape, in a file of the package that is not a
// _test.go file.
type MockDatastore struct {
	ctrl *gomock.Controller
}

func (m *MockDatastore) OutboxForUpdate(ctx context.Context, dbi sqlx.QueryerContext, id string) (*store.Outbox, error) {
	return nil, nil
}

func (m *MockDatastore) InsertCredentials(ctx context.Context, tx *sqlx.Tx, id string) error {
	return nil
}

func (m *MockDatastore) UpdateOutboxCompleted(ctx context.Context, tx *sqlx.Tx, id string, at time.Time) error {
	return nil
}

// SignThroughInterface is Sign through the Datastore interface: what the store's locking
// read says, the decorator says too, and the mock never runs in the service.
func SignThroughInterface(ctx context.Context, t *asynq.Task) error { // want SignThroughInterface:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)`
	id := string(t.Payload())
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	o, err := ds.OutboxForUpdate(ctx, tx, id)
	if err != nil {
		return err
	}
	if o == nil || o.CompletedAt != nil {
		return nil
	}
	if err := ds.InsertCredentials(ctx, tx, id); err != nil {
		return err
	}
	if err := ds.UpdateOutboxCompleted(ctx, tx, id, time.Now()); err != nil {
		return err
	}
	return tx.Commit()
}
