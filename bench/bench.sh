#!/usr/bin/env bash
# Benchmarks idemlint against its floor (the same driver running an analyzer that only needs
# type information), staticcheck v0.8.2 and go vet, on the corpus module (well over a
# thousand packages). Runs alternate, RUNS times each (default 3); it prints the median wall
# time, CPU time (user+sys) and peak RSS of each, the ratios the targets are stated in, and
# the bytes of facts idemlint exports, and idemlint against the floor on a generated layered
# module (cmd/layered) where the program-wide link does work. Ratios, not absolute times.
#
#   bench/bench.sh            # from the repository root or bench/
#   RUNS=5 bench/bench.sh
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building idemlint, floor and staticcheck v0.8.2" >&2
go build -o "$work/idemlint" github.com/chokaq/idemlint/cmd/idemlint
go build -o "$work/floor" ./cmd/floor
GOBIN="$work" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
go build -o "$work/factsize" ./cmd/factsize
go list -deps ./corpus >/dev/null # download and warm the module cache
npkg=$(go list -deps ./corpus | wc -l)
echo "corpus: $npkg packages in the import closure" >&2

# measure NAME CMD...: one run, appending "wall cpu rss_kib" to $work/NAME.
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.out" "$@" >/dev/null 2>"$work/$name.stderr" || {
    local code=$?
    # idemlint exits 3 with findings, staticcheck 1 with problems, go vet 1 with reports.
    case "$name:$code" in idemlint:3 | layered-idemlint:3 | staticcheck:1 | vet:1) ;; *)
      echo "$name failed ($code):" >&2
      tail -5 "$work/$name.stderr" >&2
      exit 1
      ;;
    esac
  }
  # The last line: GNU time writes "Command exited with non-zero status N" before it.
  tail -n 1 "$work/time.out" | awk '{printf "%s %.2f %s\n", $1, $2+$3, $4}' >>"$work/m.$name"
}

for i in $(seq "$runs"); do
  echo "run $i/$runs" >&2
  measure idemlint "$work/idemlint" -q -program=patterns ./corpus
  measure floor "$work/floor" ./corpus
  # staticcheck and go vet keep result caches: give each run an empty one, so every run
  # analyses everything (go vet's cache also holds compiled export data: it compiles too).
  measure staticcheck env STATICCHECK_CACHE="$work/sc-cache-$i" "$work/staticcheck" ./corpus
  measure vet env GOCACHE="$work/go-cache-$i" go vet ./corpus
done

# The layered module: handlers reach their stores only through interfaces wired in main, so
# the program-wide link does work (a second and a third analysis round).
go run ./cmd/layered -n "${LAYERED:-100}" "$work/layered"
for i in $(seq "$runs"); do
  echo "layered run $i/$runs" >&2
  (cd "$work/layered" && measure layered-idemlint "$work/idemlint" -q ./... && measure layered-floor "$work/floor" ./...)
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
col() { awk -v c="$2" '{print $c}' "$work/m.$1" | median; }

printf '\n%-12s %10s %10s %12s\n' tool "wall (s)" "cpu (s)" "peak RSS MiB"
for t in idemlint floor staticcheck vet; do
  printf '%-12s %10s %10s %12.0f\n' "$t" "$(col "$t" 1)" "$(col "$t" 2)" "$(awk -v k="$(col "$t" 3)" 'BEGIN {print k / 1024}')"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo
echo "idemlint / floor:        wall $(ratio "$(col idemlint 1)" "$(col floor 1)")x (target <= 1.2)   peak RSS $(ratio "$(col idemlint 3)" "$(col floor 3)")x (target <= 1.3)"
echo "idemlint / staticcheck:  wall $(ratio "$(col idemlint 1)" "$(col staticcheck 1)")x (target < 1)"
echo "idemlint / go vet (cold): wall $(ratio "$(col idemlint 1)" "$(col vet 1)")x"
echo "layered module (program-wide link), idemlint / floor: wall $(ratio "$(col layered-idemlint 1)" "$(col layered-floor 1)")x (target <= 1.0)   peak RSS $(ratio "$(col layered-idemlint 3)" "$(col layered-floor 3)")x (target <= 0.8)"
echo
"$work/factsize" ./corpus

# Robustness: the whole standard library, analysed in full (-std), must give no analysis
# error and no panic (a panic would be an error naming the package).
echo
echo "robustness: idemlint -std over the whole standard library" >&2
status=0
"$work/idemlint" -std -format json -o "$work/std.json" std 2>"$work/std.stderr" || status=$?
if [ "$status" -ne 0 ] || ! grep -q '"errors": \[\]' "$work/std.json"; then
  echo "robustness: exit status $status, errors over the standard library:" >&2
  grep -A5 '"errors"' "$work/std.json" >&2 || cat "$work/std.stderr" >&2
  exit 1
fi
tail -1 "$work/std.stderr"
