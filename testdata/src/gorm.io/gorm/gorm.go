// Package gorm is a stub of gorm.io/gorm v1.31.2 for the analyzer tests. It
// declares only what idemlint's models and test packages use, with the real
// signatures; apicheck keeps it in step with the real API.
package gorm

import (
	"context"
	"database/sql"
	"errors"

	"gorm.io/gorm/clause"
)

// ErrRecordNotFound is the error of First, Take and Last when no row matches.
var ErrRecordNotFound = errors.New("record not found")

// DB is gorm's handle and chainable statement builder.
type DB struct {
	Error        error
	RowsAffected int64
}

// WithContext returns a DB whose statements use ctx.
func (db *DB) WithContext(ctx context.Context) *DB { panic("stub") }

// Clauses adds clauses (clause.OnConflict) to the statement.
func (db *DB) Clauses(conds ...clause.Expression) (tx *DB) { panic("stub") }

// Model names the model of the statement.
func (db *DB) Model(value interface{}) (tx *DB) { panic("stub") }

// Where adds conditions to the statement (query is an SQL fragment with ? placeholders,
// a struct or a map).
func (db *DB) Where(query interface{}, args ...interface{}) (tx *DB) { panic("stub") }

// Table names the table of the statement.
func (db *DB) Table(name string, args ...interface{}) (tx *DB) { panic("stub") }

// Create inserts value.
func (db *DB) Create(value interface{}) (tx *DB) { panic("stub") }

// CreateInBatches inserts value in batches.
func (db *DB) CreateInBatches(value interface{}, batchSize int) (tx *DB) { panic("stub") }

// Find finds every record matching conds into dest.
func (db *DB) Find(dest interface{}, conds ...interface{}) (tx *DB) { panic("stub") }

// First finds the first record matching conds, ordered by primary key, into dest.
func (db *DB) First(dest interface{}, conds ...interface{}) (tx *DB) { panic("stub") }

// Select names the fields a query reads or a write saves.
func (db *DB) Select(query interface{}, args ...interface{}) (tx *DB) { panic("stub") }

// Take finds one record matching conds, in no order, into dest.
func (db *DB) Take(dest interface{}, conds ...interface{}) (tx *DB) { panic("stub") }

// Last finds the last record matching conds, ordered by primary key, into dest.
func (db *DB) Last(dest interface{}, conds ...interface{}) (tx *DB) { panic("stub") }

// Save updates all fields of value by its primary key (inserts it when the key is zero).
func (db *DB) Save(value interface{}) (tx *DB) { panic("stub") }

// FirstOrCreate finds the first match of conds, or creates dest.
func (db *DB) FirstOrCreate(dest interface{}, conds ...interface{}) (tx *DB) { panic("stub") }

// Update updates one column.
func (db *DB) Update(column string, value interface{}) (tx *DB) { panic("stub") }

// Updates updates the columns of a struct or map.
func (db *DB) Updates(values interface{}) (tx *DB) { panic("stub") }

// UpdateColumn updates one column without hooks or time tracking.
func (db *DB) UpdateColumn(column string, value interface{}) (tx *DB) { panic("stub") }

// UpdateColumns updates columns without hooks or time tracking.
func (db *DB) UpdateColumns(values interface{}) (tx *DB) { panic("stub") }

// Expr makes an SQL expression of its text and variables.
func Expr(expr string, args ...interface{}) clause.Expr { panic("stub") }

// Exec runs a raw statement.
func (db *DB) Exec(sql string, values ...interface{}) (tx *DB) { panic("stub") }

// Raw sets a raw query, run by Scan.
func (db *DB) Raw(sql string, values ...interface{}) (tx *DB) { panic("stub") }

// Scan runs the statement and scans the result into dest.
func (db *DB) Scan(dest interface{}) (tx *DB) { panic("stub") }

// Transaction runs fc in a transaction.
func (db *DB) Transaction(fc func(tx *DB) error, opts ...*sql.TxOptions) (err error) {
	panic("stub")
}
