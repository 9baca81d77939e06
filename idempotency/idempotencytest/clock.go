package idempotencytest

import (
	"sync"
	"time"
)

// Clock is a fake idempotency.Clock that moves only when told. Stores that accept a Clock
// take their notion of "now" from it, so a test can expire a lease in an instant.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock set to start, or to the current time if start is zero.
func NewClock(start time.Time) *Clock {
	if start.IsZero() {
		start = time.Now()
	}
	return &Clock{now: start.Truncate(time.Microsecond)}
}

// Now returns the clock's time. It has microsecond precision, as PostgreSQL timestamps do,
// so a time survives a round trip through any store unchanged.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d).Truncate(time.Microsecond)
}
