// Package schema is a stub of bun's schema package: the model base a bun model embeds.
package schema

// BaseModel, embedded in a model, carries its table: tag (bun:"table:orders,alias:o").
type BaseModel struct{}
