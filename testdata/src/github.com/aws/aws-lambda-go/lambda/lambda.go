// Package lambda is a stub of github.com/aws/aws-lambda-go/lambda v1.55.1 for
// the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package lambda

import "context"

type handlerOptions struct{}

// Option configures the handler.
type Option func(*handlerOptions)

// Start runs handler as the function's handler.
func Start(handler interface{}) { panic("stub") }

// StartWithOptions runs handler as the function's handler.
func StartWithOptions(handler interface{}, options ...Option) { panic("stub") }

// StartWithContext runs handler with ctx as its base context.
func StartWithContext(ctx context.Context, handler interface{}) { panic("stub") }

// StartHandler runs a Handler.
func StartHandler(handler Handler) { panic("stub") }

// StartHandlerWithContext runs a Handler with ctx as its base context.
func StartHandlerWithContext(ctx context.Context, handler Handler) { panic("stub") }

// NewHandler makes a Handler of a handler function.
func NewHandler(handlerFunc interface{}) Handler { panic("stub") }

// Handler is implemented by a type whose Invoke is called with each event's raw payload.
type Handler interface {
	Invoke(ctx context.Context, payload []byte) ([]byte, error)
}
