#!/usr/bin/env bash
# Benchmarks idemlint against its floor (the same driver running an analyzer that only needs
# type information), staticcheck v0.8.2 and go vet, on the corpus module (well over a
# thousand packages). Runs alternate, RUNS times each (default 3); it prints the median wall
# time, CPU time (user+sys) and peak RSS of each, the ratios the targets are stated in, and
# the bytes of facts idemlint exports, and idemlint against the floor on a generated layered
# module (cmd/layered) where the program-wide link does work. Ratios, not absolute times.
#
# idemlint's result cache is measured in the same runs, on both modules: cold (-cache=off,
# and with an empty cache, which adds computing the keys and storing each package's
# analysis and export data), warm (the cache the cold run filled, nothing changed: against
# staticcheck's warm run on its own filled cache) and after one edit of a handler file, on
# the same cache, of two kinds: a line added to the handler's body (one-change: the
# package's declarations stay where they were, but the effect's call below the line moves,
# and with it the facts that name its line) and a line added above its declarations (moved:
# every declaration moves too). Both analyse the package and what imports it again; an edit
# that moves no line the facts name would stop at the package (internal/driver: TestReuseStopsWhereNothingImportersReadChanged).
#
#   bench/bench.sh            # from the repository root or bench/
#   RUNS=5 bench/bench.sh
#   VET=0 bench/bench.sh      # without go vet (a cold go vet run takes minutes)
#   BASE=v0.3.0 bench/bench.sh  # also a build of that revision, cold, in the same runs:
#                             # the change's cost as ratios to it (target <= 1.05)
#   SCALE="250p 30 480 980" bench/bench.sh  # also the scaling table: the layered module
#                             # with that many domains written into the corpus module (its
#                             # real dependencies; 980 domains make about 3,000 packages), or
#                             # alone for an N ending in p, idemlint (and BASE) without a
#                             # cache against staticcheck's cold run
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-3}
vet=${VET:-1}
base=${BASE:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# No run reads or fills the user's cache: the cached modes name their own directories.
export IDEMLINT_CACHE=off

echo "building idemlint, floor and staticcheck v0.8.2" >&2
go build -o "$work/idemlint" github.com/chokaq/idemlint/cmd/idemlint
go build -o "$work/floor" ./cmd/floor
GOBIN="$work" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
go build -o "$work/factsize" ./cmd/factsize
if [ -n "$base" ]; then
  echo "building idemlint at $base" >&2
  mkdir -p "$work/base-src"
  git -C .. archive "$base" | tar -x -C "$work/base-src"
  (cd "$work/base-src" && go build -o "$work/idemlint-base" ./cmd/idemlint)
fi
go list -deps ./corpus >/dev/null # download and warm the module cache
npkg=$(go list -deps ./corpus | wc -l)
echo "corpus: $npkg packages in the import closure" >&2

# The corpus is measured in a copy of this module (its replace made absolute) with one
# handler file added, which the one-change runs edit.
repo=$(cd .. && pwd)
mkdir -p "$work/bench"
cp -r go.mod go.sum corpus "$work/bench/"
(cd "$work/bench" && go mod edit -replace "github.com/chokaq/idemlint=$repo")
cat >"$work/bench/corpus/handler.go" <<'GO'
package corpus

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
)

var db *sql.DB

// Register hands the handler to asynq: the one-change runs edit this file.
func Register(mux *asynq.ServeMux) { mux.HandleFunc("charge", handleCharge) }

func handleCharge(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO charges (payload) VALUES ($1)", t.Payload())
	return err
}
GO

# measure NAME CMD...: one run, appending "wall cpu rss_kib" to $work/NAME.
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.out" "$@" >/dev/null 2>"$work/$name.stderr" || {
    local code=$?
    # idemlint exits 3 with findings, staticcheck 1 with problems, go vet 1 with reports.
    case "$name:$code" in idemlint*:3 | layered-idemlint*:3 | scale-*-idemlint*:3 | staticcheck*:1 | scale-*-staticcheck:1 | vet:1) ;; *)
      echo "$name failed ($code):" >&2
      tail -5 "$work/$name.stderr" >&2
      exit 1
      ;;
    esac
  }
  # The last line: GNU time writes "Command exited with non-zero status N" before it.
  tail -n 1 "$work/time.out" | awk '{printf "%s %.2f %s\n", $1, $2+$3, $4}' >>"$work/m.$name"
}

