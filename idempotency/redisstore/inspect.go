package redisstore

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

// Inspect implements idempotency.Inspector: the key's live record, or a zero Record. Its
// ExpiresIn is measured by this process's clock (or the store's Clock), not the server's:
// inspection is for people, not for fencing.
func (s *Store) Inspect(ctx context.Context, key string) (idempotency.Record, error) {
	steps, err := s.LoadSteps(ctx, key)
	if err != nil {
		return idempotency.Record{}, fmt.Errorf("redisstore: inspect: %w", err)
	}
	v, err := s.client.HMGet(ctx, s.RecordKey(key), "s", "o", "e", "f", "x", "v").Result()
	if err != nil {
		return idempotency.Record{}, fmt.Errorf("redisstore: inspect: %w", err)
	}
	state, _ := v[0].(string)
	owner, _ := v[1].(string)
	epochS, _ := v[2].(string)
	fp, _ := v[3].(string)
	expS, _ := v[4].(string)
	if state != "p" && state != "c" && state != "f" {
		return idempotency.Record{Steps: steps}, nil
	}
	epoch, _ := strconv.ParseInt(epochS, 10, 64)
	exp, _ := strconv.ParseInt(expS, 10, 64)
	now := time.Now()
	if s.clock != nil {
		now = s.clock.Now()
	}
	left := time.Duration(exp-now.UnixMicro()) * time.Microsecond
	if left <= 0 {
		return idempotency.Record{Steps: steps}, nil
	}
	r := idempotency.Record{Status: idempotency.StatusInProgress, Token: idempotency.Token{Owner: owner, Epoch: epoch}, ExpiresIn: left, Steps: steps}
	switch state {
	case "c":
		r.Status = idempotency.StatusCompleted
	case "f":
		r.Status = idempotency.StatusFailed
		r.Reason, _ = v[5].(string)
	}
	if fp != "" {
		r.Fingerprint = []byte(fp)
	}
	return r, nil
}

// Forget implements idempotency.Inspector: it deletes the key's record and its steps. Epochs
// keep growing across it (the counter of the key's hash tag stays).
func (s *Store) Forget(ctx context.Context, key string) error {
	if err := s.client.Del(ctx, s.RecordKey(key), s.StepsKey(key)).Err(); err != nil {
		return fmt.Errorf("redisstore: forget: %w", err)
	}
	return nil
}
