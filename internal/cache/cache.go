// Package cache is idemlint's result cache: entries addressed by a key (the hash of
// everything that can change what they hold), kept in a directory as the go command keeps
// its build cache.
//
// The cache is an optimisation, never a source of truth. Every entry is written to a
// temporary file and renamed into place, so a reader sees a whole entry or none; and every
// entry carries a format version, its key, its length and a checksum of its data, so an
// entry that is corrupt, truncated, from another format version or for another key reads
// as a miss and is recomputed. Two processes that write the same entry at once each rename
// a complete file; the last rename wins and both files are valid.
//
// Entries not used for five days are trimmed, as the go command trims its build cache.
//
// Where it lives follows the Go tools: $IDEMLINT_CACHE if set ("off" turns caching off),
// else idemlint under os.UserCacheDir().
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// EnvVar names the environment variable that places the cache or turns it off.
const EnvVar = "IDEMLINT_CACHE"

// Off is the value of EnvVar (and of the -cache flag) that turns caching off.
const Off = "off"

// formatVersion changes whenever the layout of an entry or the meaning of what drivers
// store changes, so that entries of an older idemlint are never read as current.
const formatVersion = 1

// magic starts every entry file.
var magic = []byte("idemlint-cache\x00")

// headerSize is the magic, the format version (4 bytes), the key, the data's length (8
// bytes) and its SHA-256.
var headerSize = len(magic) + 4 + KeySize + 8 + sha256.Size

// KeySize is the size of a key in bytes.
const KeySize = sha256.Size

// Key addresses an entry: a SHA-256 of the entry's inputs (see Hasher).
type Key [KeySize]byte

// String is the key in hex, as entry files are named.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Cache is an open cache directory. Its methods are safe for concurrent use, and several
// processes may share one directory.
type Cache struct {
	dir string
}

// Open opens (creating it if needed) the cache in dir.
func Open(dir string) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("cache: no directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o777); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	if err := writeReadme(abs); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &Cache{dir: abs}, nil
}

// writeReadme leaves a note in the directory, as the go command does, so that whoever
// finds it knows it can be deleted.
func writeReadme(dir string) error {
	name := filepath.Join(dir, "README")
	if _, err := os.Stat(name); err == nil {
		return nil
	}
	note := "This directory holds cached idemlint results. It can be deleted at any time\n(idemlint cache clean does so); idemlint recomputes what is missing.\n"
	return writeAtomic(dir, name, []byte(note))
}

// DefaultDir is where the cache lives: $IDEMLINT_CACHE, else idemlint under the user's
// cache directory. off is true when caching is turned off ($IDEMLINT_CACHE=off, or no
// cache directory can be found: then err says why).
func DefaultDir() (dir string, off bool, err error) {
	if v := os.Getenv(EnvVar); v != "" {
		if v == Off {
			return "", true, nil
		}
		return v, false, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", true, fmt.Errorf("no cache directory (%v): set %s to one, or to off", err, EnvVar)
	}
	return filepath.Join(base, "idemlint"), false, nil
}

// path is where the entry of key is stored: a subdirectory per first byte, as the go
// command's build cache, to keep directories small.
func (c *Cache) path(k Key) string {
	s := k.String()
	return filepath.Join(c.dir, s[:2], s+"-d")
}

// Get returns the data stored under key, or ok false when there is none or the entry is
// not whole and valid (corrupt, truncated, another format version, another key). An entry
// read is marked used (its modification time, at most once an hour), so that Trim keeps it.
func (c *Cache) Get(k Key) (data []byte, ok bool) {
	name := c.path(k)
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	data, ok = decode(k, raw)
	if ok {
		if st, err := os.Stat(name); err == nil && time.Since(st.ModTime()) > markInterval {
			now := time.Now()
			os.Chtimes(name, now, now) // a failure only means the entry may be trimmed early
		}
	}
	return data, ok
}

// Has reports whether an entry of key is stored, whole by its length (its checksum is
// checked when it is read): to skip writing what another run wrote, without reading it.
func (c *Cache) Has(k Key) bool {
	f, err := os.Open(c.path(k))
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	head := make([]byte, headerSize)
	if err != nil || st.Size() < int64(headerSize) {
		return false
	}
	if _, err := io.ReadFull(f, head); err != nil {
		return false
	}
	n := binary.BigEndian.Uint64(head[len(magic)+4+KeySize:])
	return bytes.Equal(head[:len(magic)], magic) && bytes.Equal(head[len(magic)+4:len(magic)+4+KeySize], k[:]) &&
		uint64(st.Size()) == uint64(headerSize)+n
}

