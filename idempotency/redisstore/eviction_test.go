package redisstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/redisstore"
	"github.com/redis/go-redis/v9"
)

// Issue #32 item 3: under any maxmemory-policy but noeviction, Redis may evict the records
// (the volatile-* policies pick among keys with a TTL, and every record has one), and an
// evicted completion marker lets a duplicate run as a fresh claim. New must refuse such a
// server unless told to accept it.
func TestNewRefusesAnEvictingServer(t *testing.T) {
	c := client(t)
	for _, policy := range []string{"volatile-lru", "allkeys-lfu", "volatile-ttl"} {
		setPolicy(t, c, policy)
		_, err := redisstore.New(c, redisstore.Config{})
		var ee *redisstore.EvictionError
		if !errors.Is(err, redisstore.ErrEviction) || !errors.As(err, &ee) || ee.Policy != policy || !strings.Contains(err.Error(), "noeviction") {
			t.Fatalf("New on a server whose maxmemory-policy is %s: %v; want an *EvictionError naming it and the fix", policy, err)
		}
		// Trusting a policy the server does not report changes nothing when it does report one.
		if _, err := redisstore.New(c, redisstore.Config{Eviction: redisstore.TrustNoEviction}); !errors.Is(err, redisstore.ErrEviction) {
			t.Fatalf("TrustNoEviction on a server that reports %s: %v; want ErrEviction", policy, err)
		}
		// Accepted when asked, with a warning.
		var logs bytes.Buffer
		if _, err := redisstore.New(c, redisstore.Config{Eviction: redisstore.AllowEviction, Logger: slog.New(slog.NewTextHandler(&logs, nil))}); err != nil {
			t.Fatalf("AllowEviction on %s: %v", policy, err)
		}
		if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), policy) {
			t.Fatalf("AllowEviction on %s logged %q; want a warning naming the policy", policy, logs.String())
		}
	}
}

// The policy can change while the store runs: CheckEviction, for health checks, says so.
func TestCheckEvictionSeesAChange(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	s := newStore(t, c, nil)
	if err := s.CheckEviction(ctx); err != nil {
		t.Fatalf("CheckEviction on a noeviction server: %v", err)
	}
	setPolicy(t, c, "allkeys-lru")
	if err := s.CheckEviction(ctx); !errors.Is(err, redisstore.ErrEviction) {
		t.Fatalf("CheckEviction after the policy became allkeys-lru: %v; want ErrEviction", err)
	}
}

// A server that refuses CONFIG (managed Redis disables or renames it; here an ACL user without
// config permission) cannot show its policy: New fails by default, goes on with a warning
// when told to trust the operator's noeviction, or when eviction is allowed.
func TestNewWhenConfigIsRefused(t *testing.T) {
	ctx := context.Background()
	admin := client(t)
	user := fmt.Sprint("idemtest-noconfig-", time.Now().UnixNano())
	if err := admin.Do(ctx, "ACL", "SETUSER", user, "on", ">secret", "~*", "&*", "+@all", "-config").Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.Do(context.Background(), "ACL", "DELUSER", user).Err() })
	c := redis.NewClient(&redis.Options{Addr: idempotencytest.RedisAddr(t), Username: user, Password: "secret"})
	t.Cleanup(func() { _ = c.Close() })
	if err := c.ConfigGet(ctx, "maxmemory-policy").Err(); err == nil {
		t.Fatal("the ACL user can run CONFIG GET; the test needs a server that refuses it")
	}
	_, err := redisstore.New(c, redisstore.Config{})
	var ee *redisstore.EvictionError
	if !errors.As(err, &ee) || ee.Err == nil || !strings.Contains(err.Error(), "cannot read") || !strings.Contains(err.Error(), "TrustNoEviction") {
		t.Fatalf("New when CONFIG is refused: %v; want an *EvictionError saying the policy cannot be read and how to go on", err)
	}
	for _, check := range []redisstore.EvictionCheck{redisstore.TrustNoEviction, redisstore.AllowEviction} {
		var logs bytes.Buffer
		s, err := redisstore.New(c, redisstore.Config{Eviction: check, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatalf("%s when CONFIG is refused: %v", check, err)
		}
		if !strings.Contains(logs.String(), "level=WARN") {
			t.Fatalf("%s when CONFIG is refused logged %q; want a warning", check, logs.String())
		}
		// The store works: only CONFIG is refused.
		if _, err := s.Claim(ctx, idempotency.ClaimRequest{Key: fmt.Sprint("noconfig-", check, time.Now().UnixNano()), Owner: "o", Lease: time.Minute}); err != nil {
			t.Fatalf("claim through the restricted user: %v", err)
		}
	}
	if _, err := redisstore.New(c, redisstore.Config{Eviction: 9}); err == nil {
		t.Fatal("New accepted an unknown Config.Eviction")
	}
}

// setPolicy sets the server's maxmemory-policy for the test and puts the old one back after.
// The test server is this repository's own (scripts/services.sh), so no one else sees it.
func setPolicy(t *testing.T, c *redis.Client, policy string) {
	t.Helper()
	ctx := context.Background()
	old, err := c.ConfigGet(ctx, "maxmemory-policy").Result()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "maxmemory-policy", policy).Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.ConfigSet(context.Background(), "maxmemory-policy", old["maxmemory-policy"]).Err(); err != nil {
			t.Errorf("restoring maxmemory-policy: %v", err)
		}
	})
}
