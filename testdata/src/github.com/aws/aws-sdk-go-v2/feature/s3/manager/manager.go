// Package manager is a stub of github.com/aws/aws-sdk-go-v2/feature/s3/manager v1.23.26 for
// the analyzer tests: the uploader the S3 model names, with the real signatures; apicheck
// keeps it in step with the real API.
package manager

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Uploader uploads objects to S3 in parts.
type Uploader struct {
	PartSize int64
}

// UploadOutput is the result of Upload.
type UploadOutput struct {
	Location string
}

// Upload stores input's object, replacing what its Key held.
func (u Uploader) Upload(ctx context.Context, input *s3.PutObjectInput, opts ...func(*Uploader)) (*UploadOutput, error) {
	panic("stub")
}
