package idempotency

import (
	"context"
	"fmt"
	"hash/maphash"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
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
	// MeterProvider is where the store's gauges are registered, MetricMemoryRecords and
	// MetricMemoryUtilization (default otel.GetMeterProvider(); a middleware's own store uses
	// the middleware's). Reading them also sweeps the shards whose sweep is due, so a store
	// that no claim reaches still drops its expired records on the reader's schedule.
	MeterProvider metric.MeterProvider
	// Name is the gauges' "store" attribute, to tell stores apart (default none; a
	// middleware's own store is named after its handler).
	Name string
}

// MemoryStore is a Store in the process's memory: the default store, fit for one process (or
// for tests). Records do not survive a restart and are not shared between processes, so a
// duplicate delivered to another process, or after a restart, is not recognised.
type MemoryStore struct {
	clock      Clock
	sweepEvery time.Duration
	capacity   int64
	seed       maphash.Seed
	// records counts the records of every shard: Capacity bounds the store as a whole, not
	// each shard (a fixed quota per shard refused claims long before the store was full).
	records atomic.Int64
	// nextFullSweep (Unix ns by the store's clock) spaces out the sweeps of the whole store
	// that a full store makes, so a burst of refused claims costs one sweep, not one each.
	nextFullSweep atomic.Int64
	// epochs is the highest epoch the store has handed out: every new epoch is above it, so
	// fencing holds even after a record was swept and the clock stepped back.
	epochs atomic.Int64
	shards [memShards]memShard
}

var (
	_ ResultStore = (*MemoryStore)(nil)
	_ StepStore   = (*MemoryStore)(nil)
	_ ReviewStore = (*MemoryStore)(nil)
	_ Inspector   = (*MemoryStore)(nil)
)

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
	memFailed
)

type memRecord struct {
	state       memState
	token       Token
	fingerprint []byte
	result      []byte // kept with a completion marker (CompleteWithResult), or a failed marker's reason
	expires     time.Time
	// steps are the key's recovery points (SaveStep), kept until stepsUntil whatever
	// happens to the claim, so a record with live steps outlives its claim.
	steps      map[string][]byte
	stepsUntil time.Time
}

func (r *memRecord) live(now time.Time) bool {
	return r.state != memReleased && r.expires.After(now)
}

// kept reports whether the record must stay: it is live or has steps that are.
func (r *memRecord) kept(now time.Time) bool {
	return r.live(now) || r.stepsUntil.After(now)
}

// liveSteps returns the record's steps if they are kept at now.
func (r *memRecord) liveSteps(now time.Time) map[string][]byte {
	if !r.stepsUntil.After(now) {
		return nil
	}
	return r.steps
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
	if cfg.MeterProvider == nil {
		cfg.MeterProvider = otel.GetMeterProvider()
	}
	s := &MemoryStore{
		clock:      cfg.Clock,
		sweepEvery: cfg.SweepInterval,
		capacity:   int64(cfg.Capacity),
		seed:       maphash.MakeSeed(),
	}
	for i := range s.shards {
		s.shards[i].records = map[string]*memRecord{}
	}
	if err := s.registerGauges(cfg.MeterProvider, cfg.Name); err != nil {
		otel.Handle(fmt.Errorf("idempotency: memory store gauges: %w", err)) // a store without gauges still works
	}
	return s
}

// registerGauges registers the store's gauges. The callback holds the store by a weak
// pointer, and the registration is dropped when the store is collected, so a provider that
// outlives its stores does not keep them alive.
func (s *MemoryStore) registerGauges(mp metric.MeterProvider, name string) error {
	meter := mp.Meter(instrumentationName)
	records, err := meter.Int64ObservableGauge(MetricMemoryRecords,
		metric.WithDescription("Records a memory idempotency store holds, expired ones not yet swept included."),
		metric.WithUnit("{record}"))
	if err != nil {
		return err
	}
	utilization, err := meter.Float64ObservableGauge(MetricMemoryUtilization,
		metric.WithDescription("A memory idempotency store's records as a share of its capacity; at 1 new claims are refused."),
		metric.WithUnit("1"))
	if err != nil {
		return err
	}
	var opts []metric.ObserveOption
	if name != "" {
		opts = append(opts, metric.WithAttributeSet(attribute.NewSet(attribute.String(AttrStore, name))))
	}
	store := weak.Make(s)
	reg, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s := store.Value()
		if s == nil {
			return nil
		}
		s.sweepDue()
		n := s.records.Load()
		o.ObserveInt64(records, n, opts...)
		o.ObserveFloat64(utilization, float64(n)/float64(s.capacity), opts...)
		return nil
	}, records, utilization)
	if err != nil {
		return err
	}
	runtime.AddCleanup(s, func(reg metric.Registration) { _ = reg.Unregister() }, reg)
	return nil
}

