// Package mongo exercises the MongoDB model: inserts from a handler. // want package:"has effects"
package mongo

import (
	"context"

	"github.com/hibiken/asynq"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

var events *mongo.Collection

type Event struct {
	OrderID string
}

func Record(ctx context.Context, t *asynq.Task) error { // want Record:`effects store.write:unprotected\(\(\*mongo.Collection\).InsertOne\)`
	_, err := events.InsertOne(ctx, Event{OrderID: t.Type()}) // want `handler Record: MongoDB insert sent with no deduplication \(Record -> \(\*mongo.Collection\).InsertOne\); missing: key, enforcement`
	return err
}

func RecordMany(ctx context.Context, t *asynq.Task) error { // want RecordMany:`effects store.write:unprotected\(\(\*mongo.Collection\).InsertMany\)`
	_, err := events.InsertMany(ctx, []Event{{OrderID: t.Type()}}) // want `handler RecordMany: MongoDB insert sent with no deduplication`
	return err
}

// recordLater is not a handler: unexported and called by none.
func recordLater(ctx context.Context, t *asynq.Task) error {
	_, err := events.InsertOne(ctx, Event{OrderID: t.Type()})
	return err
}

func RecordAudit(ctx context.Context, t *asynq.Task) error {
	//idemlint:ignore store.write -- audit entries may repeat; readers deduplicate by OrderID
	_, err := events.InsertOne(ctx, Event{OrderID: t.Type()})
	return err
}
