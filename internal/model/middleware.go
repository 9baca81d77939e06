package model

import "strings"

// InMiddleware reports whether path is the runtime middleware's package or one of its
// adapters: their calls wrap handlers, and their own store writes are their users'
// protection, not effects.
func InMiddleware(path string) bool {
	return path == MiddlewarePath || strings.HasPrefix(path, MiddlewarePath+"/")
}
