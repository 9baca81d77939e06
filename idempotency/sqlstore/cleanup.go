package sqlstore

import (
	"context"
	"fmt"
	"time"
)

// DeleteAllExpired deletes every expired row, batch rows per statement so that no statement
// holds many locks or a long write, and returns how many it deleted.
func (s *Store) DeleteAllExpired(ctx context.Context, batch int) (int64, error) {
	var total int64
	for {
		n, err := s.DeleteExpired(ctx, batch)
		total += n
		if err != nil || n < int64(batch) {
			return total, err
		}
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
}

// RunCleanup deletes expired rows (DeleteAllExpired, in batches of batch) every interval
// until ctx ends, and returns ctx's error then. Run it in one goroutine of any one worker (or
// several: the deletes never touch a live row, so concurrent cleanups only repeat work).
// onError, if not nil, hears about each failed round; the next round tries again.
//
//	go store.RunCleanup(ctx, time.Hour, 1000, func(err error) { log.Print(err) })
func (s *Store) RunCleanup(ctx context.Context, interval time.Duration, batch int, onError func(error)) error {
	if interval <= 0 || batch <= 0 {
		return fmt.Errorf("sqlstore: RunCleanup: interval %s and batch %d must be positive", interval, batch)
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if _, err := s.DeleteAllExpired(ctx, batch); err != nil && ctx.Err() == nil && onError != nil {
			onError(err)
		}
	}
}
