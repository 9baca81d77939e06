// Package aws stands in for github.com/aws/aws-sdk-go-v2/aws's String (see recipestub).
package aws

// String returns a pointer to s.
func String(s string) *string { return &s }
