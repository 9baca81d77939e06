// Package bycolumns exercises a gorm read of one row by the columns the code then creates: // want package:"has effects"
// the read leaves when it found the row, or its not-found branch creates it, and the record
// created has the values the read selects by, wherever they came from. The create and what
// follows it are checked first; a POST between the check and the create is not. A record
// that the read would not find, a condition not read, a value from the clock and a test of
// another field guard nothing.
package bycolumns

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

// Bot is a grid bot; a Fill is one of its orders, Mode 1 opening and 2 closing, Status 0
// until the exchange fills it.
type Bot struct {
	ID     string
	Symbol string
}

type Fill struct {
	ID     string
	BotID  string
	Mode   int
	Status int
	Day    string
	Price  float64
}

// Position is the exchange's position in a symbol, mirrored.
type Position struct {
	ID     string
	Symbol string
	Status int
	Qty    float64
}

var db *gorm.DB

func newID() string { return strings.Repeat("x", 20) }

func botOf(t *asynq.Task) *Bot {
	var b Bot
	db.Where("id = ?", string(t.Payload())).First(&b)
	return &b
}

// Close records the closing fill of a bot once: a pending one found ends the job.
func Close(ctx context.Context, t *asynq.Task) error { // want Close:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	var open *Fill
	db.Where("bot_id = ? AND mode = 2 AND status = ?", bot.ID, 0).Take(&open)
	if open.ID != "" {
		return errors.New("waiting for the close to fill")
	}
	return db.Create(&Fill{ID: newID(), BotID: bot.ID, Mode: 2}).Error
}

// CloseAfterOrder sends the order between the check and the record of it: a crash between
// the two sends it again.
func CloseAfterOrder(ctx context.Context, t *asynq.Task) error { // want CloseAfterOrder:`effects http.write:unprotected\(http.Post\) sql.write:claimed\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	var open Fill
	db.Where("bot_id = ? AND mode = 2 AND status = ?", bot.ID, 0).Take(&open)
	if open.ID != "" {
		return nil
	}
	if _, err := http.Post("https://exchange.example.com/orders", "text/plain", strings.NewReader(bot.Symbol)); err != nil { // want `handler CloseAfterOrder: HTTP POST`
		return err
	}
	return db.Create(&Fill{ID: newID(), BotID: bot.ID, Mode: 2, Status: 0}).Error
}

// SyncPositions mirrors the positions of the symbols the service watches (no key of the
// job's): a position found by its symbol is kept, one not found created, so a repeat finds
// what the first run created.
func SyncPositions(ctx context.Context, t *asynq.Task) error { // want SyncPositions:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	for _, symbol := range watched {
		var entity Position
		res := db.Where("symbol = ? AND status = 1", symbol).Take(&entity)
		if errors.Is(res.Error, gorm.ErrRecordNotFound) {
			entity = Position{ID: newID(), Symbol: symbol, Status: 1, Qty: quantity(symbol)}
			db.Create(&entity)
		}
	}
	return nil
}

// SyncLast reads the newest row with Last and creates one when it read no primary key: the
// same.
func SyncLast(ctx context.Context, t *asynq.Task) error { // want SyncLast:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	for _, symbol := range watched {
		var entity Position
		db.Where("symbol", symbol).Last(&entity)
		if entity.ID == "" {
			db.Create(&Position{ID: newID(), Symbol: symbol, Qty: quantity(symbol)})
		}
	}
	return nil
}

// CloseOtherMode looks up a closing fill and creates an opening one: a repeat does not find
// it and creates another.
func CloseOtherMode(ctx context.Context, t *asynq.Task) error { // want CloseOtherMode:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	var open Fill
	db.Where("bot_id = ? AND mode = 2 AND status = ?", bot.ID, 0).Take(&open)
	if open.ID != "" {
		return nil
	}
	return db.Create(&Fill{ID: newID(), BotID: bot.ID, Mode: 1}).Error // want `handler CloseOtherMode: GORM Create`
}

// CloseBelow looks up by a price range, which the created fill need not be in.
func CloseBelow(ctx context.Context, t *asynq.Task) error { // want CloseBelow:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	var open Fill
	db.Where("bot_id = ? AND price > ?", bot.ID, 10).Take(&open)
	if open.ID != "" {
		return nil
	}
	return db.Create(&Fill{ID: newID(), BotID: bot.ID, Price: 5}).Error // want `handler CloseBelow: GORM Create`
}

// CloseThisHour looks up by the hour of the clock: a repeat in the next hour looks up
// another.
func CloseThisHour(ctx context.Context, t *asynq.Task) error { // want CloseThisHour:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	var open Fill
	db.Where("bot_id = ? AND day = ?", bot.ID, time.Now().Format("010215")).Take(&open)
	if open.ID != "" {
		return nil
	}
	return db.Create(&Fill{ID: newID(), BotID: bot.ID, Day: time.Now().Format("010215")}).Error // want `handler CloseThisHour: GORM Create`
}

// CloseIfFilled leaves only when the fill found is filled: the pending fill it creates
// does not end a repeat.
func CloseIfFilled(ctx context.Context, t *asynq.Task) error { // want CloseIfFilled:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	bot := botOf(t)
	var open Fill
	db.Where("bot_id = ? AND mode = 2", bot.ID).Take(&open)
	if open.Status != 0 {
		return nil
	}
	return db.Create(&Fill{ID: newID(), BotID: bot.ID, Mode: 2}).Error // want `handler CloseIfFilled: GORM Create`
}

// SyncAlways creates whatever the read found.
func SyncAlways(ctx context.Context, t *asynq.Task) error { // want SyncAlways:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	for _, symbol := range watched {
		var entity Position
		res := db.Where("symbol = ? AND status = 1", symbol).Take(&entity)
		if res.Error != nil {
			return res.Error
		}
		db.Create(&Position{ID: newID(), Symbol: symbol, Status: 1}) // want `handler SyncAlways: GORM Create`
	}
	return nil
}

// watched are the symbols the service mirrors.
var watched = []string{"BTCUSDT", "ETHUSDT"}

// quantity reads the exchange's position in a symbol.
func quantity(symbol string) float64 {
	resp, err := http.Get("https://exchange.example.com/positions/" + symbol)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	return float64(resp.ContentLength)
}
