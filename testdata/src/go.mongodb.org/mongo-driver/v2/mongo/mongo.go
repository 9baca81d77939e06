// Package mongo is a stub of go.mongodb.org/mongo-driver/v2/mongo v2.10.0 for
// the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package mongo

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Collection is a MongoDB collection.
type Collection struct{}

// InsertOneResult is the result of InsertOne.
type InsertOneResult struct {
	InsertedID any
}

// InsertManyResult is the result of InsertMany.
type InsertManyResult struct {
	InsertedIDs []any
}

// InsertOne inserts a document.
func (coll *Collection) InsertOne(ctx context.Context, document any, opts ...options.Lister[options.InsertOneOptions]) (*InsertOneResult, error) {
	panic("stub")
}

// InsertMany inserts documents.
func (coll *Collection) InsertMany(ctx context.Context, documents any, opts ...options.Lister[options.InsertManyOptions]) (*InsertManyResult, error) {
	panic("stub")
}
