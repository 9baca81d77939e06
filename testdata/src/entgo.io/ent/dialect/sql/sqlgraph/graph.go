// Package sqlgraph is a stub of entgo.io/ent/dialect/sql/sqlgraph v0.14.5 for the analyzer
// tests. It declares only the write functions generated builders call, with the real
// signatures; apicheck keeps it in step with the real API.
package sqlgraph

import (
	"context"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// CreateSpec describes one INSERT; OnConflict comes from the builder's OnConflict.
type CreateSpec struct {
	Table      string
	OnConflict []sql.ConflictOption
}

// BatchCreateSpec describes a bulk INSERT.
type BatchCreateSpec struct {
	Nodes      []*CreateSpec
	OnConflict []sql.ConflictOption
}

// UpdateSpec describes an UPDATE.
type UpdateSpec struct{}

// CreateNode inserts one node.
func CreateNode(ctx context.Context, drv dialect.Driver, spec *CreateSpec) error { panic("stub") }

// BatchCreate inserts several nodes.
func BatchCreate(ctx context.Context, drv dialect.Driver, spec *BatchCreateSpec) error {
	panic("stub")
}

// UpdateNode updates one node.
func UpdateNode(ctx context.Context, drv dialect.Driver, spec *UpdateSpec) error { panic("stub") }
