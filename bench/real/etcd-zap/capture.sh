#!/usr/bin/env bash
# etcd 3.4.23 server (Debian etcd-server 3.4.23-4+b4, `corpora.sh programs`)
# with the structured zap logger (`--logger zap`: one JSON object a line on
# stderr), started wrongly: a port in use, a data dir it cannot create,
# missing TLS files, a bad initial cluster, a corrupt member dir; and a
# live server whose peer is refused. Every line verbatim; only the error-
# and warn-level lines are kept (the info lines of a normal start are not
# failures).
set -uo pipefail
etcd --version | grep -q '^etcd Version: 3.4.23$' || { echo "need etcd 3.4.23" >&2; exit 1; }
T=$(mktemp -d /tmp/etcdz.XXXX)
trap 'kill $PY 2>/dev/null; rm -rf "$T"' EXIT
Z=(--logger zap --log-outputs stderr)
e() { timeout 6 etcd "${Z[@]}" "$@" 2>&1 | grep -E '"level":"(warn|error|fatal|panic)"'; }
python3 -m http.server 24379 --bind 127.0.0.1 >/dev/null 2>&1 & PY=$!
sleep 1
e --data-dir "$T/a" --listen-client-urls http://127.0.0.1:24379 --advertise-client-urls http://127.0.0.1:24379 --listen-peer-urls http://127.0.0.1:24380
kill $PY
e --data-dir /proc/forbidden/x --listen-client-urls http://127.0.0.1:24379 --advertise-client-urls http://127.0.0.1:24379 --listen-peer-urls http://127.0.0.1:24380
e --data-dir "$T/b" --listen-client-urls https://127.0.0.1:24379 --advertise-client-urls https://127.0.0.1:24379 --cert-file /nonexistent.crt --key-file /nonexistent.key --listen-peer-urls http://127.0.0.1:24380
e --data-dir "$T/c" --name a --initial-cluster b=http://127.0.0.1:24380 --listen-client-urls http://127.0.0.1:24379 --advertise-client-urls http://127.0.0.1:24379 --listen-peer-urls http://127.0.0.1:24380
e --data-dir "$T/d" --initial-cluster default=http://127.0.0.1:24380 --initial-advertise-peer-urls http://127.0.0.1:24381 --listen-peer-urls http://127.0.0.1:24381 --listen-client-urls http://127.0.0.1:24379 --advertise-client-urls http://127.0.0.1:24379
e --data-dir "$T/e" --auto-compaction-mode bogus
e --data-dir "$T/f" --listen-client-urls http://127.0.0.1:24379 --advertise-client-urls http://127.0.0.1:24379 --listen-peer-urls http://127.0.0.1:24380 --initial-cluster-state existing
# A member dir with a corrupt WAL: start once, then break the WAL file.
timeout 4 etcd --data-dir "$T/g" --listen-client-urls http://127.0.0.1:24379 --advertise-client-urls http://127.0.0.1:24379 --listen-peer-urls http://127.0.0.1:24380 >/dev/null 2>&1
for w in "$T"/g/member/wal/*.wal; do printf 'garbagegarbagegarbage' | dd of="$w" bs=1 seek=200 conv=notrunc 2>/dev/null; done
e --data-dir "$T/g" --listen-client-urls http://127.0.0.1:24379 --advertise-client-urls http://127.0.0.1:24379 --listen-peer-urls http://127.0.0.1:24380
# A two-member cluster whose second member never starts: the first keeps
# failing to reach its peer.
e --data-dir "$T/h" --name m1 --initial-cluster m1=http://127.0.0.1:24380,m2=http://127.0.0.1:24390 --initial-advertise-peer-urls http://127.0.0.1:24380 --listen-peer-urls http://127.0.0.1:24380 --listen-client-urls http://127.0.0.1:24379 --advertise-client-urls http://127.0.0.1:24379 | head -8
