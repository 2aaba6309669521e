#!/usr/bin/env bash
# Release-history corpus for the "history" feature: the last 10 releases of
# semver on PyPI (bench/history/releases.txt, release order), each sdist
# unpacked with its top-level folder stripped. Idempotent.
#   bash bench/history/setup.sh
# Result: $CORPORA/history/semver-<VERSION>/ for each line of releases.txt,
#         the sdists in $CORPORA/history/sdist, and $CORPORA/history/.done.
set -euo pipefail
CORPORA=${CORPORA:-/var/tmp/errdex-corpora}
PKG=semver
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEST="$CORPORA/history"
mapfile -t VERSIONS < <(grep -v '^[[:space:]]*$' "$HERE/releases.txt")
[ ${#VERSIONS[@]} -eq 10 ] || { echo "expected 10 versions in $HERE/releases.txt, got ${#VERSIONS[@]}" >&2; exit 1; }
mkdir -p "$DEST/sdist"
all_there() { for v in "${VERSIONS[@]}"; do [ -f "$DEST/$PKG-$v/PKG-INFO" ] || return 1; done; }
if [ -f "$DEST/.done" ] && all_there; then
  echo "bench/history: ready under $DEST ($PKG-{$(IFS=,; echo "${VERSIONS[*]}")})"; exit 0
fi
rm -f "$DEST/.done"
for v in "${VERSIONS[@]}"; do
  out="$DEST/$PKG-$v"
  [ -f "$out/PKG-INFO" ] && continue
  sdist="$DEST/sdist/$PKG-$v.tar.gz"
  [ -f "$sdist" ] || pip download -q --no-deps --no-binary :all: "$PKG==$v" -d "$DEST/sdist"
  [ -f "$sdist" ] || { echo "pip download $PKG==$v did not produce $sdist" >&2; exit 1; }
  tmp=$(mktemp -d "$DEST/.unpack.XXXXXX")
  tar -xzf "$sdist" -C "$tmp" --strip-components=1
  chmod 755 "$tmp"
  rm -rf "$out"; mv "$tmp" "$out"
done
all_there || { echo "bench/history: some versions are missing under $DEST" >&2; exit 1; }
touch "$DEST/.done"
echo "bench/history: ready under $DEST ($PKG-{$(IFS=,; echo "${VERSIONS[*]}")})"
