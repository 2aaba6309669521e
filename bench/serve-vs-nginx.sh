#!/usr/bin/env bash
# Benchmark (not a test): errdex serve against nginx serving the exported
# static site of the same atlas, with wrk on loopback, same run.
#
#   bash bench/serve-vs-nginx.sh [SECONDS]
#
# Indexes the etcd corpus (../shared/bench/corpora.sh go) into
# bench/out/etcd.db, exports the site, starts both servers, and measures
# /api/errors/ID and one error page on each. Prints req/s, p99 and ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
etcd=/usr/share/gocode/src/go.etcd.io/etcd
for tool in wrk nginx; do
  command -v $tool >/dev/null || { echo "needs $tool: apt-get install wrk nginx" >&2; exit 2; }
done
[ -d $etcd ] || { echo "needs $etcd: bash ../shared/bench/corpora.sh go" >&2; exit 2; }
cargo build --release -q
bin=target/release/errdex
out=bench/out
mkdir -p $out
rm -f $out/etcd.db*
$bin --db $out/etcd.db index $etcd --repo etcd-io/etcd 2>/dev/null
$bin --db $out/etcd.db export --format site --out $out/etcd-site 2>/dev/null
id=$($bin --db $out/etcd.db list --json --limit 200 | sed -n '100p' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
slug=$($bin --db $out/etcd.db show "$id" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["record"]["slug"])')
page="/etcd-io/etcd/$slug/"

$bin --db $out/etcd.db serve --addr 127.0.0.1:18080 2>/dev/null &
errdex_pid=$!
conf=$(mktemp)
cat > "$conf" <<NGINX
worker_processes 2;
error_log /dev/null;
pid $(mktemp -u);
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/json;
  include /etc/nginx/mime.types;
  server {
    listen 127.0.0.1:18081;
    root $(pwd)/$out/etcd-site;
    location /api/ { default_type application/json; types { } }
  }
}
NGINX
nginx -c "$conf" -g 'daemon off;' &
nginx_pid=$!
trap 'kill $errdex_pid $nginx_pid 2>/dev/null; rm -f "$conf"' EXIT
sleep 1
curl -sf "http://127.0.0.1:18080/api/errors/$id" >/dev/null
curl -sf "http://127.0.0.1:18081/api/errors/$id" >/dev/null
curl -sf "http://127.0.0.1:18081$page" >/dev/null

run() { # name url -> "req/s p99ms"
  wrk -t2 -c32 -d${secs}s --latency "$2" | awk -v n="$1" '
    /Requests\/sec/ {rps=$2}
    / 99%/ {p=$2; if (p ~ /us$/) {sub(/us/,"",p); p=p/1000} else if (p ~ /ms$/) {sub(/ms/,"",p)} else if (p ~ /s$/) {sub(/s/,"",p); p=p*1000}}
    END {printf "%s %.0f %.2f\n", n, rps, p}'
}
echo "record $id, page $page, ${secs}s each, wrk -t2 -c32 on loopback"
{
  run errdex-json "http://127.0.0.1:18080/api/errors/$id"
  run nginx-json "http://127.0.0.1:18081/api/errors/$id"
  run errdex-html "http://127.0.0.1:18080$page"
  run nginx-html "http://127.0.0.1:18081$page"
} | tee $out/serve-vs-nginx.txt | awk '{printf "%-12s %8d req/s   p99 %6.2f ms\n", $1, $2, $3; r[$1]=$2}
  END {printf "ratio errdex/nginx: json %.2f, html %.2f\n", r["errdex-json"]/r["nginx-json"], r["errdex-html"]/r["nginx-html"]}'
