// Package store reads and reclaims the entries of a consumer group for the package that // want package:"has effects"
// handles them: its helpers return what running the command gave.
package store

import (
	"context"

	"github.com/redis/rueidis"
)

type Store struct{ rdb rueidis.Client }

// ClaimStale reclaims the entries pending longer than a minute.
func (s *Store) ClaimStale(ctx context.Context, consumer string) ([]rueidis.XRangeEntry, error) { // want ClaimStale:`receives\(github.com/redis/rueidis\)`
	cmd := s.rdb.B().Xautoclaim().Key("jobs").Group("workers").Consumer(consumer).MinIdleTime("60000").Start("0-0").Build()
	arr, err := s.rdb.Do(ctx, cmd).ToArray()
	if err != nil || len(arr) < 2 {
		return nil, err
	}
	entries, err := arr[1].AsXRange()
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// Client returns the client the worker reads new entries with.
func (s *Store) Client() rueidis.Client { return s.rdb }
