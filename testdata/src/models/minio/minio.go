// Package minio exercises the minio-go model: puts under a name from the job (a repeat // want package:"has effects"
// replaces the object), under a fresh name (a new object on every run), and appends.
package minio

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/minio/minio-go/v7"
)

var client *minio.Client

// PutByJob stores the job's export under a name the job gives it: a repeat replaces it.
func PutByJob(ctx context.Context, t *asynq.Task) error {
	_, err := client.PutObject(ctx, "exports", "export-"+t.Type()+".json", strings.NewReader(string(t.Payload())), -1, minio.PutObjectOptions{ContentType: "application/json"})
	return err
}

// PutConstant overwrites one object: a repeat writes the same thing again.
func PutConstant(ctx context.Context, t *asynq.Task) error {
	_, err := client.FPutObject(ctx, "reports", "daily/latest.csv", "/tmp/report.csv", minio.PutObjectOptions{})
	return err
}

// Remove deletes the job's object, and reads another: neither is an effect.
func Remove(ctx context.Context, t *asynq.Task) error {
	if _, err := client.GetObject(ctx, "exports", t.Type(), minio.GetObjectOptions{}); err != nil {
		return err
	}
	return client.RemoveObject(ctx, "exports", "export-"+t.Type()+".json", minio.RemoveObjectOptions{})
}

// PutFresh stores it under a new UUID: every run adds an object.
func PutFresh(ctx context.Context, t *asynq.Task) error { // want PutFresh:`effects store.write:unprotected\(\(\*minio.Client\).PutObject\)`
	name := "uploads/" + uuid.New().String()
	_, err := client.PutObject(ctx, "exports", name, strings.NewReader(string(t.Payload())), -1, minio.PutObjectOptions{}) // want `handler PutFresh: MinIO object put under a new name on every run \(made from uuid.New\): a repeat stores another object \(PutFresh -> \(\*minio.Client\).PutObject\); missing: key, enforcement$`
	return err
}

// PutStamped names it by the clock: every run adds an object.
func PutStamped(ctx context.Context, t *asynq.Task) error { // want PutStamped:`effects store.write:unprotected\(\(\*minio.Client\).FPutObject\)`
	_, err := client.FPutObject(ctx, "exports", fmt.Sprintf("export-%d.csv", time.Now().UnixNano()), "/tmp/export.csv", minio.PutObjectOptions{}) // want `handler PutStamped: MinIO object put under a new name on every run \(made from time.Now\)`
	return err
}

// Append adds to the object on every run.
func Append(ctx context.Context, t *asynq.Task) error { // want Append:`effects store.write:unprotected\(\(\*minio.Client\).AppendObject\)`
	_, err := client.AppendObject(ctx, "logs", "jobs.log", strings.NewReader(t.Type()+"\n"), -1, minio.AppendObjectOptions{}) // want `handler Append: MinIO object append sent with no deduplication`
	return err
}
