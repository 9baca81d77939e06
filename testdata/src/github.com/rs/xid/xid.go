// Package xid is a stub of github.com/rs/xid v1.6.0: a generator of globally unique ids,
// a new one on every call.
package xid

import "time"

// ID is a unique id.
type ID [12]byte

// New returns a new unique id.
func New() ID { panic("stub") }

// NewWithTime returns a new unique id made with the given time.
func NewWithTime(t time.Time) ID { panic("stub") }

// FromString parses an id.
func FromString(id string) (ID, error) { panic("stub") }

// String returns the id's text.
func (id ID) String() string { panic("stub") }
