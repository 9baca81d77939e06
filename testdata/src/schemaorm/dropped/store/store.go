// Package store writes rows a unique key turns away on a repeat, and drops or hands on // want package:"has effects"
// the duplicate-key error.
package store

import (
	"database/sql"
	"errors"

	"gorm.io/gorm"

	"schemaorm/db"
)

// Store writes with GORM, or SQL text on a pool.
type Store struct {
	DB  *gorm.DB
	SQL *sql.DB
}

// Signal records the order of a signal when the latest one differs, and drops the
// insert's error where it makes it.
func (s *Store) Signal(ref string) { // want Signal:`effects sql.write:protected\(\(\*gorm.DB\).Create\)\[unique key from params 0\]`
	o := db.Order{ExternalID: ref, Amount: 1}
	s.DB.Create(&o)
}

// AddOrder hands the insert's error to its caller.
func (s *Store) AddOrder(ref string) error { // want AddOrder:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)\[unique key from params 0\]`
	return s.DB.Create(&db.Order{ExternalID: ref}).Error
}

// AddEvent adds an event, whose only key is its id.
func (s *Store) AddEvent(kind string) error { // want AddEvent:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return s.DB.Create(&db.Event{Kind: kind}).Error
}

// AddPlan inserts through the address of a pointer variable, as GORM allows: the same
// table and key.
func (s *Store) AddPlan(ref string) error { // want AddPlan:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)\[unique key from params 0\]`
	entity := &db.Order{ExternalID: ref}
	return s.DB.Create(&entity).Error
}

// Candle records a candle's signal and drops the insert's error where it makes it, as
// Signal does, but reports an error of its own (a lookup before it) to its caller: the
// caller's key decides, and the dropped error stays dropped.
func (s *Store) Candle(ref string) error { // want Candle:`effects sql.write:protected\(\(\*gorm.DB\).Create\)\[unique key from params 0\]`
	if ref == "" {
		return errNoRef
	}
	o := db.Order{ExternalID: ref, Amount: 2}
	s.DB.Create(&o)
	return nil
}

var errNoRef = errors.New("no ref")
