// Package callbacks holds a payment gateway's notification job that counts, with gorm, the // want package:"has effects"
// callbacks it sent a merchant: a count of attempts, which a repeat bumps truly. A count of
// something else stays a relative update.
package callbacks

import (
	"context"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

type order struct{ TradeID string }

var db *gorm.DB

// NotifyMerchant records one more callback and whether the merchant confirmed it.
func NotifyMerchant(ctx context.Context, t *asynq.Task) error {
	return db.Model(&order{}).Where("trade_id = ?", string(t.Payload())).Updates(map[string]interface{}{
		"callback_num":     gorm.Expr("callback_num + ?", 1),
		"callback_confirm": 1,
	}).Error
}

// CreditMerchant adds the order's amount to the merchant's total: again on every run.
func CreditMerchant(ctx context.Context, t *asynq.Task) error { // want CreditMerchant:`effects sql.write:unprotected\(\(\*gorm.DB\).Updates\)`
	return db.Model(&order{}).Where("trade_id = ?", string(t.Payload())).Updates(map[string]interface{}{ // want `handler CreditMerchant: SQL write not safe to repeat: relative UPDATE of callback_total`
		"callback_total": gorm.Expr("callback_total + ?", 1),
	}).Error
}
