// Package upserthelpers holds handlers that insert through the service's gorm helpers: an // want package:"has effects"
// insert chained on the builder a helper returns with an ON CONFLICT clause is an upsert,
// in the call's chain or through a local variable. A helper that adds no clause, or adds it
// on one branch only, leaves the insert reported.
package upserthelpers

import (
	"context"
	"time"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"

	"upserthelpers/database"
)

var gdb *gorm.DB

// deletedSystem records that a system was deleted.
type deletedSystem struct {
	InventoryID string
	WhenDeleted time.Time
}

// account is a tenant's account.
type account struct{ OrgID string }

func systemDeleted(ctx context.Context, t *asynq.Task) error {
	return database.OnConflictUpdate(gdb, "inventory_id", "when_deleted").
		Create(&deletedSystem{InventoryID: string(t.Payload()), WhenDeleted: time.Now()}).Error
}

func accountSeen(ctx context.Context, t *asynq.Task) error {
	q := database.OnConflictUpdateMulti(gdb, []string{"org_id"})
	return q.Create(&account{OrgID: string(t.Payload())}).Error
}

func accountScoped(ctx context.Context, t *asynq.Task) error {
	return database.Scoped(gdb, "t1").Create(&account{OrgID: string(t.Payload())}).Error // want `handler accountScoped: GORM Create \(INSERT\)`
}

func accountMaybe(ctx context.Context, t *asynq.Task) error {
	return database.Maybe(gdb, len(t.Payload()) > 3).Create(&account{OrgID: string(t.Payload())}).Error // want `handler accountMaybe: GORM Create \(INSERT\)`
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("system:deleted", systemDeleted)
	mux.HandleFunc("account:seen", accountSeen)
	mux.HandleFunc("account:scoped", accountScoped)
	mux.HandleFunc("account:maybe", accountMaybe)
}