# cached NAME CACHE DIR FILE ARGS...: in DIR, the cold run with CACHE empty (it fills it),
# the warm run on it, a run after a line is added to the body of FILE's handler (above its
# first return), and a run after a line is added above FILE's first declaration, all with
# ARGS.
cached() {
  local name=$1 cache=$2 dir=$3 file=$4
  shift 4
  (cd "$dir" && measure "$name-cached-cold" "$work/idemlint" -q -cache="$cache" "$@")
  (cd "$dir" && measure "$name-warm" "$work/idemlint" -q -cache="$cache" "$@")
  sed -i "0,/^\treturn /s//\t_ = \"edited by bench.sh run $(date +%s%N)\"\n&/" "$dir/$file"
  (cd "$dir" && measure "$name-one-change" "$work/idemlint" -q -cache="$cache" "$@")
  sed -i "0,/^\(type\|func\|var\) /s//\/\/ edited by bench.sh run $(date +%s%N)\n&/" "$dir/$file"
  (cd "$dir" && measure "$name-moved" "$work/idemlint" -q -cache="$cache" "$@")
}

for i in $(seq "$runs"); do
  echo "run $i/$runs" >&2
  (cd "$work/bench" && measure idemlint "$work/idemlint" -q -cache=off -program=patterns ./corpus)
  if [ -n "$base" ]; then
    (cd "$work/bench" && measure idemlint-base "$work/idemlint-base" -q -cache=off -program=patterns ./corpus)
  fi
  cached idemlint "$work/ic-$i" "$work/bench" corpus/handler.go -program=patterns ./corpus
  (cd "$work/bench" && measure floor "$work/floor" ./corpus)
  # staticcheck and go vet keep result caches: give each cold run an empty one, so every
  # run analyses everything (go vet's cache also holds compiled export data: it compiles
  # too). staticcheck's warm run reads the cache its cold run filled.
  (cd "$work/bench" && measure staticcheck env STATICCHECK_CACHE="$work/sc-cache-$i" "$work/staticcheck" ./corpus)
  (cd "$work/bench" && measure staticcheck-warm env STATICCHECK_CACHE="$work/sc-cache-$i" "$work/staticcheck" ./corpus)
  if [ "$vet" != 0 ]; then
    (cd "$work/bench" && measure vet env GOCACHE="$work/go-cache-$i" go vet ./corpus)
  fi
done

# The layered module: handlers reach their stores only through interfaces wired in main, so
# the program-wide link does work (a second and a third analysis round).
go run ./cmd/layered -n "${LAYERED:-100}" "$work/layered"
for i in $(seq "$runs"); do
  echo "layered run $i/$runs" >&2
  (cd "$work/layered" && measure layered-idemlint "$work/idemlint" -q -cache=off ./... && measure layered-floor "$work/floor" ./...)
  if [ -n "$base" ]; then
    (cd "$work/layered" && measure layered-idemlint-base "$work/idemlint-base" -q -cache=off ./...)
  fi
  cached layered-idemlint "$work/lc-$i" "$work/layered" d000/api/api.go ./...
done

# The scaling table: peak memory and wall time against the program's size.
scale=${SCALE:-}
for n in $scale; do
  dir="$work/scale-$n"
  mkdir -p "$dir"
  case "$n" in
  *p) go run ./cmd/layered -n "${n%p}" "$dir" ;; # the layered module alone: no dependencies but the standard library
  *)
    cp -r go.mod go.sum corpus "$dir/"
    (cd "$dir" && go mod edit -replace "github.com/chokaq/idemlint=$repo")
    go run ./cmd/layered -n "$n" -module github.com/chokaq/idemlint/bench -import github.com/chokaq/idemlint/bench/corpus "$dir"
    ;;
  esac
  echo "$(cd "$dir" && go list -deps ./... | wc -l)" >"$work/scale-$n.packages"
  for i in $(seq "$runs"); do
    echo "scale $n domains, run $i/$runs" >&2
    (cd "$dir" && measure "scale-$n-idemlint" "$work/idemlint" -q -cache=off ./...)
    if [ -n "$base" ]; then
      (cd "$dir" && measure "scale-$n-idemlint-base" "$work/idemlint-base" -q -cache=off ./...)
    fi
    (cd "$dir" && measure "scale-$n-staticcheck" env STATICCHECK_CACHE="$work/sc-scale-$n-$i" "$work/staticcheck" ./...)
  done
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
col() { awk -v c="$2" '{print $c}' "$work/m.$1" | median; }

tools="idemlint idemlint-cached-cold idemlint-warm idemlint-one-change idemlint-moved floor staticcheck staticcheck-warm"
[ "$vet" != 0 ] && tools="$tools vet"
tools="$tools layered-idemlint layered-idemlint-cached-cold layered-idemlint-warm layered-idemlint-one-change layered-idemlint-moved layered-floor"
[ -n "$base" ] && tools="$tools idemlint-base layered-idemlint-base"
printf '\n%-30s %10s %10s %12s\n' tool "wall (s)" "cpu (s)" "peak RSS MiB"
for t in $tools; do
  printf '%-30s %10s %10s %12.0f\n' "$t" "$(col "$t" 1)" "$(col "$t" 2)" "$(awk -v k="$(col "$t" 3)" 'BEGIN {print k / 1024}')"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
