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

// DeliveryChan returns the receive channel model of a channel type t whose elements (or
// pointers to them) are a modelled delivery type (ReceiveChannels), or nil.
func (c *Entries) DeliveryChan(t types.Type) *ReceiveChannel {
	elem := ChanElem(t)
	if elem == "" {
		return nil
	}
	return c.Index.Delivery(elem)
}

// ChanElem names the element type of a channel type t, through a pointer and a slice
// ("pkg/path.Type" for chan *pkg.Type and chan []pkg.Type, a channel of batches), or "":
// t is no channel, or its element is not a named type (nil t too: not type-checked, a
// package with errors).
func ChanElem(t types.Type) string {
	if t == nil {
		return ""
	}
	ch, ok := types.Unalias(t).Underlying().(*types.Chan)
	if !ok {
		return ""
	}
	elem := types.Unalias(ch.Elem())
	if s, ok := elem.(*types.Slice); ok {
		elem = types.Unalias(s.Elem())
	}
	if p, ok := elem.(*types.Pointer); ok {
		elem = types.Unalias(p.Elem())
	}
	named, ok := elem.(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	return named.Obj().Pkg().Path() + "." + named.Obj().Name()
}
