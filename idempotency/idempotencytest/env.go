package idempotencytest

import (
	"os"
	"testing"
)

// The environment variables that point the store tests at running services;
// scripts/services.sh in the repository starts both and prints them.
const (
	EnvPostgresDSN = "IDEMPOTENCY_TEST_POSTGRES_DSN"
	EnvRedisAddr   = "IDEMPOTENCY_TEST_REDIS_ADDR"
)

// PostgresDSN returns the PostgreSQL connection string for store tests. Without one the test
// is skipped, except in CI (CI set), where a missing service must fail the run rather than
// pass it quietly.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	return service(t, EnvPostgresDSN)
}

// RedisAddr returns the Redis address (host:port) for store tests, like PostgresDSN.
func RedisAddr(t testing.TB) string {
	t.Helper()
	return service(t, EnvRedisAddr)
}

func service(t testing.TB, env string) string {
	t.Helper()
	v := os.Getenv(env)
	if v != "" {
		return v
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not set, and CI is: the CI script must start the services (scripts/services.sh)", env)
	}
	t.Skipf("%s is not set; start the services with: eval \"$(scripts/services.sh)\"", env)
	return ""
}
