// Package uuid is a stub of github.com/gofrs/uuid/v5 v5.3.2: its generators make a new
// UUID on every call.
package uuid

// UUID is a 128-bit UUID.
type UUID [16]byte

// NewV1 returns a time-based UUID.
func NewV1() (UUID, error) { panic("stub") }

// NewV4 returns a random UUID.
func NewV4() (UUID, error) { panic("stub") }

// NewV6 returns a reordered time-based UUID.
func NewV6() (UUID, error) { panic("stub") }

// NewV7 returns a time-ordered UUID.
func NewV7() (UUID, error) { panic("stub") }

// String returns the canonical text form.
func (u UUID) String() string { panic("stub") }
