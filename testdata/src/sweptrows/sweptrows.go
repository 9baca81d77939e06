// Package sweptrows exercises a sweep that lists records by their state and, for each, runs // want package:"has effects"
// a gorm transaction that moves the record out of that state beside its other writes: a
// repeat's listing no longer finds a record whose transaction committed. Twins leave the
// state as it is, list without a state, move the record on another connection, write on
// the pool inside the literal, set a column the listing does not test, or call out of the
// transaction.
package sweptrows

import (
	"context"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

const (
	StatusActive  = "active"
	StatusExpired = "expired"
)

type Envelope struct {
	ID        uint64
	Status    string
	CreatorID uint64
	Remaining int64
}

type Account struct {
	ID      uint64
	Balance int64
}

type Order struct {
	ID      uint64
	PayeeID uint64
	Amount  int64
}

var db *gorm.DB

// expire refunds each expired envelope once: its transaction marks it expired.
func expire(ctx context.Context, t *asynq.Task) error {
	var envelopes []Envelope
	if err := db.WithContext(ctx).Where("status = ? AND expires_at < ?", StatusActive, time.Now()).Find(&envelopes).Error; err != nil {
		return err
	}
	for _, e := range envelopes {
		err := db.Transaction(func(tx *gorm.DB) error {
			if err := tx.Model(&Envelope{}).Where("id = ? AND status = ?", e.ID, StatusActive).Updates(map[string]interface{}{"status": StatusExpired, "remaining": 0}).Error; err != nil {
				return err
			}
			if err := tx.Model(&Account{}).Where("id = ?", e.CreatorID).Update("balance", gorm.Expr("balance + ?", e.Remaining)).Error; err != nil {
				return err
			}
			return tx.Create(&Order{PayeeID: e.CreatorID, Amount: e.Remaining}).Error
		})
		if err != nil {
			log.Printf("envelope %d: %v", e.ID, err)
		}
	}
	return nil
}

// expireUnmarked refunds without marking: a repeat refunds again.
func expireUnmarked(ctx context.Context, t *asynq.Task) error {
	var envelopes []Envelope
	if err := db.WithContext(ctx).Where("status = ? AND expires_at < ?", StatusActive, time.Now()).Find(&envelopes).Error; err != nil {
		return err
	}
	for _, e := range envelopes {
		err := db.Transaction(func(tx *gorm.DB) error { // want `handler expireUnmarked: SQL write not safe to repeat: relative UPDATE of balance`
			return tx.Model(&Account{}).Where("id = ?", e.CreatorID).Update("balance", gorm.Expr("balance + ?", e.Remaining)).Error
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// expireAll lists by time alone: the mark does not take the envelope out of the listing.
func expireAll(ctx context.Context, t *asynq.Task) error {
	var envelopes []Envelope
	if err := db.WithContext(ctx).Where("expires_at < ?", time.Now()).Find(&envelopes).Error; err != nil {
		return err
	}
	for _, e := range envelopes {
		err := db.Transaction(func(tx *gorm.DB) error { // want `handler expireAll: SQL write not safe to repeat: relative UPDATE of balance`
			if err := tx.Model(&Envelope{}).Where("id = ?", e.ID).Updates(map[string]interface{}{"status": StatusExpired}).Error; err != nil {
				return err
			}
			return tx.Model(&Account{}).Where("id = ?", e.CreatorID).Update("balance", gorm.Expr("balance + ?", e.Remaining)).Error
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// expireApart marks the envelope on the pool: the refund commits apart from it.
func expireApart(ctx context.Context, t *asynq.Task) error {
	var envelopes []Envelope
	if err := db.WithContext(ctx).Where("status = ?", StatusActive).Find(&envelopes).Error; err != nil {
		return err
	}
	for _, e := range envelopes {
		err := db.Transaction(func(tx *gorm.DB) error { // want `handler expireApart: SQL write not safe to repeat: relative UPDATE of balance`
			if err := tx.Model(&Account{}).Where("id = ?", e.CreatorID).Update("balance", gorm.Expr("balance + ?", e.Remaining)).Error; err != nil {
				return err
			}
			return db.Model(&Envelope{}).Where("id = ?", e.ID).Updates(map[string]interface{}{"status": StatusExpired}).Error
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// expirePooled runs its writes on the pool inside the literal: each commits on its own.
func expirePooled(ctx context.Context, t *asynq.Task) error {
	var envelopes []Envelope
	if err := db.WithContext(ctx).Where("status = ?", StatusActive).Find(&envelopes).Error; err != nil {
		return err
	}
	for _, e := range envelopes {
		err := db.Transaction(func(tx *gorm.DB) error { // want `handler expirePooled: SQL write not safe to repeat: relative UPDATE of balance`
			if err := db.Model(&Account{}).Where("id = ?", e.CreatorID).Update("balance", gorm.Expr("balance + ?", e.Remaining)).Error; err != nil {
				return err
			}
			return db.Model(&Envelope{}).Where("id = ?", e.ID).Updates(map[string]interface{}{"status": StatusExpired}).Error
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// expireZeroed sets only the remaining amount, which the listing does not test.
func expireZeroed(ctx context.Context, t *asynq.Task) error {
	var envelopes []Envelope
	if err := db.WithContext(ctx).Where("status = ?", StatusActive).Find(&envelopes).Error; err != nil {
		return err
	}
	for _, e := range envelopes {
		err := db.Transaction(func(tx *gorm.DB) error { // want `handler expireZeroed: SQL write not safe to repeat: relative UPDATE of balance`
			if err := tx.Model(&Envelope{}).Where("id = ?", e.ID).Updates(map[string]interface{}{"remaining": 0}).Error; err != nil {
				return err
			}
			return tx.Model(&Account{}).Where("id = ?", e.CreatorID).Update("balance", gorm.Expr("balance + ?", e.Remaining)).Error
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// expireAndTell tells the creator from inside the transaction: the message is not undone
// by a crash before the commit, and is sent again.
func expireAndTell(ctx context.Context, t *asynq.Task) error {
	var envelopes []Envelope
	if err := db.WithContext(ctx).Where("status = ?", StatusActive).Find(&envelopes).Error; err != nil {
		return err
	}
	for _, e := range envelopes {
		err := db.Transaction(func(tx *gorm.DB) error { // want `handler expireAndTell: HTTP POST without an Idempotency-Key header`
			if err := tx.Model(&Envelope{}).Where("id = ?", e.ID).Updates(map[string]interface{}{"status": StatusExpired}).Error; err != nil {
				return err
			}
			if err := tx.Model(&Account{}).Where("id = ?", e.CreatorID).Update("balance", gorm.Expr("balance + ?", e.Remaining)).Error; err != nil {
				return err
			}
			_, err := http.Post("https://push.example.com/notices", "text/plain", strings.NewReader("refunded"))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Register runs the handlers on the mux.
func Register(mux *asynq.ServeMux) { // want Register:`effects http.write:unprotected\(http.Post\) sql.write:unprotected\(\(\*gorm.DB\).Update\)$`
	mux.HandleFunc("expire", expire)
	mux.HandleFunc("expireUnmarked", expireUnmarked)
	mux.HandleFunc("expireAll", expireAll)
	mux.HandleFunc("expireApart", expireApart)
	mux.HandleFunc("expirePooled", expirePooled)
	mux.HandleFunc("expireZeroed", expireZeroed)
	mux.HandleFunc("expireAndTell", expireAndTell)
}
