// Package gonanoid is a stub of github.com/matoous/go-nanoid/v2 v2.1.0: every generator
// makes a new id on every call.
package gonanoid

// New returns a new random id of the given length (21 by default).
func New(l ...int) (string, error) { panic("stub") }

// Generate returns a new random id of size characters from alphabet.
func Generate(alphabet string, size int) (string, error) { panic("stub") }

// Must is New, panicking on error.
func Must(l ...int) string { panic("stub") }

// MustGenerate is Generate, panicking on error.
func MustGenerate(alphabet string, size int) string { panic("stub") }
