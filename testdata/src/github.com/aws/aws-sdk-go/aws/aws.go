// Package aws is a stub of github.com/aws/aws-sdk-go/aws v1.55.8 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package aws

import "context"

// Context is the context the WithContext methods take.
type Context = context.Context

// String returns a pointer to v.
func String(v string) *string { return &v }

// Int64 returns a pointer to v.
func Int64(v int64) *int64 { return &v }
