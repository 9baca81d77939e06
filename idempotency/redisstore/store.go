// Package redisstore is an idempotency.Store in Redis (go-redis v9). Every operation is one
// Lua script on one key, so it is atomic, costs one round trip, and works on Redis Cluster.
//
// A key's record is a hash (state, owner, epoch, fingerprint, expiry) at RecordKey(key). Leases
// and retentions are measured by the Redis server's clock (TIME), so workers' clocks never
// disagree about who holds a key. The record also carries a Redis TTL a little past its
// logical expiry, so Redis drops it on its own; no cleanup job is needed.
//
// Epochs do not rest on the clock alone: each of 256 hash tags has an epoch counter key
// (prefix + "{tag}epoch", no TTL, in the same cluster slot as the records of its tag), and a
// claim's epoch is above its counter. So a record that expired away, or a failover to a
// server whose clock is behind, cannot hand a new holder an epoch below a zombie's. (A
// failover that loses acknowledged writes can lose counter updates too; the clock part of
// the epoch then still holds unless the clock stepped back as well.)
package redisstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/redis/go-redis/v9"
)

// Config configures a Store.
type Config struct {
	// Prefix is put before every idempotency key to make the Redis key (default
	// "idempotency:"). On Redis Cluster it may hold a hash tag.
	Prefix string
	// Linger is how long a record stays in Redis after its lease or retention ends (default
	// one minute). It lets a late completion or release find the record and get a clear
	// conflict, and keeps epochs counting up across quick reclaims.
	Linger time.Duration
	// Clock, when set, replaces the Redis server's clock. It exists for tests, which move a
	// fake clock instead of waiting.
	Clock idempotency.Clock
}

// Store is an idempotency.Store in Redis. It is safe for concurrent use.
type Store struct {
	client   Client
	prefix   string
	lingerMs int64
	clock    idempotency.Clock
}

var (
	_ idempotency.ResultStore = (*Store)(nil)
	_ idempotency.Inspector   = (*Store)(nil)
)

// RecordKey is the Redis key of key's record: the prefix, a hash tag of two hex digits
// derived from the key (so the record and its epoch counter share a cluster slot), "k:" (so
// no record is ever taken for a counter) and the key. A prefix that holds a hash tag of its
// own overrides the tag, as Redis reads the first.
func (s *Store) RecordKey(key string) string { return s.prefix + "{" + tag(key) + "}k:" + key }

// counterKey is the epoch counter of key's hash tag.
func (s *Store) counterKey(key string) string { return s.prefix + "{" + tag(key) + "}epoch" }

func tag(key string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return fmt.Sprintf("%02x", h.Sum32()&0xff)
}

// Client is what the store needs of a client: scripts, and reading or deleting one
// record (Inspect, Forget). *redis.Client and *redis.ClusterClient have it.
type Client interface {
	redis.Scripter
	HMGet(ctx context.Context, key string, fields ...string) *redis.SliceCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

// New returns a Store on client (a *redis.Client or *redis.ClusterClient).
func New(client Client, cfg Config) (*Store, error) {
	if client == nil {
		return nil, errors.New("redisstore: nil client")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "idempotency:"
	}
	if cfg.Linger <= 0 {
		cfg.Linger = time.Minute
	}
	return &Store{client: client, prefix: cfg.Prefix, lingerMs: cfg.Linger.Milliseconds(), clock: cfg.Clock}, nil
}

// The scripts keep times and epochs in microseconds. Lua numbers are doubles, exact for
// integers up to 2^53 (285 years of microseconds), and string.format('%.0f') writes them back
// without the exponent that tostring would use.
var (
	//go:embed claim.lua
	claimLua    string
	claimScript = redis.NewScript(claimLua)
	//go:embed renew.lua
	renewLua    string
	renewScript = redis.NewScript(renewLua)
	//go:embed complete.lua
	completeLua    string
	completeScript = redis.NewScript(completeLua)
	//go:embed release.lua
	releaseLua    string
	releaseScript = redis.NewScript(releaseLua)
)

// now is the "now" argument: empty lets the script read the server's clock.
func (s *Store) now() string {
	if s.clock == nil {
		return ""
	}
	return strconv.FormatInt(s.clock.Now().UnixMicro(), 10)
}

// Claim implements idempotency.Store.
func (s *Store) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	v, err := claimScript.Run(ctx, s.client, []string{s.RecordKey(req.Key), s.counterKey(req.Key)},
		req.Owner, req.Fingerprint, req.Lease.Microseconds(), s.now(), s.lingerMs).Slice()
	if err != nil {
		return idempotency.ClaimResult{}, fmt.Errorf("redisstore: claim: %w", err)
	}
	res, err := parseClaim(v)
	if err != nil {
		return res, fmt.Errorf("redisstore: claim: %w", err)
	}
	return res, nil
}

