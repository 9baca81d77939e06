// Package s3 exercises the S3 model of the AWS SDK v2: puts and copies under a key from the // want package:"has effects"
// job (a repeat replaces the object), under a fresh key (a new object on every run), through
// the upload manager, and a delete.
package s3

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var (
	client   *s3.Client
	uploader *manager.Uploader
)

// PutByJob stores the job's export under a key the job gives it: a repeat replaces it.
func PutByJob(ctx context.Context, t *asynq.Task) error {
	_, err := client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String("exports"),
		Key:    aws.String("exports/" + t.Type() + ".json"),
		Body:   strings.NewReader(string(t.Payload())),
	})
	return err
}

// PutInVariable builds the input first, keyed by the job: a repeat replaces the object.
func PutInVariable(ctx context.Context, t *asynq.Task) error {
	in := &s3.PutObjectInput{Bucket: aws.String("exports")}
	in.Key = aws.String(t.Type())
	_, err := client.PutObject(ctx, in)
	return err
}

// PutStampedBody writes the clock into the object, under the job's key: only the key names
// the object, so a repeat still replaces it.
func PutStampedBody(ctx context.Context, t *asynq.Task) error {
	_, err := client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String("exports"),
		Key:    aws.String(t.Type()),
		Body:   strings.NewReader(time.Now().String()),
	})
	return err
}

// Remove deletes the job's object: a repeat deletes nothing more.
func Remove(ctx context.Context, t *asynq.Task) error {
	_, err := client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("exports"), Key: aws.String(t.Type())})
	return err
}

// UploadByJob uploads under the job's key through the manager.
func UploadByJob(ctx context.Context, t *asynq.Task) error {
	_, err := uploader.Upload(ctx, &s3.PutObjectInput{Bucket: aws.String("exports"), Key: aws.String(t.Type())})
	return err
}

// PutFresh stores it under a new UUID: every run adds an object.
func PutFresh(ctx context.Context, t *asynq.Task) error { // want PutFresh:`effects store.write:unprotected\(\(\*s3.Client\).PutObject\)`
	key := "uploads/" + uuid.NewString()
	_, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("exports"), Key: aws.String(key)}) // want `handler PutFresh: S3 object put under a new name on every run \(made from uuid.NewString\): a repeat stores another object \(PutFresh -> \(\*s3.Client\).PutObject\); missing: key, enforcement$`
	return err
}

// UploadStamped names it by the clock, through the manager: every run adds an object.
func UploadStamped(ctx context.Context, t *asynq.Task) error { // want UploadStamped:`effects store.write:unprotected\(\(manager.Uploader\).Upload\)`
	in := &s3.PutObjectInput{Bucket: aws.String("exports")}
	in.Key = aws.String(fmt.Sprintf("export-%d.csv", time.Now().UnixNano()))
	_, err := uploader.Upload(ctx, in) // want `handler UploadStamped: S3 object put under a new name on every run \(made from time.Now\)`
	return err
}

// CopyFresh copies the job's object to a new UUID: every run adds a copy.
func CopyFresh(ctx context.Context, t *asynq.Task) error { // want CopyFresh:`effects store.write:unprotected\(\(\*s3.Client\).CopyObject\)`
	_, err := client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String("exports"), CopySource: aws.String(t.Type()), Key: aws.String(uuid.New().String())}) // want `handler CopyFresh: S3 object copy under a new name on every run \(made from uuid.New\)`
	return err
}
