#!/usr/bin/env bash
# Builds gopls with idemlint's analyzer registered beside gopls's own, for editors that run
# gopls (see docs/editors.md). gopls does not load third-party analyzers (golang/go#59869),
# so this script takes gopls's source from the Go module proxy, copies it to a temporary
# directory, adds one file that appends idemlint's Analyzer to gopls's analyzer list, points
# the module github.com/chokaq/idemlint at this checkout and builds. No gopls code is kept in
# this repository; the temporary directory is removed on exit.
#
# Usage: scripts/build-gopls.sh [OUTPUT]     (default: bin/gopls-idemlint)
#
# Needs Go 1.26 (gopls v0.23.0 is the last release that builds with it) and the module proxy.
set -euo pipefail

GOPLS_VERSION=v0.23.0

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/bin/gopls-idemlint}
case $out in
/*) ;;
*) out=$PWD/$out ;;
esac

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOWORK=off GOFLAGS=-mod=mod

# The module cache's copy is read-only and shared: copy it before adding a file.
src=$(cd "$work" && go mod download -json "golang.org/x/tools/gopls@$GOPLS_VERSION" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
if [ -z "$src" ] || [ ! -f "$src/go.mod" ]; then
	echo "build-gopls: could not download golang.org/x/tools/gopls@$GOPLS_VERSION" >&2
	exit 1
fi
cp -R "$src" "$work/gopls"
chmod -R u+w "$work/gopls"

cat >"$work/gopls/internal/settings/idemlint.go" <<'GO'
package settings

import idemlint "github.com/chokaq/idemlint/analyzer"

// Added by idemlint's scripts/build-gopls.sh: idemlint runs with gopls's own analyzers, is
// on by default, and is turned off with the gopls setting "analyses": {"idemlint": false}.
func init() {
	AllAnalyzers = append(AllAnalyzers, &Analyzer{analyzer: idemlint.Analyzer})
}
GO

cd "$work/gopls"
# gopls is built against one x/tools commit and uses its internal packages; idemlint needs
# only the public go/analysis API, so x/tools stays at the version gopls asks for.
tools=$(go list -m -f '{{.Version}}' golang.org/x/tools)
go mod edit -require=github.com/chokaq/idemlint@v0.0.0 -replace=github.com/chokaq/idemlint="$root" \
	-replace=golang.org/x/tools="golang.org/x/tools@$tools"
mkdir -p "$(dirname "$out")"
go build -trimpath -o "$out" .
echo "build-gopls: built $out (gopls $GOPLS_VERSION with idemlint)" >&2
