// Package uuid is a stub of github.com/google/uuid v1.6.0; handlers use it
// to make keys, and the linter tells random ones (New) from parsed ones.
package uuid

// UUID is a 128-bit UUID.
type UUID [16]byte

// New returns a random UUID.
func New() UUID { panic("stub") }

// NewString returns a random UUID as a string.
func NewString() string { panic("stub") }

// NewRandom returns a random UUID.
func NewRandom() (UUID, error) { panic("stub") }

// NewV7 returns a time-ordered UUID, different on every call.
func NewV7() (UUID, error) { panic("stub") }

// NewUUID returns a time-based (version 1) UUID, different on every call.
func NewUUID() (UUID, error) { panic("stub") }

// Parse parses s.
func Parse(s string) (UUID, error) { panic("stub") }

// MustParse parses s, panicking on error.
func MustParse(s string) UUID { panic("stub") }

// String returns the canonical text form.
func (uuid UUID) String() string { panic("stub") }
