// Package echo is a stub of the part of echo the tests use: a handler's context.
package echo

import "net/http"

// Context is a request's context; an echo handler is func(Context) error.
type Context interface {
	Request() *http.Request
}
