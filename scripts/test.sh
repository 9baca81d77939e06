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
# The services the full run starts (PostgreSQL, Redis) are stopped when it ends, unless they
# were already running or KEEP_SERVICES=1; stop them by hand with scripts/services.sh stop.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*" >&2; }
start=$SECONDS
done_msg() { step "all tests passed ($(( SECONDS - start ))s)"; }

case "${1:-full}" in
  quick)
    step "root module: vet and tests (-short)"
    go vet ./...
    go test -short ./...
    step "idempotency module: tests on the memory store (no services)"
    (cd idempotency && go vet ./... && env -u CI -u IDEMPOTENCY_TEST_POSTGRES_DSN -u IDEMPOTENCY_TEST_REDIS_ADDR go test ./...)
    done_msg
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
eval "$(scripts/services.sh)"

step "root module: vet and tests"
go vet ./...
go test ./...

# Fuzz targets run a bounded number of inputs, not a duration: a duration ends with a
# deadline the fuzzing coordinator can miss on a loaded machine ("context deadline
# exceeded"), which would fail CI for nothing found.
step "fuzz: SQL statement classifier (bounded)"
go test -run='^$' -fuzz=FuzzClassify -fuzztime="${FUZZTIME:-500000x}" ./internal/sqlstmt

step "fuzz: model file loader (bounded)"
go test -run='^$' -fuzz=FuzzParse -fuzztime="${FUZZTIME:-50000x}" ./internal/model

step "fuzz: directive parser (bounded)"
go test -run='^$' -fuzz=FuzzParse -fuzztime="${FUZZTIME:-1000000x}" ./internal/directive

step "fuzz: fact decoder (bounded)"
go test -run='^$' -fuzz=FuzzFactDecode -fuzztime="${FUZZTIME:-300000x}" ./internal/effect

step "idempotency module: tests under the race detector"
(cd idempotency && go vet ./... && go test -race ./...)

step "apicheck: stubs and models against the real libraries"
(cd apicheck && go test -count=1 ./...)  # -count=1: the stubs it reads are outside its module, beyond the test cache

step "examples: build and vet"
(cd examples && go build ./... && go vet ./...)

step "integration: SARIF and JSON output against their schemas"
(cd integration/sarif && go vet ./... && go test ./...)

step "integration: handler inventory in headless Chromium"
command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; }
(cd integration/report && go vet ./... && REPORT_SCREENSHOT="${TMPDIR:-/tmp}/idemlint-report.png" go test ./...)

step "golangci-lint plugin, go vet, VS Code and Neovim command lines (integration/golangci)"
(cd integration/golangci && go vet ./... && go test -timeout 30m ./...)

step "gopls with idemlint over LSP (integration/gopls)"
(cd integration/gopls && go vet ./... && go test -timeout 30m ./...)

wait "$prefetch" || true
done_msg
