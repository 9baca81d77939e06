#!/usr/bin/env bash
# Runs the idempotency module's benchmarks and prints each result beside its target:
#   - claim+complete on the memory store: under 1 microsecond and a few allocations per job;
#   - database round trips per job on PostgreSQL: two (claim, complete), and none extra with
#     transactional completion;
#   - round trips per job on Redis: two (claim, complete).
# The PostgreSQL and Redis parts need IDEMPOTENCY_TEST_POSTGRES_DSN and
# IDEMPOTENCY_TEST_REDIS_ADDR; without them, and with scripts/services.sh at hand, the script
# starts the services itself.
set -euo pipefail
cd "$(dirname "$0")"

if [ -z "${IDEMPOTENCY_TEST_POSTGRES_DSN:-}" ] && [ -x ../scripts/services.sh ]; then
  eval "$(../scripts/services.sh)"
fi

mem=$(go test -run '^$' -bench . -benchmem -count "${COUNT:-1}" .)
echo "$mem"
pg=""
if [ -n "${IDEMPOTENCY_TEST_POSTGRES_DSN:-}" ]; then
  pg=$(go test -run '^$' -bench . -benchtime 2000x -count "${COUNT:-1}" ./sqlstore/)
  echo "$pg"
else
  echo "bench: IDEMPOTENCY_TEST_POSTGRES_DSN is not set; skipping the PostgreSQL round trips" >&2
fi
rd=""
if [ -n "${IDEMPOTENCY_TEST_REDIS_ADDR:-}" ]; then
  rd=$(go test -run '^$' -bench . -benchtime 2000x -count "${COUNT:-1}" ./redisstore/)
  echo "$rd"
else
  echo "bench: IDEMPOTENCY_TEST_REDIS_ADDR is not set; skipping the Redis round trips" >&2
fi

# value NAME UNIT: the number before UNIT on benchmark NAME's last line.
value() {
  printf '%s\n%s\n%s\n' "$mem" "$pg" "$rd" | awk -v name="$1" -v unit="$2" '
    $1 ~ "^"name"(-[0-9]+)?$" { for (i = 2; i <= NF; i++) if ($i == unit) v = $(i-1) }
    END { print v }'
}

echo
echo "summary (result / target):"
ns=$(value BenchmarkMemoryStoreClaimComplete ns/op)
allocs=$(value BenchmarkMemoryStoreClaimComplete allocs/op)
awk -v ns="$ns" -v a="$allocs" 'BEGIN {
  printf "  memory store claim+complete: %.0f ns/job = %.2f of the 1000 ns target, %d allocs/job\n", ns, ns / 1000, a }'
mw=$(value BenchmarkMiddlewareMemory ns/op)
mwa=$(value BenchmarkMiddlewareMemory allocs/op)
awk -v ns="$mw" -v a="$mwa" 'BEGIN {
  printf "  whole middleware on the memory store: %.0f ns/job, %d allocs/job (handler context, renewal timer, owner token, hashed key)\n", ns, a }'
if [ -n "$pg" ]; then
  for case in NoOpHandler HandlerTx TransactionalCompletion; do
    rt=$(value "BenchmarkPostgresRoundTrips/$case" middleware_roundtrips/job)
    total=$(value "BenchmarkPostgresRoundTrips/$case" roundtrips/job)
    awk -v c="$case" -v rt="$rt" -v t="$total" 'BEGIN {
      printf "  postgres %s: %.2f round trips/job added by the middleware = %.2f of the target 2 (%.2f in all)\n", c, rt, rt / 2, t }'
  done
fi
if [ -n "$rd" ]; then
  rt=$(value BenchmarkRedisRoundTrips roundtrips/job)
  awk -v rt="$rt" 'BEGIN { printf "  redis: %.2f round trips/job = %.2f of the target 2\n", rt, rt / 2 }'
fi
