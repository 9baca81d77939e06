// Package store is a tag store: lookups of what is linked, and writes. // want package:"has effects"
package store

import (
	"context"
	"database/sql"
	"log"
)

// Store keeps tags and a cache in SQL.
type Store struct{ db *sql.DB }

// CacheExists says whether a row is cached under key.
func (s *Store) CacheExists(ctx context.Context, key string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM cache WHERE key = $1", key).Scan(&n)
	return n > 0, err
}

// Cache writes value under key: an insert when the key is not there, else an update (a
// hand-written upsert).
func (s *Store) Cache(ctx context.Context, key, value string) error { // want Cache:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	ok, err := s.CacheExists(ctx, key)
	if err != nil {
		return err
	}
	if !ok {
		_, err = s.db.ExecContext(ctx, "INSERT INTO cache (key, value) VALUES ($1, $2)", key, value)
	} else {
		_, err = s.db.ExecContext(ctx, "UPDATE cache SET value = $2 WHERE key = $1", key, value)
	}
	return err
}

// CacheBlind inserts whatever the check said: a repeat inserts again.
func (s *Store) CacheBlind(ctx context.Context, key, value string) error { // want CacheBlind:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	ok, _ := s.CacheExists(ctx, key)
	if ok {
		log.Printf("%s cached", key)
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO cache (key, value) VALUES ($1, $2)", key, value)
	return err
}

// ListTags returns the tags linked to a bookmark.
func (s *Store) ListTags(ctx context.Context, bookmarkID string) ([]string, error) {
	return nil, nil
}

// LinkTags links tags to a bookmark.
func (s *Store) LinkTags(ctx context.Context, bookmarkID string, tags []string) error { // want LinkTags:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := s.db.ExecContext(ctx, "INSERT INTO bookmark_tags (bookmark_id, tag) SELECT $1, unnest($2::text[])", bookmarkID, tags)
	return err
}