// parseClaim reads the claim script's reply: {claimed, state, owner, epoch, fingerprint,
// expires in µs, result}.
func parseClaim(v []any) (idempotency.ClaimResult, error) {
	var res idempotency.ClaimResult
	if len(v) != 7 {
		return res, fmt.Errorf("unexpected reply %v", v)
	}
	claimed, _ := v[0].(int64)
	state, _ := v[1].(string)
	owner, _ := v[2].(string)
	epoch, err := strconv.ParseInt(fmt.Sprint(v[3]), 10, 64)
	if err != nil {
		return res, fmt.Errorf("bad epoch: %w", err)
	}
	expiresIn, err := strconv.ParseInt(fmt.Sprint(v[5]), 10, 64)
	if err != nil {
		return res, fmt.Errorf("bad expiry: %w", err)
	}
	res.Token = idempotency.Token{Owner: owner, Epoch: epoch}
	res.ExpiresIn = time.Duration(expiresIn) * time.Microsecond
	if fp, _ := v[4].(string); fp != "" {
		res.Fingerprint = []byte(fp)
	}
	switch {
	case claimed == 1:
		res.Status = idempotency.StatusClaimed
	case state == "c":
		res.Status = idempotency.StatusCompleted
		if r, _ := v[6].(string); r != "" {
			res.Result = []byte(r)
		}
	case state == "p":
		res.Status = idempotency.StatusInProgress
	default:
		return res, fmt.Errorf("unexpected state %q", state)
	}
	return res, nil
}

// Renew implements idempotency.Store.
func (s *Store) Renew(ctx context.Context, key string, token idempotency.Token, lease time.Duration) error {
	return s.cas(ctx, "renew", renewScript, key, token, lease)
}

// Complete implements idempotency.Store.
func (s *Store) Complete(ctx context.Context, key string, token idempotency.Token, retention time.Duration) error {
	return s.cas(ctx, "complete", completeScript, key, token, retention)
}

// CompleteWithResult implements idempotency.ResultStore. An empty result is no result.
func (s *Store) CompleteWithResult(ctx context.Context, key string, token idempotency.Token, retention time.Duration, result []byte) error {
	return s.cas(ctx, "complete", completeScript, key, token, retention, result)
}

// Release implements idempotency.Store.
func (s *Store) Release(ctx context.Context, key string, token idempotency.Token) error {
	return s.cas(ctx, "release", releaseScript, key, token, 0)
}

// cas runs a compare-and-set script on the token; 0 means the token does not hold the key.
func (s *Store) cas(ctx context.Context, op string, script *redis.Script, key string, token idempotency.Token, d time.Duration, extra ...any) error {
	args := append([]any{token.Owner, strconv.FormatInt(token.Epoch, 10), d.Microseconds(), s.now(), s.lingerMs}, extra...)
	n, err := script.Run(ctx, s.client, []string{s.RecordKey(key)}, args...).Int64()
	if err != nil {
		return fmt.Errorf("redisstore: %s: %w", op, err)
	}
	if n == 0 {
		return fmt.Errorf("redisstore: %s: %w", op, idempotency.ErrConflict)
	}
	return nil
}
