// Package gormfilter holds gorm locking reads filtered by the row's state, whose "not // want package:"has effects"
// found" ends the transaction: the writes after them commit with the state's change. The
// twins lock without the state's filter, or filter without a lock.
package gormfilter

import (
	"context"
	"errors"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var orm *gorm.DB

// Dispute is the locked record.
type Dispute struct {
	ID     string
	Status string
}

// Refund is written with the dispute's new state.
type Refund struct {
	DisputeID string
}

// Resolve locks the dispute only while it is open: a redelivery after the commit finds
// no open dispute and returns.
func Resolve(ctx context.Context, t *asynq.Task) error { // want Resolve:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	return orm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var d Dispute
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "NOWAIT"}).
			Where("id = ? AND status = ?", t.Type(), "open").
			First(&d).Error; err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return nil
			}
			return err
		}
		if err := tx.Create(&Refund{DisputeID: d.ID}).Error; err != nil {
			return err
		}
		return tx.Model(&d).Update("status", "resolved").Error
	})
}

// ResolveAnyState locks the dispute whatever its state: a redelivery refunds again.
func ResolveAnyState(ctx context.Context, t *asynq.Task) error { // want ResolveAnyState:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return orm.WithContext(ctx).Transaction(func(tx *gorm.DB) error { // want `handler ResolveAnyState: GORM Create \(INSERT\) without conflict handling`
		var d Dispute
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", t.Type()).First(&d).Error; err != nil {
			return err
		}
		if err := tx.Create(&Refund{DisputeID: d.ID}).Error; err != nil {
			return err
		}
		return tx.Model(&d).Update("status", "resolved").Error
	})
}

// ResolveUnlocked filters by the state without locking the row: two deliveries at once
// both find it open, and both refund.
func ResolveUnlocked(ctx context.Context, t *asynq.Task) error { // want ResolveUnlocked:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return orm.WithContext(ctx).Transaction(func(tx *gorm.DB) error { // want `handler ResolveUnlocked: GORM Create \(INSERT\) without conflict handling`
		var d Dispute
		if err := tx.Where("id = ? AND status = ?", t.Type(), "open").First(&d).Error; err != nil {
			return err
		}
		if err := tx.Create(&Refund{DisputeID: d.ID}).Error; err != nil {
			return err
		}
		return tx.Model(&d).Update("status", "resolved").Error
	})
}

// ResolveKeepState locks the open dispute but never moves it out of "open": a redelivery
// finds it open again and refunds again.
func ResolveKeepState(ctx context.Context, t *asynq.Task) error { // want ResolveKeepState:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return orm.WithContext(ctx).Transaction(func(tx *gorm.DB) error { // want `handler ResolveKeepState: GORM Create \(INSERT\) without conflict handling`
		var d Dispute
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ? AND status = ?", t.Type(), "open").First(&d).Error; err != nil {
			return err
		}
		if err := tx.Create(&Refund{DisputeID: d.ID}).Error; err != nil {
			return err
		}
		return tx.Model(&d).Update("note", "refunded").Error
	})
}
