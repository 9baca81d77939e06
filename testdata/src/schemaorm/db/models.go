// Package db holds the models its service writes with GORM and bun: their tags are the // want package:"has effects"
// schema (no migration declares these tables).
package db

import (
	"github.com/uptrace/bun"
	"gorm.io/gorm"
)

// Order is keyed by the external id the job carries.
type Order struct {
	gorm.Model
	ExternalID string `gorm:"uniqueIndex"`
	Amount     int64
}

// Event has no key besides its auto-incremented id.
type Event struct {
	ID   uint
	Kind string `gorm:"size:64"`
}

// Payment's primary key is the provider's reference, which the code sets.
type Payment struct {
	Ref    string `gorm:"primaryKey"`
	Amount int64
}

// Delivery is keyed by the event it delivers.
type Delivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`
	ID            int64  `bun:",pk,autoincrement"`
	EventID       string `bun:",unique"`
}

// Notice has no key besides its id.
type Notice struct {
	bun.BaseModel
	ID   int64 `bun:",pk,autoincrement"`
	Body string
}

// Strategy is an indicator's signal, keyed by its symbol, indicator and candle.
type Strategy struct {
	ID        string `gorm:"size:20;primaryKey"`
	Symbol    string `gorm:"size:20;not null;uniqueIndex:unq_strategies"`
	Indicator string `gorm:"size:30;not null;uniqueIndex:unq_strategies"`
	Timestamp int64  `gorm:"not null;uniqueIndex:unq_strategies"`
	Signal    int
}
