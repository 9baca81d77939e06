// Package database holds a service's gorm helpers: two that add an ON CONFLICT clause to // want package:"has effects"
// the inserts their callers chain on the builder they return (one through the other), one
// that adds none, and one that adds it on one branch only.
package database

import (
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// OnConflictUpdate appends ON CONFLICT (key) DO UPDATE to the following insert.
func OnConflictUpdate(db *gorm.DB, key string, updateCols ...string) *gorm.DB { // want OnConflictUpdate:`guards-builder`
	return OnConflictUpdateMulti(db, []string{key}, updateCols...)
}

// OnConflictUpdateMulti appends ON CONFLICT (keys...) to the following insert.
func OnConflictUpdateMulti(db *gorm.DB, keys []string, updateCols ...string) *gorm.DB { // want OnConflictUpdateMulti:`guards-builder`
	cols := make([]clause.Column, len(keys))
	for i, k := range keys {
		cols[i] = clause.Column{Name: k}
	}
	onConflict := clause.OnConflict{Columns: cols, UpdateAll: len(updateCols) > 0}
	if len(updateCols) == 0 {
		onConflict.DoNothing = true
	}
	return db.Clauses(onConflict)
}

// Scoped narrows the builder to a tenant: no conflict clause.
func Scoped(db *gorm.DB, tenant string) *gorm.DB {
	return db.Where("tenant = ?", tenant)
}

// Maybe adds the clause only when asked.
func Maybe(db *gorm.DB, upsert bool) *gorm.DB {
	if upsert {
		return db.Clauses(clause.OnConflict{DoNothing: true})
	}
	return db
}

// Upsert inserts the row itself: it returns the error, not a builder.
func Upsert(db *gorm.DB, row any) error { // want Upsert:`effects sql.write:protected\(\(\*gorm.DB\).Create\)$`
	return db.Clauses(clause.OnConflict{DoNothing: true}).Create(row).Error
}
