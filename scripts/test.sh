#!/usr/bin/env bash
# Runs every test of the repository: the analyzer (root module), the runtime middleware
# (idempotency/, against real PostgreSQL and Redis started by scripts/services.sh), the
# real-API check of the stubs and models (apicheck/), the example project, and a bounded
# run of each fuzz target. It is the README's test command and what .ci/run calls.
#
#   scripts/test.sh          everything (what CI runs)
#   scripts/test.sh quick    the inner loop: the root module's vet and tests with -short
#                            (the standard-library robustness run skipped), and the runtime
#                            module on its memory store (no services); under 2 minutes on
#                            2 cores with warm caches
#
# Every step runs, whatever the ones before it gave: a failure is recorded, the run goes on,
# and the end lists every step that failed (exit 1) so that one run tells everything. Every
# go test has an explicit -timeout with room for a loaded 2-core machine (go test's default,
# 10 minutes, is a deadline a busy CI runner can hit with nothing wrong).
#
# The services the full run starts (PostgreSQL, Redis) are stopped when it ends, unless they
# were already running or KEEP_SERVICES=1; stop them by hand with scripts/services.sh stop.
set -uo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*" >&2; }
start=$SECONDS
failed=()

# run NAME CMD...: runs one step (a shell command string, in a subshell that stops at its
# first failing command) and records it when it fails.
run() {
  local name=$1; shift
  step "$name"
  local t=$SECONDS
  if bash -euo pipefail -c "$*"; then
    printf '   ok: %s (%ds)\n' "$name" $(( SECONDS - t )) >&2
  else
    printf '   FAILED: %s (%ds)\n' "$name" $(( SECONDS - t )) >&2
    failed+=("$name")
  fi
}

# finish reports the run's outcome: every failed step, or that all passed.
finish() {
  if [ ${#failed[@]} -gt 0 ]; then
    step "${#failed[@]} step(s) failed ($(( SECONDS - start ))s):"
    printf '   - %s\n' "${failed[@]}" >&2
    exit 1
  fi
  step "all tests passed ($(( SECONDS - start ))s)"
}

# A test binary's deadline: far above what any package takes on a loaded machine, so that
# only a hang reaches it.
T=${TEST_TIMEOUT:-30m}

case "${1:-full}" in
  quick)
    run "root module: vet and tests (-short)" "go vet ./... && go test -timeout $T -short ./..."
    run "idempotency module: tests on the memory store (no services)" \
      "cd idempotency && go vet ./... && env -u CI -u IDEMPOTENCY_TEST_POSTGRES_DSN -u IDEMPOTENCY_TEST_REDIS_ADDR go test -timeout $T ./..."
    finish
    exit 0
    ;;
  full) ;;
  *) echo "usage: $0 [quick]" >&2; exit 2 ;;
esac

# On a fresh machine much of the run is waiting for modules: fetch every module's
# dependencies in the background while the services are installed and the root module is
# tested (the go command locks its module cache, so this is safe beside the other steps).
step "module downloads (in the background)"
(for m in . idempotency apicheck examples integration/sarif integration/report integration/golangci integration/gopls; do
  (cd "$m" && go mod download) || true
done) >/dev/null 2>&1 &
prefetch=$!

step "services (PostgreSQL, Redis)"
if scripts/services.sh status 2>/dev/null || [ "${KEEP_SERVICES:-}" = 1 ]; then
  : # already running (someone else's), or asked to keep: leave them running
else
  trap 'scripts/services.sh stop' EXIT
fi
if exports=$(scripts/services.sh); then
  eval "$exports"
else
  failed+=("services (PostgreSQL, Redis): the runtime module's store tests ran without them")
fi

run "root module: vet and tests" "go vet ./... && go test -timeout $T ./..."

# Fuzz targets run a bounded number of inputs, not a duration: a duration ends with a
# deadline the fuzzing coordinator can miss on a loaded machine ("context deadline
# exceeded"), which would fail CI for nothing found.
run "fuzz: SQL statement classifier (bounded)" \
  "go test -timeout $T -run='^\$' -fuzz=FuzzClassify -fuzztime=${FUZZTIME:-500000x} ./internal/sqlstmt"
run "fuzz: model file loader (bounded)" \
  "go test -timeout $T -run='^\$' -fuzz=FuzzParse -fuzztime=${FUZZTIME:-50000x} ./internal/model"
run "fuzz: directive parser (bounded)" \
  "go test -timeout $T -run='^\$' -fuzz=FuzzParse -fuzztime=${FUZZTIME:-1000000x} ./internal/directive"
run "fuzz: fact decoder (bounded)" \
  "go test -timeout $T -run='^\$' -fuzz=FuzzFactDecode -fuzztime=${FUZZTIME:-300000x} ./internal/effect"

run "idempotency module: tests under the race detector" \
  "cd idempotency && go vet ./... && go test -timeout $T -race ./..."

# -count=1: the stubs it reads are outside its module, beyond the test cache.
run "apicheck: stubs and models against the real libraries" "cd apicheck && go test -timeout $T -count=1 ./..."

run "examples: build and vet" "cd examples && go build ./... && go vet ./..."

run "integration: SARIF and JSON output against their schemas" \
  "cd integration/sarif && go vet ./... && go test -timeout $T ./..."

run "integration: handler inventory in headless Chromium" \
  "command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; }
   cd integration/report && go vet ./... && REPORT_SCREENSHOT=\"\${TMPDIR:-/tmp}/idemlint-report.png\" go test -timeout $T ./..."

run "golangci-lint plugin, go vet, VS Code and Neovim command lines (integration/golangci)" \
  "cd integration/golangci && go vet ./... && go test -timeout 45m ./..."

run "gopls with idemlint over LSP (integration/gopls)" \
  "cd integration/gopls && go vet ./... && go test -timeout 45m ./..."

wait "$prefetch" || true
finish
