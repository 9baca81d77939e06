// Package fiber is a stub of the part of fiber the tests use: a handler's context.
package fiber

// Ctx is a request's context; a fiber handler is func(*Ctx) error.
type Ctx struct{}

// Body returns the request's body.
func (c *Ctx) Body() []byte { return nil }

// Get returns a request header's value.
func (c *Ctx) Get(key string, defaultValue ...string) string { return "" }
