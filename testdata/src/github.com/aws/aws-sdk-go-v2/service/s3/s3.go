// Package s3 is a stub of github.com/aws/aws-sdk-go-v2/service/s3 v1.115.0 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with the real
// signatures; apicheck keeps it in step with the real API.
package s3

import (
	"context"
	"io"
)

// Client is the S3 client.
type Client struct{}

// Options configures a Client.
type Options struct {
	Region string
}

// PutObjectInput is an object to store under Key in Bucket.
type PutObjectInput struct {
	Bucket      *string
	Key         *string
	Body        io.Reader
	ContentType *string
}

// PutObjectOutput is the result of PutObject.
type PutObjectOutput struct {
	ETag *string
}

// PutObject stores an object, replacing what Key held.
func (c *Client) PutObject(ctx context.Context, params *PutObjectInput, optFns ...func(*Options)) (*PutObjectOutput, error) {
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
func (c *Client) CopyObject(ctx context.Context, params *CopyObjectInput, optFns ...func(*Options)) (*CopyObjectOutput, error) {
	panic("stub")
}

// DeleteObjectInput names the object to delete.
type DeleteObjectInput struct {
	Bucket *string
	Key    *string
}

// DeleteObjectOutput is the result of DeleteObject.
type DeleteObjectOutput struct{}

// DeleteObject deletes an object.
func (c *Client) DeleteObject(ctx context.Context, params *DeleteObjectInput, optFns ...func(*Options)) (*DeleteObjectOutput, error) {
	panic("stub")
}
