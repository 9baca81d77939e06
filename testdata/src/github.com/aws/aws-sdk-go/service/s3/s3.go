// Package s3 is a stub of github.com/aws/aws-sdk-go/service/s3 for the analyzer tests: the
// puts and copies the v1 model names, with the real signatures; apicheck keeps it in step
// with the real API.
package s3

import (
	"io"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
)

// S3 is the S3 client.
type S3 struct{}

// PutObjectInput is an object to store under Key in Bucket.
type PutObjectInput struct {
	Bucket *string
	Key    *string
	Body   io.ReadSeeker
}

// PutObjectOutput is the result of PutObject.
type PutObjectOutput struct {
	ETag *string
}

// PutObject stores an object, replacing what Key held.
func (c *S3) PutObject(input *PutObjectInput) (*PutObjectOutput, error) { panic("stub") }

// PutObjectWithContext is PutObject with a context.
func (c *S3) PutObjectWithContext(ctx aws.Context, input *PutObjectInput, opts ...request.Option) (*PutObjectOutput, error) {
	panic("stub")
}

// CopyObjectInput copies CopySource to Key in Bucket.
type CopyObjectInput struct {
	Bucket     *string
	CopySource *string
	Key        *string
}

// CopyObjectOutput is the result of CopyObject.
type CopyObjectOutput struct{}

// CopyObject copies an object, replacing what Key held.
func (c *S3) CopyObject(input *CopyObjectInput) (*CopyObjectOutput, error) { panic("stub") }

// CopyObjectWithContext is CopyObject with a context.
func (c *S3) CopyObjectWithContext(ctx aws.Context, input *CopyObjectInput, opts ...request.Option) (*CopyObjectOutput, error) {
	panic("stub")
}
