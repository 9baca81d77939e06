// Package sql is a stub of entgo.io/ent/dialect/sql v0.14.5 for the analyzer tests. It
// declares only the conflict options a generated OnConflict takes, with the real
// signatures; apicheck keeps it in step with the real API.
package sql

// conflict is the ON CONFLICT clause the options configure.
type conflict struct{}

// ConflictOption configures the ON CONFLICT clause of an INSERT.
type ConflictOption func(*conflict)

// ConflictColumns sets the conflict target.
func ConflictColumns(names ...string) ConflictOption { panic("stub") }

// DoNothing resolves a conflict with DO NOTHING.
func DoNothing() ConflictOption { panic("stub") }

// ResolveWithNewValues resolves a conflict by updating to the inserted values.
func ResolveWithNewValues() ConflictOption { panic("stub") }

// Selector is the SELECT builder a predicate narrows.
type Selector struct{}

// FieldEQ returns a predicate that the field equals v.
func FieldEQ(name string, v any) func(*Selector) { panic("stub") }
