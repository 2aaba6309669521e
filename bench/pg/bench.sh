#!/usr/bin/env bash
# Issue 24's figures, in one run on this machine:
#  1. crawl throughput on PostgreSQL with 1, 2 and 4 workers: N Go modules
#     of Debian's gocode as repositories (bench/crawl/make-repos.sh), queued
#     with `errdex crawl`, taken by workers with --exit-when-idle.
#  2. serve: etcd indexed into SQLite and into PostgreSQL, one `errdex
#     serve` each, wrk on a search and a record page: req/s and p99.
# Usage: bench/pg/bench.sh [N] (ERRDEX=path/to/errdex; PG=postgres URL,
# default .ci/postgres.sh's; needs wrk: apt-get install wrk)
# The scale check (4 workers, 2 servers under wrk, kill trials) is
# bench/pg/scale.py.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
E=${ERRDEX:-$here/target/release/errdex}
N=${1:-80}
PG=${PG:-$(bash "$here/.ci/postgres.sh")}
work=/tmp/errdex-bench-pg
rm -rf "$work" && mkdir -p "$work"
now() { date +%s.%N; }
schema() { psql "$PG" -qc "SET client_min_messages = warning; DROP SCHEMA IF EXISTS $1 CASCADE; CREATE SCHEMA $1;" >/dev/null; echo "$PG?options=-c%20search_path%3D$1"; }

echo "== 1. crawl of $N repositories with 1, 2, 4 workers"
bash "$here/bench/crawl/make-repos.sh" "$work/repos" "$N" >/dev/null
for k in 1 2 4; do
  db=$(schema "bench_w$k")
  "$E" --db "$db" crawl "$work/repos/list.txt" >/dev/null 2>&1
  t0=$(now)
  for _ in $(seq "$k"); do
    ERRDEX_CACHE_DIR="$work/cache-$k" "$E" --db "$db" worker --exit-when-idle >/dev/null 2>&1 &
  done
  wait
  t1=$(now)
  done_n=$("$E" --db "$db" status | sed -n 's/.* \([0-9]*\) done.*/\1/p')
  python3 -c "s=$t1-$t0; print(f'{$k} worker(s): {$done_n} repositories in {s:.1f} s = {$done_n/s*3600:.0f} per hour')"
done

echo "== 2. serve from SQLite and from PostgreSQL (wrk, 2 threads, 16 connections, 10 s)"
etcd=/usr/share/gocode/src/go.etcd.io/etcd
pgdb=$(schema bench_serve)
"$E" --db "$work/etcd.db" index "$etcd" --repo etcd-io/etcd --no-cache >/dev/null 2>&1
"$E" --db "$pgdb" index "$etcd" --repo etcd-io/etcd --no-cache >/dev/null 2>&1
slug=$("$E" --db "$work/etcd.db" list --json | head -1 | python3 -c "import json,sys; print(json.load(sys.stdin)['slug'])")
port=18901
for name in sqlite postgres; do
  db=$work/etcd.db; [ "$name" = postgres ] && db=$pgdb
  "$E" --db "$db" serve --addr "127.0.0.1:$port" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 50); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  for path in "/api/search?q=request+timed+out" "/etcd-io/etcd/$slug"; do
    out=$(wrk -t2 -c16 -d10s --latency "http://127.0.0.1:$port$path")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    errs=$(echo "$out" | awk '/Non-2xx|Socket errors/ {print}' | tr '\n' ' ')
    echo "$name $path: $rps req/s, p99 $p99 ${errs:-0 failed}"
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  port=$((port + 1))
done