# r NAME OTHER COLUMN: the ratio of two medians (1 wall, 2 CPU, 3 peak RSS).
r() { ratio "$(col "$1" "$3")" "$(col "$2" "$3")"; }
echo
echo "corpus:"
echo "  idemlint / floor:          wall $(r idemlint floor 1)x (target <= 0.92)   peak RSS $(r idemlint floor 3)x (target <= 0.74)"
echo "  idemlint / staticcheck:    wall $(r idemlint staticcheck 1)x (target < 1)   peak RSS $(r idemlint staticcheck 3)x, with an empty cache $(r idemlint-cached-cold staticcheck 3)x (target <= 1.0: both cold)"
[ "$vet" != 0 ] && echo "  idemlint / go vet (cold):  wall $(r idemlint vet 1)x"
echo "  cache: cold with an empty cache / cold without: wall $(r idemlint-cached-cold idemlint 1)x   CPU $(r idemlint-cached-cold idemlint 2)x   / floor: wall $(r idemlint-cached-cold floor 1)x, peak RSS $(r idemlint-cached-cold floor 3)x"
echo "  cache: warm / staticcheck warm: wall $(r idemlint-warm staticcheck-warm 1)x (target <= 1)   warm / cold: $(r idemlint-warm idemlint 1)x"
echo "  cache: one change / cold:      wall $(r idemlint-one-change idemlint 1)x (target <= 0.3)   CPU $(r idemlint-one-change idemlint 2)x   declarations moved: wall $(r idemlint-moved idemlint 1)x"
[ -n "$base" ] && echo "  idemlint / idemlint at $base (cold): wall $(r idemlint idemlint-base 1)x   CPU $(r idemlint idemlint-base 2)x   peak RSS $(r idemlint idemlint-base 3)x (targets <= 1.05)"
echo "layered module (program-wide link):"
echo "  idemlint / floor:          wall $(r layered-idemlint layered-floor 1)x (target <= 1.0)   peak RSS $(r layered-idemlint layered-floor 3)x (target <= 0.8)"
echo "  cache: cold with an empty cache / cold without: wall $(r layered-idemlint-cached-cold layered-idemlint 1)x"
echo "  cache: warm / cold:        wall $(r layered-idemlint-warm layered-idemlint 1)x   one change / cold: wall $(r layered-idemlint-one-change layered-idemlint 1)x (target <= 0.3), CPU $(r layered-idemlint-one-change layered-idemlint 2)x   declarations moved: wall $(r layered-idemlint-moved layered-idemlint 1)x"
[ -n "$base" ] && echo "  idemlint / idemlint at $base (cold): wall $(r layered-idemlint layered-idemlint-base 1)x   peak RSS $(r layered-idemlint layered-idemlint-base 3)x (targets <= 1.05)"
if [ -n "$scale" ]; then
  echo
  echo "scaling (the layered module in the corpus module; medians; wall s / peak RSS MiB):"
  printf '%-10s %-20s %-20s %-20s %s\n' packages idemlint "${base:+idemlint at $base}" "staticcheck (cold)" "idemlint / staticcheck: wall, RSS"
  for n in $scale; do
    mib() { awk -v k="$(col "$1" 3)" 'BEGIN {printf "%.0f", k / 1024}'; }
    b=""
    [ -n "$base" ] && b="$(col "scale-$n-idemlint-base" 1) / $(mib "scale-$n-idemlint-base")"
    printf '%-10s %-20s %-20s %-20s %s\n' "$(cat "$work/scale-$n.packages")" "$(col "scale-$n-idemlint" 1) / $(mib "scale-$n-idemlint")" "$b" \
      "$(col "scale-$n-staticcheck" 1) / $(mib "scale-$n-staticcheck")" "$(r "scale-$n-idemlint" "scale-$n-staticcheck" 1)x, $(r "scale-$n-idemlint" "scale-$n-staticcheck" 3)x (targets <= 1, <= 1.5)"
  done
fi
echo
"$work/factsize" ./corpus

# Robustness: the whole standard library, analysed in full (-std), must give no analysis
# error and no panic (a panic would be an error naming the package).
echo
echo "robustness: idemlint -std over the whole standard library" >&2
status=0
"$work/idemlint" -std -cache=off -format json -o "$work/std.json" std 2>"$work/std.stderr" || status=$?
if [ "$status" -ne 0 ] || ! grep -q '"errors": \[\]' "$work/std.json"; then
  echo "robustness: exit status $status, errors over the standard library:" >&2
  grep -A5 '"errors"' "$work/std.json" >&2 || cat "$work/std.stderr" >&2
  exit 1
fi
tail -1 "$work/std.stderr"
