// Package minio is a stub of github.com/minio/minio-go/v7: the object calls the minio model
// names, and the reads and deletes its test calls beside them.
package minio

import (
	"context"
	"io"
)

// Client is an object-storage client.
type Client struct{}

// Options are the client's options.
type Options struct {
	Secure bool
	Region string
}

// New returns a client of endpoint.
func New(endpoint string, opts *Options) (*Client, error) { return &Client{}, nil }

// PutObjectOptions are a put's options.
type PutObjectOptions struct {
	ContentType string
}

// AppendObjectOptions are an append's options.
type AppendObjectOptions struct {
	ChunkSize uint64
}

// RemoveObjectOptions are a removal's options.
type RemoveObjectOptions struct {
	VersionID string
}

// GetObjectOptions are a read's options.
type GetObjectOptions struct{}

// UploadInfo describes a stored object.
type UploadInfo struct {
	Bucket string
	Key    string
	ETag   string
	Size   int64
}

// Object is an object being read.
type Object struct{}

// PutObject stores reader under objectName, replacing what is there.
func (c *Client) PutObject(ctx context.Context, bucketName, objectName string, reader io.Reader, size int64,
	opts PutObjectOptions,
) (info UploadInfo, err error) {
	return UploadInfo{}, nil
}

// FPutObject stores the file at filePath under objectName.
func (c *Client) FPutObject(ctx context.Context, bucketName, objectName, filePath string, opts PutObjectOptions) (info UploadInfo, err error) {
	return UploadInfo{}, nil
}

// AppendObject appends reader to objectName.
func (c *Client) AppendObject(ctx context.Context, bucketName, objectName string, reader io.Reader, objectSize int64,
	opts AppendObjectOptions,
) (info UploadInfo, err error) {
	return UploadInfo{}, nil
}

// RemoveObject deletes objectName.
func (c *Client) RemoveObject(ctx context.Context, bucketName, objectName string, opts RemoveObjectOptions) error {
	return nil
}

// GetObject reads objectName.
func (c *Client) GetObject(ctx context.Context, bucketName, objectName string, opts GetObjectOptions) (*Object, error) {
	return &Object{}, nil
}
