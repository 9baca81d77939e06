// Package s3manager is a stub of github.com/aws/aws-sdk-go/service/s3/s3manager for the
// analyzer tests: the uploader the v1 model names, with the real signatures; apicheck keeps
// it in step with the real API.
package s3manager

import (
	"io"

	"github.com/aws/aws-sdk-go/aws"
)

// Uploader uploads objects to S3 in parts.
type Uploader struct {
	PartSize int64
}

// UploadInput is an object to store under Key in Bucket.
type UploadInput struct {
	Bucket *string
	Key    *string
	Body   io.Reader
}

// UploadOutput is the result of Upload.
type UploadOutput struct {
	Location string
}

// Upload stores input's object, replacing what its Key held.
func (u Uploader) Upload(input *UploadInput, options ...func(*Uploader)) (*UploadOutput, error) {
	panic("stub")
}

// UploadWithContext is Upload with a context.
func (u Uploader) UploadWithContext(ctx aws.Context, input *UploadInput, opts ...func(*Uploader)) (*UploadOutput, error) {
	panic("stub")
}
