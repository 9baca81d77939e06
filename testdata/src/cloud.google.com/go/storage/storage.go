// Package storage is a stub of cloud.google.com/go/storage v1.71.0 for the analyzer tests:
// the handles and writer the GCS model names, with the real signatures; apicheck keeps it in
// step with the real API.
package storage

import "context"

// Client is a Cloud Storage client.
type Client struct{}

// BucketHandle names a bucket.
type BucketHandle struct{}

// ObjectHandle names an object in a bucket.
type ObjectHandle struct{}

// Writer writes an object; Close stores it, replacing what the name held.
type Writer struct{}

// Bucket returns a handle of the bucket name.
func (c *Client) Bucket(name string) *BucketHandle { panic("stub") }

// Object returns a handle of the object name.
func (b *BucketHandle) Object(name string) *ObjectHandle { panic("stub") }

// NewWriter returns a writer that stores the object when closed.
func (o *ObjectHandle) NewWriter(ctx context.Context) *Writer { panic("stub") }

// Delete deletes the object.
func (o *ObjectHandle) Delete(ctx context.Context) (err error) { panic("stub") }

// Write writes to the object.
func (w *Writer) Write(p []byte) (int, error) { panic("stub") }

// Close stores the object.
func (w *Writer) Close() error { panic("stub") }
