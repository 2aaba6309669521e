#!/usr/bin/env bash
# Issue 25's speed figure: `errdex lint` of Debian's whole Go tree
# (/usr/share/gocode/src) against staticcheck running one comparable rule
# (ST1005, error strings; Debian's go-staticcheck) in the same run. Each
# runs twice: with an empty cache (errdex's facts cache, staticcheck's build
# cache) and warm. Usage: bench/lint/bench.sh (ERRDEX=path/to/errdex;
# SKIP_WHOLE_TREE_STATICCHECK=1 leaves out staticcheck's 13-minute cold run
# of the whole tree, which ends in a panic in staticcheck 2023.1)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
E=${ERRDEX:-$here/target/release/errdex}
src=/usr/share/gocode/src
command -v go-staticcheck >/dev/null || { echo "needs go-staticcheck: apt-get install go-staticcheck" >&2; exit 2; }
[ -d "$src" ] || { echo "no $src: run ../shared/bench/corpora.sh go" >&2; exit 2; }
# Runs a command, its output in /tmp/errdex-lint-bench.out (stderr in .err);
# prints the seconds it took.
t() { local s; s=$(date +%s.%N); "$@" > /tmp/errdex-lint-bench.out 2> /tmp/errdex-lint-bench.err || true; python3 -c "print(f'{$(date +%s.%N) - $s:.1f} s')"; }
found() { python3 -c "import json; print(json.load(open('/tmp/errdex-lint-bench.out'))['summary']['findings'])" 2>/dev/null || echo '?'; }
ecache=/tmp/errdex-lint-bench-cache
rm -rf "$ecache"
echo "== the whole tree ($src)"
echo "errdex lint --rule style, cold cache: $(t "$E" lint "$src" --rule style --format json --cache-dir "$ecache") ($(found) findings)"
echo "errdex lint --rule style, warm cache: $(t "$E" lint "$src" --rule style --format json --cache-dir "$ecache") ($(found) findings)"
echo "errdex lint, all rules, warm cache:   $(t "$E" lint "$src" --format json --cache-dir "$ecache") ($(found) findings)"
export GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS=
if [ -z "${SKIP_WHOLE_TREE_STATICCHECK:-}" ]; then
export GOCACHE=/tmp/errdex-lint-bench-gocache
rm -rf "$GOCACHE"
cd "$src"
echo "staticcheck -checks ST1005 ./..., cold cache: $(t go-staticcheck -checks ST1005 ./...)"
cat /tmp/errdex-lint-bench.err >> /tmp/errdex-lint-bench.out
echo "  ST1005 findings: $(grep -c '(ST1005)' /tmp/errdex-lint-bench.out || true); other output lines (packages that do not build): $(grep -vc '(ST1005)' /tmp/errdex-lint-bench.out || true)"
echo "staticcheck, warm cache:   $(t go-staticcheck -checks ST1005 ./...)"
cat /tmp/errdex-lint-bench.err >> /tmp/errdex-lint-bench.out
echo "  output: $(head -c 300 /tmp/errdex-lint-bench.out | head -3 | tr '\n' ' ')"
fi

# On the whole tree staticcheck 2023.1 (Debian's) stops at a panic in one
# package; on one repository at a time it completes. Each tree: errdex's
# rule and staticcheck's, cold (a fresh build cache) and warm.
for tree in go.etcd.io/etcd github.com/containerd/containerd; do
  export GOCACHE=/tmp/errdex-lint-bench-gocache-$(basename "$tree")
  rm -rf "$GOCACHE"
  cd "$src/$tree"
  echo "== $tree"
  rm -rf "$ecache"
  echo "errdex lint --rule style, cold: $(t "$E" lint . --rule style --format json --cache-dir "$ecache") ($(found) findings)"
  echo "errdex lint --rule style, warm: $(t "$E" lint . --rule style --format json --cache-dir "$ecache")"
  echo "staticcheck ST1005, cold:   $(t go-staticcheck -checks ST1005 ./...) ($(grep -c '(ST1005)' /tmp/errdex-lint-bench.out || true) findings)"
  echo "staticcheck ST1005, warm:   $(t go-staticcheck -checks ST1005 ./...)"
done
