package model

import "go/types"

// Entries caches an Index's lookups for one package's analysis: every stage asks about the
// same callees, and Lookup formats a full name each time.
type Entries struct {
	Index *Index
	cache map[*types.Func]*Entry
	// receiveMethods are the receive calls that are methods, by method name, built on the
	// first ReceiveMethods call (receives.go).
	receiveMethods map[string][]string
}

// NewEntries returns an empty cache over ix.
func NewEntries(ix *Index) *Entries {
	return &Entries{Index: ix, cache: map[*types.Func]*Entry{}}
}

// Of returns what the models say about fn, looked up once.
func (c *Entries) Of(fn *types.Func) *Entry {
	e, ok := c.cache[fn]
	if !ok {
		e = c.Index.Lookup(fn)
		c.cache[fn] = e
	}
	return e
}
