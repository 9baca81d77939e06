// Package aws is a stub of github.com/aws/aws-sdk-go-v2/aws v1.48.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package aws

// Config is the shared configuration of the service clients.
type Config struct {
	Region string
}

// String returns a pointer to v.
func String(v string) *string { return &v }