// Remove deletes the entry of key, found damaged by its reader: the next run writes it
// again instead of finding it there.
func (c *Cache) Remove(k Key) { os.Remove(c.path(k)) }

// decode checks an entry file and returns its data.
func decode(k Key, raw []byte) ([]byte, bool) {
	if len(raw) < headerSize || !bytes.Equal(raw[:len(magic)], magic) {
		return nil, false
	}
	h := raw[len(magic):]
	if binary.BigEndian.Uint32(h) != formatVersion {
		return nil, false
	}
	h = h[4:]
	if !bytes.Equal(h[:KeySize], k[:]) {
		return nil, false
	}
	h = h[KeySize:]
	n := binary.BigEndian.Uint64(h)
	h = h[8:]
	sum := h[:sha256.Size]
	data := h[sha256.Size:]
	if uint64(len(data)) != n {
		return nil, false
	}
	got := sha256.Sum256(data)
	if !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return data, true
}

// encode makes the entry file of data under key.
func encode(k Key, data []byte) []byte {
	out := make([]byte, 0, headerSize+len(data))
	out = append(out, magic...)
	out = binary.BigEndian.AppendUint32(out, formatVersion)
	out = append(out, k[:]...)
	out = binary.BigEndian.AppendUint64(out, uint64(len(data)))
	sum := sha256.Sum256(data)
	out = append(out, sum[:]...)
	return append(out, data...)
}

// Put stores data under key, replacing what was there. The entry appears whole or not at
// all: it is written to a temporary file in the same directory and renamed.
func (c *Cache) Put(k Key, data []byte) error {
	name := c.path(k)
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err := writeAtomic(dir, name, encode(k, data)); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// writeAtomic writes data to a temporary file in dir and renames it to name.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Entries not used for trimAge are removed, by a trim at most once per trimInterval; an
// entry read is marked used at most once per markInterval (the go command's build cache
// keeps the same habits), so that a cache kept between CI runs does not grow forever.
const (
	trimAge      = 5 * 24 * time.Hour
	trimInterval = 24 * time.Hour
	markInterval = time.Hour
)

// Trim removes the entries not used for five days, unless the cache was trimmed in the
// last day. Errors are ignored: a trim is housekeeping, and another process may be
// trimming the same directory.
func (c *Cache) Trim() {
	stamp := filepath.Join(c.dir, "trim.txt")
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < trimInterval {
		return
	}
	writeAtomic(c.dir, stamp, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"))
	subdirs, _ := os.ReadDir(c.dir)
	cutoff := time.Now().Add(-trimAge)
	for _, d := range subdirs {
		if !d.IsDir() || len(d.Name()) != 2 {
			continue
		}
		sub := filepath.Join(c.dir, d.Name())
		files, _ := os.ReadDir(sub)
		for _, f := range files {
			if info, err := f.Info(); err == nil && info.ModTime().Before(cutoff) {
				os.Remove(filepath.Join(sub, f.Name()))
			}
		}
	}
}

// Clean removes every entry (and leftover temporary file) from the cache directory, and
// the directory itself when nothing else is in it.
func Clean(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		// Only what this package writes: a directory holding nothing else can be removed.
		if (e.IsDir() && len(name) == 2) || name == "README" || name == "trim.txt" || strings.HasPrefix(name, ".tmp-") {
			errs = append(errs, os.RemoveAll(filepath.Join(dir, name)))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	os.Remove(dir) // fails, harmlessly, when other files remain
	return nil
}

// Hasher builds a key from the inputs of an entry. Each value written is framed (a tag and
// a length), so that ("ab", "c") and ("a", "bc") give different keys.
type Hasher struct {
	h hash.Hash
}

// NewHasher starts a key for entries of the given kind ("run", "package", ...).
func NewHasher(kind string) *Hasher {
	h := &Hasher{h: sha256.New()}
	h.String("idemlint cache kind", kind)
	return h
}

// String adds a named string.
func (h *Hasher) String(name, value string) {
	h.Bytes(name, []byte(value))
}

// Bytes adds named bytes.
func (h *Hasher) Bytes(name string, value []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(name)))
	h.h.Write(n[:])
	h.h.Write([]byte(name))
	binary.BigEndian.PutUint64(n[:], uint64(len(value)))
	h.h.Write(n[:])
	h.h.Write(value)
}

// Key adds another key.
func (h *Hasher) Key(name string, k Key) { h.Bytes(name, k[:]) }

// Sum returns the key.
func (h *Hasher) Sum() Key {
	var k Key
	h.h.Sum(k[:0])
	return k
}
