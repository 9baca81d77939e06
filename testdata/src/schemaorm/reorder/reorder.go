// Package reorder creates orders through a helper keyed by what its callers pass: the // want package:"has effects"
// callers decide whether a redelivery fails on the key or adds an order.
package reorder

import (
	"context"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"

	"schemaorm/db"
)

var gdb *gorm.DB

// saveOrder creates an order keyed by what its caller passes.
func saveOrder(key string) error {
	return gdb.Create(&db.Order{ExternalID: key}).Error
}

// Reorder passes a key made anew: each run adds an order.
func Reorder(ctx context.Context, t *asynq.Task) error { // want Reorder:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return saveOrder(uuid.NewString()) // want `handler Reorder: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders: a new row on every run, its unique key idx_orders_external_id \(UNIQUE \(external_id\), \S*db/models.go:13\) given values made anew \(reorder.saveOrder is given one made from uuid.NewString\)`
}

// Resend passes the job's key: a redelivery fails on it.
func Resend(ctx context.Context, t *asynq.Task) error { // want Resend:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return saveOrder(string(t.Payload())) // want `handler Resend: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders fails on a repeat`
}
