// Package redisstore is an idempotency.Store in Redis (go-redis v9). Every operation is one
// Lua script on one key, so it is atomic, costs one round trip, and works on Redis Cluster.
//
// A key's record is a hash (state, owner, epoch, fingerprint, expiry, and a completion's
// result or a failed marker's reason) at RecordKey(key), and its steps (idempotency.Step) a
// hash at StepsKey(key) in the same slot. Leases
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
//
// The server must not evict keys: under any maxmemory-policy but noeviction, Redis drops keys
// when memory runs short (the volatile-* policies choose among keys with a TTL, which every
// record has), and a completion marker evicted within its retention lets a duplicate run as
// a fresh claim. New reads the policy (CONFIG GET maxmemory-policy) and fails unless it is
// noeviction; Config.Eviction accepts a server that will not say (managed Redis often
// disables CONFIG) or one that may evict. With noeviction, a full server refuses writes, so
// claims fail and nothing runs unprotected.
package redisstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
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
	// Eviction says what New accepts of the server's maxmemory-policy (default
	// RequireNoEviction).
	Eviction EvictionCheck
	// Logger receives New's warning when it accepts a server that may evict records, or
	// whose policy it could not read (default slog.Default()).
	Logger *slog.Logger
}

// EvictionCheck says what New accepts of the server's maxmemory-policy.
type EvictionCheck uint8

const (
	// RequireNoEviction (the default): New fails with an error matching ErrEviction unless
	// every server it reaches reports maxmemory-policy noeviction, also when it cannot read
	// the policy (CONFIG disabled or renamed, an ACL without +config|get, no connection).
	RequireNoEviction EvictionCheck = iota
	// TrustNoEviction is for servers that refuse CONFIG, as managed Redis services often
	// do, whose policy an operator has set to noeviction where the provider allows it (a
	// parameter group, the console). New still fails on a policy it can read and that is not
	// noeviction; when it cannot read one, it logs a warning and goes on.
	TrustNoEviction
	// AllowEviction accepts any policy: New logs a warning when the policy is not
	// noeviction or cannot be read. Completion markers may then be evicted when memory runs
	// short, and duplicates of completed jobs run again. For caches of jobs whose effects are
	// idempotent anyway.
	AllowEviction
)

// ErrEviction is matched by the error New returns for a server that may evict records, or
// whose policy it could not read under RequireNoEviction.
var ErrEviction = errors.New("redisstore: the Redis server may evict idempotency records")

// EvictionError is the error New and EvictionPolicy return when a server's policy is not
// noeviction, or could not be read (Err set). It matches ErrEviction.
type EvictionError struct {
	// Policy is the maxmemory-policy the server reported; empty when it could not be read.
	Policy string
	// Err is why the policy could not be read (CONFIG GET's error), or nil.
	Err error
}

func (e *EvictionError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("redisstore: cannot read the Redis maxmemory-policy (CONFIG GET: %v); it must be noeviction, or evicted completion markers let duplicates run: "+
			"set it where the server is configured (managed services: the parameter group or console) and pass Config{Eviction: redisstore.TrustNoEviction}", e.Err)
	}
	return fmt.Sprintf("redisstore: Redis maxmemory-policy is %q: when memory runs short Redis evicts keys (volatile-* policies choose among keys with a TTL, which every record has), "+
		"so completion markers vanish and duplicates run as fresh claims; set maxmemory-policy noeviction (redis.conf, or CONFIG SET), or accept the risk with Config{Eviction: redisstore.AllowEviction}", e.Policy)
}

func (e *EvictionError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrEviction) true.
func (e *EvictionError) Is(target error) bool { return target == ErrEviction }

// evictionCheckTimeout bounds New's reading of the policy, which has no context of its own.
const evictionCheckTimeout = 10 * time.Second

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

// Client is what the store needs of a client: scripts, reading or deleting one record
// (Inspect, Forget), and reading the server's eviction policy (New). *redis.Client and
// *redis.ClusterClient have it.
type Client interface {
	redis.Scripter
	HMGet(ctx context.Context, key string, fields ...string) *redis.SliceCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
	ConfigGet(ctx context.Context, parameter string) *redis.MapStringStringCmd
}

// New returns a Store on client (a *redis.Client or *redis.ClusterClient). It reads the
// server's maxmemory-policy (on a cluster, every shard's), within ten seconds, and fails
// with an *EvictionError unless it is noeviction or cfg.Eviction accepts it; see
// EvictionCheck.
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
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Eviction > AllowEviction {
		return nil, fmt.Errorf("redisstore: unknown Config.Eviction %d", cfg.Eviction)
	}
	s := &Store{client: client, prefix: cfg.Prefix, lingerMs: cfg.Linger.Milliseconds(), clock: cfg.Clock}
	ctx, cancel := context.WithTimeout(context.Background(), evictionCheckTimeout)
	defer cancel()
	err := s.CheckEviction(ctx)
	var ee *EvictionError
	switch {
	case err == nil:
		return s, nil
	case cfg.Eviction == AllowEviction,
		cfg.Eviction == TrustNoEviction && (!errors.As(err, &ee) || ee.Err != nil):
		cfg.Logger.Warn("redisstore: accepting a Redis server that may evict idempotency records (Config.Eviction)",
			slog.String("eviction", cfg.Eviction.String()), slog.Any("error", err))
		return s, nil
	}
	return nil, err
}

func (c EvictionCheck) String() string {
	switch c {
	case RequireNoEviction:
		return "require_noeviction"
	case TrustNoEviction:
		return "trust_noeviction"
	case AllowEviction:
		return "allow_eviction"
	}
	return fmt.Sprintf("EvictionCheck(%d)", uint8(c))
}

// CheckEviction reads the server's maxmemory-policy (on a cluster, every shard's, replicas
// included, since a failover promotes them) and returns nil when it is noeviction, an
// *EvictionError otherwise (or when it cannot be read). New calls it; a health check can
// call it again, since the policy can change while the store runs (CONFIG SET, a failover to
// a server configured otherwise).
func (s *Store) CheckEviction(ctx context.Context) error {
	if cc, ok := s.client.(interface {
		ForEachShard(ctx context.Context, fn func(ctx context.Context, client *redis.Client) error) error
	}); ok {
		return cc.ForEachShard(ctx, func(ctx context.Context, c *redis.Client) error { return checkEviction(ctx, c) })
	}
	return checkEviction(ctx, s.client)
}

func checkEviction(ctx context.Context, c interface {
	ConfigGet(ctx context.Context, parameter string) *redis.MapStringStringCmd
}) error {
	v, err := c.ConfigGet(ctx, "maxmemory-policy").Result()
	if err != nil {
		return &EvictionError{Err: err}
	}
	policy, ok := v["maxmemory-policy"]
	if !ok {
		return &EvictionError{Err: errors.New("the server reported no maxmemory-policy")}
	}
	if policy != "noeviction" {
		return &EvictionError{Policy: policy}
	}
	return nil
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
// expires in µs, result (a failed marker's reason)}.
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
	case state == "f":
		res.Status = idempotency.StatusFailed
		res.Reason, _ = v[6].(string)
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
