// Package gin is a stub of the part of gin the tests use: a handler's context.
package gin

import "net/http"

// Context is a request's context; a gin handler is func(*Context).
type Context struct {
	Request *http.Request
}
