package model

import "strings"

// InMiddleware reports whether path is the runtime middleware's package or one of its
// adapters: their calls wrap handlers, and their own store writes are their users'
// protection, not effects.
func InMiddleware(path string) bool {
	return path == MiddlewarePath || strings.HasPrefix(path, MiddlewarePath+"/")
}

// WrapsHandlers reports whether a call into the package at path hands a function it is
// given to the middleware as a handler: every runtime package but the outbox, whose
// function values (a relay's Publisher) publish messages and are no handlers.
func WrapsHandlers(path string) bool {
	return InMiddleware(path) && path != MiddlewarePath+"/outbox"
}
