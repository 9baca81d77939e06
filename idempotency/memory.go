package idempotency

import (
	"context"
	"hash/maphash"
	"sync"
	"time"
)

// MemoryConfig configures a MemoryStore. The zero value is usable.
type MemoryConfig struct {
	// Capacity bounds the number of records kept (default 1<<20). When the store is full
	// even after dropping expired records, Claim fails with ErrStoreFull rather than evict a
	// live claim or completion marker, which would silently let a duplicate through.
	Capacity int
	// SweepInterval is how often each shard drops expired records (default one minute).
	// Sweeping is done by the calls themselves, so the store needs no goroutine or Close.
	SweepInterval time.Duration
	// Clock tells the time (default the system clock).
	Clock Clock
}

// MemoryStore is a Store in the process's memory: the default store, fit for one process (or
// for tests). Records do not survive a restart and are not shared between processes, so a
// duplicate delivered to another process, or after a restart, is not recognised.
type MemoryStore struct {
	clock      Clock
	sweepEvery time.Duration
	perShard   int
	seed       maphash.Seed
	shards     [memShards]memShard
}

// Sharding keeps workers on different keys off one another's lock.
const memShards = 64

type memShard struct {
	mu        sync.Mutex
	records   map[string]*memRecord
	nextSweep time.Time
	_         [40]byte // keep shards on separate cache lines
}

type memState uint8

const (
	memInProgress memState = iota + 1
	memCompleted
	memReleased
)

type memRecord struct {
	state       memState
	token       Token
	fingerprint []byte
	expires     time.Time
}

func (r *memRecord) live(now time.Time) bool {
	return r.state != memReleased && r.expires.After(now)
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(cfg MemoryConfig) *MemoryStore {
	if cfg.Capacity <= 0 {
		cfg.Capacity = 1 << 20
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = time.Minute
	}
	if cfg.Clock == nil {
		cfg.Clock = systemClock{}
	}
	s := &MemoryStore{
		clock:      cfg.Clock,
		sweepEvery: cfg.SweepInterval,
		perShard:   max(1, (cfg.Capacity+memShards-1)/memShards),
		seed:       maphash.MakeSeed(),
	}
	for i := range s.shards {
		s.shards[i].records = map[string]*memRecord{}
	}
	return s
}

func (s *MemoryStore) shard(key string) *memShard {
	return &s.shards[maphash.String(s.seed, key)%memShards]
}

// lock locks key's shard, sweeping it first when a sweep is due.
func (s *MemoryStore) lock(key string, now time.Time) *memShard {
	sh := s.shard(key)
	sh.mu.Lock()
	if !now.Before(sh.nextSweep) {
		sh.sweep(now)
		sh.nextSweep = now.Add(s.sweepEvery)
	}
	return sh
}

func (sh *memShard) sweep(now time.Time) {
	for k, r := range sh.records {
		if !r.live(now) {
			delete(sh.records, k)
		}
	}
}

// Claim implements Store.
func (s *MemoryStore) Claim(ctx context.Context, req ClaimRequest) (ClaimResult, error) {
	// Like a remote store, refuse work on a cancelled context rather than act unasked.
	if err := ctx.Err(); err != nil {
		return ClaimResult{}, err
	}
	now := s.clock.Now()
	sh := s.lock(req.Key, now)
	defer sh.mu.Unlock()
	r := sh.records[req.Key]
	if r != nil && r.live(now) {
		st := StatusInProgress
		if r.state == memCompleted {
			st = StatusCompleted
		}
		return ClaimResult{Status: st, Token: r.token, Fingerprint: r.fingerprint, ExpiresIn: r.expires.Sub(now)}, nil
	}
	if r == nil {
		if len(sh.records) >= s.perShard {
			sh.sweep(now)
			if len(sh.records) >= s.perShard {
				return ClaimResult{}, ErrStoreFull
			}
		}
		r = &memRecord{}
		sh.records[req.Key] = r
	}
	// Reusing an expired or released record keeps its epoch to count on from.
	*r = memRecord{
		state:       memInProgress,
		token:       Token{Owner: req.Owner, Epoch: nextEpoch(r.token.Epoch, now)},
		fingerprint: req.Fingerprint,
		expires:     now.Add(req.Lease),
	}
	return ClaimResult{Status: StatusClaimed, Token: r.token, ExpiresIn: req.Lease}, nil
}

// nextEpoch is a hybrid logical clock: past every epoch the key had, and at least the clock
// in microseconds, so epochs keep growing even after a record was swept and forgotten.
func nextEpoch(prev int64, now time.Time) int64 {
	return max(prev+1, now.UnixMicro())
}

// held returns key's record if token holds it, with its shard locked; the caller unlocks.
func (s *MemoryStore) held(key string, token Token, now time.Time) (*memShard, *memRecord) {
	sh := s.lock(key, now)
	r := sh.records[key]
	if r == nil || r.token != token {
		return sh, nil
	}
	return sh, r
}

// Renew implements Store.
func (s *MemoryStore) Renew(ctx context.Context, key string, token Token, lease time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.clock.Now()
	sh, r := s.held(key, token, now)
	defer sh.mu.Unlock()
	if r == nil || r.state != memInProgress {
		return ErrConflict
	}
	r.expires = now.Add(lease)
	return nil
}

// Complete implements Store.
func (s *MemoryStore) Complete(ctx context.Context, key string, token Token, retention time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.clock.Now()
	sh, r := s.held(key, token, now)
	defer sh.mu.Unlock()
	if r == nil || r.state == memReleased {
		return ErrConflict
	}
	r.state = memCompleted
	r.expires = now.Add(retention)
	return nil
}

// Release implements Store.
func (s *MemoryStore) Release(ctx context.Context, key string, token Token) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.clock.Now()
	sh, r := s.held(key, token, now)
	defer sh.mu.Unlock()
	if r == nil || r.state == memCompleted {
		return ErrConflict
	}
	r.state = memReleased
	r.expires = now
	return nil
}

// Len returns the number of records kept, expired ones not yet swept included.
func (s *MemoryStore) Len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += len(sh.records)
		sh.mu.Unlock()
	}
	return n
}
