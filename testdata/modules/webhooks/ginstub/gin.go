// Package gin is a stub of a gin handler's context.
package gin

import "net/http"

// Context is a request's context.
type Context struct{ Request *http.Request }
