// Package gcs exercises the Cloud Storage model: objects written under a name from the job // want package:"has effects"
// (a repeat replaces them) and under a fresh name (a new object on every run), and a delete.
package gcs

import (
	"context"
	"fmt"
	"time"

	"cloud.google.com/go/storage"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var client *storage.Client

// WriteByJob writes the job's export under a name the job gives it.
func WriteByJob(ctx context.Context, t *asynq.Task) error {
	w := client.Bucket("exports").Object("exports/" + t.Type()).NewWriter(ctx)
	if _, err := w.Write(t.Payload()); err != nil {
		return err
	}
	return w.Close()
}

// Remove deletes the job's object.
func Remove(ctx context.Context, t *asynq.Task) error {
	return client.Bucket("exports").Object(t.Type()).Delete(ctx)
}

// WriteFresh writes under a new UUID, through a handle kept in a variable: every run adds
// an object.
func WriteFresh(ctx context.Context, t *asynq.Task) error { // want WriteFresh:`effects store.write:unprotected\(\(\*storage.ObjectHandle\).NewWriter\)`
	obj := client.Bucket("exports").Object("uploads/" + uuid.NewString())
	w := obj.NewWriter(ctx) // want `handler WriteFresh: Cloud Storage object write under a new name on every run \(made from uuid.NewString\)`
	if _, err := w.Write(t.Payload()); err != nil {
		return err
	}
	return w.Close()
}

// WriteStamped names the object by the clock: every run adds an object.
func WriteStamped(ctx context.Context, t *asynq.Task) error { // want WriteStamped:`effects store.write:unprotected\(\(\*storage.ObjectHandle\).NewWriter\)`
	w := client.Bucket("exports").Object(fmt.Sprintf("%d.csv", time.Now().Unix())).NewWriter(ctx) // want `handler WriteStamped: Cloud Storage object write under a new name on every run \(made from time.Now\)`
	_, err := w.Write(t.Payload())
	return err
}
