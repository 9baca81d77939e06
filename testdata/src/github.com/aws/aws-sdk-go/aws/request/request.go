// Package request is a stub of github.com/aws/aws-sdk-go/aws/request v1.55.8
// for the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package request

// Request is one service request.
type Request struct{}

// Option changes a request before it is sent.
type Option func(*Request)

// Send sends the request and fills in its output.
func (r *Request) Send() error { panic("stub") }
