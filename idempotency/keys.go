package idempotency

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

// Key builds a key from its parts, such as an operation name and a business ID:
//
//	func(j ChargeJob) (string, error) { return idempotency.Key("charge", j.PaymentAttemptID) }
//
// An empty part makes it fail with an *EmptyKeyPartError, which the middleware handles like an
// empty key (WithEmptyKey), so "charge" and an empty ID can never pass for a key. Parts are
// joined unambiguously: no two lists of parts give the same key. The parts are joined with
// ':', and a ':' or '\' inside a part is escaped with a '\' (a single part too), so
// Key("a:b", "c"), Key("a", "b:c") and Key("a:b:c") differ; a part without either is written
// as it is (Key("charge", "pa_1") is "charge:pa_1").
func Key(parts ...string) (string, error) {
	if len(parts) == 0 {
		return "", &EmptyKeyPartError{Index: -1}
	}
	n, plain := len(parts)-1, true
	for i, p := range parts {
		if p == "" {
			return "", &EmptyKeyPartError{Index: i}
		}
		n += len(p)
		if plain && strings.ContainsAny(p, `:\`) {
			plain = false
		}
	}
	if len(parts) == 1 && plain {
		return parts[0], nil // the common one-part key, without an allocation
	}
	var b strings.Builder
	b.Grow(n + 8)
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(':')
		}
		for j := range len(p) {
			// Escaping the separator and the escape itself makes the join reversible: read
			// left to right, a '\' takes the next byte as it is, and a bare ':' ends a part.
			if c := p[j]; c == ':' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(p[j])
		}
	}
	return b.String(), nil
}

// EmptyKeyPartError is returned by Key when a part is empty. It matches ErrEmptyKey.
type EmptyKeyPartError struct {
	// Index of the empty part; -1 when there were no parts.
	Index int
}

func (e *EmptyKeyPartError) Error() string {
	if e.Index < 0 {
		return "idempotency: a key needs at least one part"
	}
	return fmt.Sprintf("idempotency: key part %d is empty", e.Index)
}

// Is makes errors.Is(err, ErrEmptyKey) true.
func (e *EmptyKeyPartError) Is(target error) bool { return target == ErrEmptyKey }

// StoreKey is what the middleware stores for key when its handler is namespace (WithName,
// or by default the job's Go type; with WithService, Key(service, handler)): the hex SHA-256
// of both. Hashing gives every store a
// fixed-size, printable key whatever the key holds (NUL, invalid UTF-8, a megabyte), keeps
// personal data out of the store, and, with the namespace, keeps two handlers that use the
// same business ID apart. Use it to find or forget a key's record (see Inspect), or to
// migrate records written before keys were hashed (docs/runtime.md).
func StoreKey(namespace, key string) string {
	// Short inputs are hashed from a stack buffer: no allocation but the result.
	var buf [256]byte
	b := binary.AppendUvarint(buf[:0], uint64(len(namespace)))
	b = append(b, namespace...)
	b = append(b, key...)
	sum := sha256.Sum256(b)
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], sum[:])
	return string(out[:]) // one allocation (EncodeToString makes two)
}

// The functions a KeyError names.
const (
	stageKey         = "key"
	stageFingerprint = "fingerprint"
)

// KeyError is returned, without running the handler, when the key function or the
// fingerprint function fails: the job cannot be identified, and a retry of the same payload
// fails the same way, so it is permanent (outcome "key_error").
type KeyError struct {
	// Func is "key" or "fingerprint".
	Func string
	Err  error
}

func (e *KeyError) Error() string {
	return fmt.Sprintf("idempotency: %s function: %v; the job was not run", e.Func, e.Err)
}
func (e *KeyError) Unwrap() error { return e.Err }
func (e *KeyError) permanent()    {}
