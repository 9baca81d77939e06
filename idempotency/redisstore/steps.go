package redisstore

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/redis/go-redis/v9"
)

var (
	_ idempotency.StepStore   = (*Store)(nil)
	_ idempotency.ReviewStore = (*Store)(nil)
)

var (
	//go:embed step.lua
	stepLua    string
	stepScript = redis.NewScript(stepLua)
	//go:embed steps.lua
	stepsLua    string
	stepsScript = redis.NewScript(stepsLua)
	//go:embed fail.lua
	failLua    string
	failScript = redis.NewScript(failLua)
	//go:embed retry.lua
	retryLua    string
	retryScript = redis.NewScript(retryLua)
)

// StepsKey is the Redis key of key's steps (idempotency.Step): a hash beside its record, in
// the same cluster slot, with a TTL of its own, since the steps outlive a released claim's
// record. "s:" keeps it apart from records and counters.
func (s *Store) StepsKey(key string) string { return s.prefix + "{" + tag(key) + "}s:" + key }

// LoadSteps implements idempotency.StepStore. It runs a script, so Client needs nothing more.
func (s *Store) LoadSteps(ctx context.Context, key string) (map[string][]byte, error) {
	v, err := stepsScript.Run(ctx, s.client, []string{s.StepsKey(key)}, s.now()).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("redisstore: load steps: %w", err)
	}
	if len(v)%2 != 0 {
		return nil, fmt.Errorf("redisstore: load steps: unexpected reply of %d items", len(v))
	}
	var steps map[string][]byte
	for i := 0; i < len(v); i += 2 {
		if steps == nil {
			steps = map[string][]byte{}
		}
		steps[v[i]] = []byte(v[i+1])
	}
	return steps, nil
}

// SaveStep implements idempotency.StepStore.
func (s *Store) SaveStep(ctx context.Context, key string, token idempotency.Token, name string, result []byte, retention time.Duration) error {
	return s.casKeys(ctx, "save step", stepScript, []string{s.RecordKey(key), s.StepsKey(key)}, token, retention, name, result)
}

// Fail implements idempotency.ReviewStore. The key's kept steps are kept as long as the
// failed marker.
func (s *Store) Fail(ctx context.Context, key string, token idempotency.Token, retention time.Duration, reason string) error {
	return s.casKeys(ctx, "fail", failScript, []string{s.RecordKey(key), s.StepsKey(key)}, token, retention, reason)
}

// Retry implements idempotency.ReviewStore.
func (s *Store) Retry(ctx context.Context, key string) error {
	n, err := retryScript.Run(ctx, s.client, []string{s.RecordKey(key)}, s.now(), s.lingerMs).Int64()
	if err != nil {
		return fmt.Errorf("redisstore: retry: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("redisstore: retry: %w", idempotency.ErrNotFailed)
	}
	return nil
}

// casKeys is cas on several keys of one slot.
func (s *Store) casKeys(ctx context.Context, op string, script *redis.Script, keys []string, token idempotency.Token, d time.Duration, extra ...any) error {
	args := append([]any{token.Owner, fmt.Sprint(token.Epoch), d.Microseconds(), s.now(), s.lingerMs}, extra...)
	n, err := script.Run(ctx, s.client, keys, args...).Int64()
	if err != nil {
		return fmt.Errorf("redisstore: %s: %w", op, err)
	}
	if n == 0 {
		return fmt.Errorf("redisstore: %s: %w", op, idempotency.ErrConflict)
	}
	return nil
}