// sweepDue sweeps each shard whose sweep is due, one shard locked at a time: what a call on
// the shard would do, for shards that no call reaches.
func (s *MemoryStore) sweepDue() {
	now := s.clock.Now()
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		s.sweepIfDue(sh, now)
		sh.mu.Unlock()
	}
}

func (s *MemoryStore) shard(key string) *memShard {
	return &s.shards[maphash.String(s.seed, key)%memShards]
}

// lock locks key's shard, sweeping it first when a sweep is due.
func (s *MemoryStore) lock(key string, now time.Time) *memShard {
	sh := s.shard(key)
	sh.mu.Lock()
	s.sweepIfDue(sh, now)
	return sh
}

// sweepIfDue sweeps sh, whose lock is held, when its sweep interval has passed.
func (s *MemoryStore) sweepIfDue(sh *memShard, now time.Time) {
	if !now.Before(sh.nextSweep) {
		s.sweep(sh, now)
		sh.nextSweep = now.Add(s.sweepEvery)
	}
}

func (s *MemoryStore) sweep(sh *memShard, now time.Time) {
	for k, r := range sh.records {
		if !r.kept(now) {
			delete(sh.records, k)
			s.records.Add(-1)
		}
	}
}

// sweepAll drops the expired records of every shard, one shard locked at a time, unless
// another full sweep ran within the last second (or sweep interval, if shorter).
func (s *MemoryStore) sweepAll(now time.Time) {
	next := s.nextFullSweep.Load()
	if now.UnixNano() < next || !s.nextFullSweep.CompareAndSwap(next, now.Add(min(time.Second, s.sweepEvery)).UnixNano()) {
		return
	}
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		s.sweep(sh, now)
		sh.mu.Unlock()
	}
}

// Claim implements Store.
func (s *MemoryStore) Claim(ctx context.Context, req ClaimRequest) (ClaimResult, error) {
	// Like a remote store, refuse work on a cancelled context rather than act unasked.
	if err := ctx.Err(); err != nil {
		return ClaimResult{}, err
	}
	now := s.clock.Now()
	if s.records.Load() >= s.capacity {
		s.sweepAll(now) // before taking the key's shard: sweepAll takes every shard's lock
	}
	sh := s.lock(req.Key, now)
	defer sh.mu.Unlock()
	r := sh.records[req.Key]
	if r != nil && r.live(now) {
		if r.state == memInProgress && r.token.Owner == req.Owner {
			// The same owner asking again (a client retrying after a lost reply) gets its
			// claim back rather than being told the key is busy.
			r.expires = now.Add(req.Lease)
			return ClaimResult{Status: StatusClaimed, Token: r.token, ExpiresIn: req.Lease}, nil
		}
		if r.state == memCompleted {
			return ClaimResult{Status: StatusCompleted, Token: r.token, Fingerprint: r.fingerprint, ExpiresIn: r.expires.Sub(now), Result: r.result}, nil
		}
		if r.state == memFailed {
			return ClaimResult{Status: StatusFailed, Token: r.token, Fingerprint: r.fingerprint, ExpiresIn: r.expires.Sub(now), Reason: string(r.result)}, nil
		}
		return ClaimResult{Status: StatusInProgress, Token: r.token, Fingerprint: r.fingerprint, ExpiresIn: r.expires.Sub(now)}, nil
	}
	if r == nil {
		if s.records.Add(1) > s.capacity {
			s.records.Add(-1)
			return ClaimResult{}, ErrStoreFull
		}
		r = &memRecord{}
		sh.records[req.Key] = r
	}
	// Reusing an expired or released record keeps its epoch to count on from, and its steps
	// while they are kept: they are what the next run resumes from.
	steps, stepsUntil := r.liveSteps(now), r.stepsUntil
	*r = memRecord{
		state:       memInProgress,
		token:       Token{Owner: req.Owner, Epoch: s.nextEpoch(r.token.Epoch, now)},
		fingerprint: req.Fingerprint,
		expires:     now.Add(req.Lease),
	}
	if steps != nil {
		r.steps, r.stepsUntil = steps, stepsUntil
	}
	return ClaimResult{Status: StatusClaimed, Token: r.token, ExpiresIn: req.Lease}, nil
}

