#!/usr/bin/env bash
# etcd 3.4.23 (Debian etcd-server/etcd-client, `corpora.sh programs`).
# The lines in log.txt were captured for crates/explain/tests/real_etcd.rs
# from these kinds of runs (the original script was not kept; this one
# provokes the same errors): a data dir that cannot be made, missing TLS
# files, an unknown local name, a port in use, a corrupt WAL, mismatched
# advertise URLs, https without certs, a bad flag value; then etcdctl
# against a live server (bad args, missing leases, users, roles, members,
# future and compacted revisions).
set -uo pipefail
T=$(mktemp -d); trap 'rm -rf "$T"; kill %1 2>/dev/null' EXIT
e() { timeout 5 etcd "$@" 2>&1 | grep -E ' [CEWF] \| ' | tail -1; }
e --data-dir /proc/forbidden/x
e --data-dir "$T/a" --cert-file /nonexistent.crt --key-file /nonexistent.key --listen-client-urls https://127.0.0.1:23792 --advertise-client-urls https://127.0.0.1:23792
e --data-dir "$T/b" --name a --initial-cluster b=http://127.0.0.1:23800
python3 -m http.server 23799 --bind 127.0.0.1 >/dev/null 2>&1 & sleep 1
e --data-dir "$T/c" --listen-client-urls http://127.0.0.1:23799 --advertise-client-urls http://127.0.0.1:23799
kill %1
e --data-dir "$T/d" --initial-cluster default=http://127.0.0.1:23810 --initial-advertise-peer-urls http://127.0.0.1:23811 --listen-peer-urls http://127.0.0.1:23811
e --data-dir "$T/e" --listen-client-urls https://127.0.0.1:23792 --advertise-client-urls https://127.0.0.1:23792
e --data-dir "$T/f" --auto-compaction-mode bogus
etcd --data-dir "$T/live" --listen-client-urls http://127.0.0.1:23890 --advertise-client-urls http://127.0.0.1:23890 --listen-peer-urls http://127.0.0.1:23891 >/dev/null 2>&1 &
sleep 2
c() { ETCDCTL_API=3 timeout 5 etcdctl --endpoints 127.0.0.1:23890 "$@" 2>&1 </dev/null; }
c put; c member remove zz; c lease revoke xyz; c lease timetolive zz
c snapshot status /nonexistent.db; c del; c lease grant; c lease keep-alive
c --command-timeout 1ms get k; c lease revoke 1234
c get k --rev 9999; c user get root; c role get nosuch; c user get nosuch
c member remove 1234; c move-leader 1234; c lease timetolive 1234 --keys
c user add root:x; c user add root:x; c compact 2; c get k --rev 1
