#!/usr/bin/env bash
# Redis 7.0.15 (C database server and redis-cli; Debian bookworm
# redis-server / redis-tools 5:7.0.15-1~deb12u10), run on 127.0.0.1 with
# its own log format (`PID:ROLE DD Mon YYYY HH:MM:SS.mmm # msg`).
# Provoked: a port in use, a missing config file, an unknown directive, a
# bad memory value, an unusable dir, a corrupt RDB file; then redis-cli
# against a closed port and against a live server with a password (no
# auth, wrong password, unknown command, wrong type, wrong arity, a bad
# integer). Server warnings/errors and the client's output verbatim; the
# temp dir is normalised to /tmp/rdx.
set -uo pipefail
redis-server --version | grep -q ' v=7.0.15 ' || { echo "need redis 7.0.15" >&2; exit 1; }
T=$(mktemp -d /tmp/rdx.XXXX)
trap '[ -f "$T/live.pid" ] && kill "$(cat "$T/live.pid")" 2>/dev/null; [ -f "$T/py.pid" ] && kill "$(cat "$T/py.pid")" 2>/dev/null; sleep 1; rm -rf "$T"' EXIT
cd "$T"
s() { timeout 5 redis-server "$@" 2>&1 | awk 'after || / # |FATAL|^>>>|^Reading the configuration/ { print } { after = /^>>>/ }'; }
{
  python3 -m http.server 16379 --bind 127.0.0.1 >/dev/null 2>&1 & echo $! > "$T/py.pid"
  sleep 1
  s --port 16379 --bind 127.0.0.1 --save '' --dir "$T"
  kill "$(cat "$T/py.pid")"; rm "$T/py.pid"
  s /nonexistent.conf
  s --port 16380 --bogus-directive x
  s --port 16380 --maxmemory abc
  s --port 16380 --dir /nonexistent
  printf 'REDIS0009garbage-garbage-garbage' > "$T/dump.rdb"
  s --port 16380 --bind 127.0.0.1 --dir "$T" --dbfilename dump.rdb
  rm -f "$T/dump.rdb"
  redis-cli -p 9 ping
  redis-server --port 16381 --bind 127.0.0.1 --save '' --dir "$T" --requirepass secret --daemonize yes --pidfile "$T/live.pid" --logfile "$T/live.log"
  sleep 1
  redis-cli -p 16381 set k v
  redis-cli -p 16381 -a wrong --no-auth-warning ping
  redis-cli -p 16381 -a secret --no-auth-warning foo bar
  redis-cli -p 16381 -a secret --no-auth-warning lpush mylist x >/dev/null
  redis-cli -p 16381 -a secret --no-auth-warning get mylist
  redis-cli -p 16381 -a secret --no-auth-warning get
  redis-cli -p 16381 -a secret --no-auth-warning incr mylist
  redis-cli -p 16381 -a secret --no-auth-warning set n abc >/dev/null
  redis-cli -p 16381 -a secret --no-auth-warning incr n
  redis-cli -p 16381 -a secret --no-auth-warning config set maxmemory abc
} 2>&1 | sed "s|$T|/tmp/rdx|g"