// nextEpoch is a hybrid logical clock: past every epoch the store handed out (so past every
// epoch the key had, even one swept and forgotten, whatever the clock did since), and at
// least the clock in microseconds.
func (s *MemoryStore) nextEpoch(prev int64, now time.Time) int64 {
	e := max(prev+1, now.UnixMicro())
	for {
		top := s.epochs.Load()
		if e <= top {
			e = top + 1
		}
		if s.epochs.CompareAndSwap(top, e) {
			return e
		}
	}
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
	return s.CompleteWithResult(ctx, key, token, retention, nil)
}

// CompleteWithResult implements ResultStore.
func (s *MemoryStore) CompleteWithResult(ctx context.Context, key string, token Token, retention time.Duration, result []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.clock.Now()
	sh, r := s.held(key, token, now)
	defer sh.mu.Unlock()
	if r == nil || (r.state != memInProgress && r.state != memCompleted) {
		return ErrConflict
	}
	r.state = memCompleted
	r.result = result
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
	if r == nil || (r.state != memInProgress && r.state != memReleased) {
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

// Inspect implements Inspector.
func (s *MemoryStore) Inspect(ctx context.Context, key string) (Record, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, err
	}
	now := s.clock.Now()
	sh := s.lock(key, now)
	defer sh.mu.Unlock()
	r := sh.records[key]
	if r == nil {
		return Record{}, nil
	}
	var rec Record
	if steps := r.liveSteps(now); len(steps) > 0 {
		rec.Steps = cloneSteps(steps)
	}
	if !r.live(now) {
		return rec, nil
	}
	rec.Status = StatusInProgress
	switch r.state {
	case memCompleted:
		rec.Status = StatusCompleted
	case memFailed:
		rec.Status, rec.Reason = StatusFailed, string(r.result)
	}
	rec.Token, rec.Fingerprint, rec.ExpiresIn = r.token, r.fingerprint, r.expires.Sub(now)
	return rec, nil
}

func cloneSteps(steps map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(steps))
	for k, v := range steps {
		out[k] = v // never changed in place: SaveStep stores a new slice
	}
	return out
}

// Forget implements Inspector. The key's steps go with its record.
func (s *MemoryStore) Forget(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	sh := s.lock(key, s.clock.Now())
	defer sh.mu.Unlock()
	if _, ok := sh.records[key]; ok {
		delete(sh.records, key)
		s.records.Add(-1)
	}
	return nil
}

// LoadSteps implements StepStore.
func (s *MemoryStore) LoadSteps(ctx context.Context, key string) (map[string][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	sh := s.lock(key, now)
	defer sh.mu.Unlock()
	r := sh.records[key]
	if r == nil {
		return nil, nil
	}
	return cloneSteps(r.liveSteps(now)), nil
}

// SaveStep implements StepStore.
func (s *MemoryStore) SaveStep(ctx context.Context, key string, token Token, name string, result []byte, retention time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.clock.Now()
	sh, r := s.held(key, token, now)
	defer sh.mu.Unlock()
	if r == nil || r.state != memInProgress {
		return ErrConflict
	}
	if r.liveSteps(now) == nil {
		r.steps = map[string][]byte{} // expired ones are a finished run's, not this one's
	} else {
		r.steps = cloneSteps(r.steps) // Inspect and LoadSteps may hold the old map
	}
	r.steps[name] = append([]byte{}, result...)
	r.stepsUntil = now.Add(retention)
	return nil
}

// Fail implements ReviewStore.
func (s *MemoryStore) Fail(ctx context.Context, key string, token Token, retention time.Duration, reason string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.clock.Now()
	sh, r := s.held(key, token, now)
	defer sh.mu.Unlock()
	if r == nil || (r.state != memInProgress && r.state != memFailed) {
		return ErrConflict
	}
	r.state = memFailed
	r.result = []byte(reason)
	r.expires = now.Add(retention)
	if r.liveSteps(now) != nil && r.stepsUntil.Before(r.expires) {
		r.stepsUntil = r.expires // a retry after review resumes from them
	}
	return nil
}

// Retry implements ReviewStore.
func (s *MemoryStore) Retry(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.clock.Now()
	sh := s.lock(key, now)
	defer sh.mu.Unlock()
	r := sh.records[key]
	if r == nil || r.state != memFailed || !r.live(now) {
		return ErrNotFailed
	}
	r.state, r.result, r.expires = memReleased, nil, now
	return nil
}
