// Package s3v1 exercises the S3 model of the AWS SDK v1: puts and uploads under a key from // want package:"has effects"
// the job (a repeat replaces the object), and under a fresh key (a new object on every run).
package s3v1

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/s3"
	"github.com/aws/aws-sdk-go/service/s3/s3manager"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var (
	svc      *s3.S3
	uploader *s3manager.Uploader
)

// PutByJob stores the job's export under a key the job gives it: a repeat replaces it.
func PutByJob(ctx context.Context, t *asynq.Task) error {
	_, err := svc.PutObjectWithContext(ctx, &s3.PutObjectInput{Bucket: aws.String("exports"), Key: aws.String(t.Type()), Body: strings.NewReader("x")})
	return err
}

// UploadByJob uploads under the job's key.
func UploadByJob(ctx context.Context, t *asynq.Task) error {
	_, err := uploader.Upload(&s3manager.UploadInput{Bucket: aws.String("exports"), Key: aws.String(t.Type())})
	return err
}

// PutFresh stores it under a new UUID: every run adds an object.
func PutFresh(ctx context.Context, t *asynq.Task) error { // want PutFresh:`effects store.write:unprotected\(\(\*s3.S3\).PutObject\)`
	_, err := svc.PutObject(&s3.PutObjectInput{Bucket: aws.String("exports"), Key: aws.String(uuid.NewString())}) // want `handler PutFresh: S3 object put under a new name on every run \(made from uuid.NewString\)`
	return err
}

// UploadFresh uploads under a new UUID: every run adds an object.
func UploadFresh(ctx context.Context, t *asynq.Task) error { // want UploadFresh:`effects store.write:unprotected\(\(s3manager.Uploader\).UploadWithContext\)`
	name := uuid.NewString() + ".bin"
	_, err := uploader.UploadWithContext(ctx, &s3manager.UploadInput{Bucket: aws.String("exports"), Key: aws.String(name)}) // want `handler UploadFresh: S3 object upload under a new name on every run \(made from uuid.NewString\)`
	return err
}
