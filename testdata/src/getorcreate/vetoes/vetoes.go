// Package vetoes exercises a helper that answers from a gorm read by columns: a bool that // want package:"has effects"
// says the read found a row (a listing holding a pending fill, a row read by its key) and on
// which the caller leaves, before the caller creates a record the read, given the caller's
// arguments, would find. The create is checked first; the order sent before it is not. A
// helper that looks for another status, skips rows before its test or answers before it
// reads guards nothing, nor does a caller that leaves on the other answer.
package vetoes

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

type Bot struct {
	ID     string
	Symbol string
}

// Fill is an order of a bot: Mode 1 opens, 2 closes; Status 0 until the exchange fills it.
type Fill struct {
	ID     string
	BotID  string
	Mode   int
	Status int
	Price  float64
}

var db *gorm.DB

func botOf(t *asynq.Task) *Bot { return &Bot{ID: string(t.Payload())} }

func order(bot *Bot) error {
	_, err := http.Post("https://exchange.example.com/orders", "text/plain", strings.NewReader(bot.Symbol))
	return err
}

// canOpen says no while an opening fill of the bot is pending, or one was filled near the
// price.
func canOpen(bot *Bot, price float64) bool {
	var fills []*Fill
	db.Select("status", "price").Where("bot_id = ? AND mode = 1 AND status IN ?", bot.ID, []int{0, 1}).Find(&fills)
	for _, f := range fills {
		if f.Status == 0 {
			return false
		}
		if price >= f.Price*0.99 {
			return false
		}
	}
	return true
}

// Open places the opening order and records it as pending: a repeat after the record finds
// it pending and leaves; a crash between the order and the record sends the order again.
func Open(ctx context.Context, t *asynq.Task) error { // want Open:`effects http.write:unprotected\(http.Post\) sql.write:claimed\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	price := float64(len(t.Payload()))
	if !canOpen(bot, price) {
		return nil
	}
	if err := order(bot); err != nil { // want `handler Open: HTTP POST`
		return err
	}
	return db.Create(&Fill{ID: bot.Symbol + "-1", BotID: bot.ID, Mode: 1, Price: price}).Error
}

// hasClose says yes when a closing fill of the bot was read.
func hasClose(bot *Bot) bool {
	var f Fill
	db.Where("bot_id = ? AND mode = 2", bot.ID).Take(&f)
	if f.ID != "" {
		return true
	}
	return false
}

// Close records the closing fill once.
func Close(ctx context.Context, t *asynq.Task) error { // want Close:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	if hasClose(bot) {
		return nil
	}
	return db.Create(&Fill{ID: bot.Symbol + "-2", BotID: bot.ID, Mode: 2}).Error
}

// canOpenUnfilled says no only while a filled opening is there: the pending fill the caller
// creates does not stop a repeat.
func canOpenUnfilled(bot *Bot) bool {
	var fills []Fill
	db.Where("bot_id = ? AND mode = 1", bot.ID).Find(&fills)
	for _, f := range fills {
		if f.Status == 1 {
			return false
		}
	}
	return true
}

// OpenUnfilled creates a fill its check does not look for.
func OpenUnfilled(ctx context.Context, t *asynq.Task) error { // want OpenUnfilled:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	if !canOpenUnfilled(bot) {
		return nil
	}
	return db.Create(&Fill{ID: bot.Symbol + "-1", BotID: bot.ID, Mode: 1}).Error // want `handler OpenUnfilled: GORM Create`
}

// OpenWhenSaid leaves when the helper says it may open: it creates when the check said no.
func OpenWhenSaid(ctx context.Context, t *asynq.Task) error { // want OpenWhenSaid:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	if canOpen(bot, 1) {
		return nil
	}
	return db.Create(&Fill{ID: bot.Symbol + "-1", BotID: bot.ID, Mode: 1}).Error // want `handler OpenWhenSaid: GORM Create`
}

// canOpenAbove skips the fills below the price before it tests them: a pending fill at a
// lower price does not stop it.
func canOpenAbove(bot *Bot, price float64) bool {
	var fills []Fill
	db.Where("bot_id = ? AND mode = 1", bot.ID).Find(&fills)
	for _, f := range fills {
		if f.Price < price {
			continue
		}
		if f.Status == 0 {
			return false
		}
	}
	return true
}

// OpenAbove creates a pending fill its check may skip.
func OpenAbove(ctx context.Context, t *asynq.Task) error { // want OpenAbove:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	if !canOpenAbove(bot, 5) {
		return nil
	}
	return db.Create(&Fill{ID: bot.Symbol + "-1", BotID: bot.ID, Mode: 1, Price: 1}).Error // want `handler OpenAbove: GORM Create`
}

// canOpenSmall says yes for a small price before it reads anything.
func canOpenSmall(bot *Bot, price float64) bool {
	if price < 10 {
		return true
	}
	var fills []Fill
	db.Where("bot_id = ? AND mode = 1", bot.ID).Find(&fills)
	if len(fills) > 0 {
		return false
	}
	return true
}

// OpenSmall creates a fill a small price lets through again.
func OpenSmall(ctx context.Context, t *asynq.Task) error { // want OpenSmall:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	if !canOpenSmall(bot, 1) {
		return nil
	}
	return db.Create(&Fill{ID: bot.Symbol + "-1", BotID: bot.ID, Mode: 1}).Error // want `handler OpenSmall: GORM Create`
}

// canOpenAny says no when any opening fill of the bot is listed.
func canOpenAny(bot *Bot) bool {
	var fills []Fill
	db.Where("bot_id = ? AND mode = 1", bot.ID).Find(&fills)
	if len(fills) > 0 {
		return false
	}
	return true
}

// OpenFirst creates the bot's first opening fill once.
func OpenFirst(ctx context.Context, t *asynq.Task) error { // want OpenFirst:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	if !canOpenAny(bot) {
		return nil
	}
	return db.Create(&Fill{ID: bot.Symbol + "-1", BotID: bot.ID, Mode: 1}).Error
}

// OpenCounted counts the bot's openings and records the fill in one transaction: the count
// commits with the row the check looks for, or not at all. The order sent inside is not
// undone by a rollback.
func OpenCounted(ctx context.Context, t *asynq.Task) error { // want OpenCounted:`effects http.write:unprotected\(http.Post\) sql.write:claimed\(\(\*gorm.DB\).Update\)`
	bot := botOf(t)
	if !canOpenAny(bot) {
		return nil
	}
	return db.Transaction(func(tx *gorm.DB) error { // want `handler OpenCounted: HTTP POST`
		tx.Model(&Bot{}).Where("id = ?", bot.ID).Update("openings", gorm.Expr("openings + ?", 1))
		if err := order(bot); err != nil {
			return err
		}
		return tx.Create(&Fill{ID: bot.Symbol + "-1", BotID: bot.ID, Mode: 1}).Error
	})
}

// OpenCountedApart records the fill outside the transaction that counts: a crash between
// the count's commit and the record counts again.
func OpenCountedApart(ctx context.Context, t *asynq.Task) error { // want OpenCountedApart:`effects sql.write:unprotected\(\(\*gorm.DB\).Update\)`
	bot := botOf(t)
	if !canOpenAny(bot) {
		return nil
	}
	return db.Transaction(func(tx *gorm.DB) error { // want `handler OpenCountedApart: SQL write not safe to repeat`
		tx.Model(&Bot{}).Where("id = ?", bot.ID).Update("openings", gorm.Expr("openings + ?", 1))
		return db.Create(&Fill{ID: bot.Symbol + "-1", BotID: bot.ID, Mode: 1}).Error
	})
}
