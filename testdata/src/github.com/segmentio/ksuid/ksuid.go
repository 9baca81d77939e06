// Package ksuid is a stub of github.com/segmentio/ksuid v1.0.4: its constructors make a
// new id on every call.
package ksuid

import "time"

// KSUID is a K-sortable unique identifier.
type KSUID [20]byte

// New returns a new KSUID.
func New() KSUID { panic("stub") }

// NewRandom returns a new KSUID, or the error of the random source.
func NewRandom() (ksuid KSUID, err error) { panic("stub") }

// NewRandomWithTime returns a new KSUID of time t.
func NewRandomWithTime(t time.Time) (ksuid KSUID, err error) { panic("stub") }

// String returns the id's text.
func (i KSUID) String() string { panic("stub") }
