// Package ulid is a stub of github.com/oklog/ulid/v2 v2.1.2: its constructors make a new
// id on every call.
package ulid

import (
	"io"
	"time"
)

// ULID is a universally unique lexicographically sortable identifier.
type ULID [16]byte

// Make returns a new ULID of the current time, from the default entropy source.
func Make() (id ULID) { panic("stub") }

// New returns a new ULID of the time ms, from entropy.
func New(ms uint64, entropy io.Reader) (id ULID, err error) { panic("stub") }

// MustNew is New, panicking on error.
func MustNew(ms uint64, entropy io.Reader) ULID { panic("stub") }

// MustNewDefault returns a new ULID of time t, from the default entropy source.
func MustNewDefault(t time.Time) ULID { panic("stub") }

// String returns the id's text.
func (id ULID) String() string { panic("stub") }
