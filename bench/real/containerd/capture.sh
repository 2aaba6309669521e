#!/usr/bin/env bash
# containerd 1.6.20 daemon and its ctr client (Go; logrus text logs
# `time="…" level=… msg="…" error="…"`, urfave/cli usage errors): Debian
# bookworm containerd 1.6.20~ds1-1+deb12u3, run as root in a private
# root/state/socket under a temp dir. Provoked: a missing and a broken
# config file, an unknown flag, an unwritable root, a second daemon on the
# same socket, the daemon's own plugin-loading errors in this sandbox
# (kept: warning and error lines, and info lines that carry an error=);
# then ctr against a missing socket and against the live daemon (missing
# containers, images, tasks, namespaces; bad arguments). Verbatim, but
# the temp dir is normalised to /tmp/ctd.
set -uo pipefail
containerd --version | grep -q ' 1.6.20~ds1 1.6.20~ds1-1+deb12u3$' || { echo "need containerd 1.6.20~ds1-1+deb12u3" >&2; exit 1; }
T=$(mktemp -d /tmp/ctd.XXXX)
trap '[ -f "$T/d.pid" ] && kill "$(cat "$T/d.pid")" 2>/dev/null; sleep 1; rm -rf "$T"' EXIT
cfg() { printf 'version = 2\nroot = "%s"\nstate = "%s"\n[grpc]\n  address = "%s"\n' "$1" "$T/state" "$T/ctd.sock" > "$T/config.toml"; }
keep() { grep -E 'level=(warning|error|fatal)|error=|^containerd: |^ctr: |Incorrect Usage'; }
{
  containerd --config /nonexistent.toml 2>&1 | keep
  printf 'version = 2\nroot = \n' > "$T/bad.toml"
  containerd --config "$T/bad.toml" 2>&1 | keep
  containerd --bogus 2>&1 | keep
  cfg /proc/ctdroot; containerd --config "$T/config.toml" 2>&1 | keep
  cfg "$T/root"
  containerd --config "$T/config.toml" > "$T/d.log" 2>&1 & echo $! > "$T/d.pid"
  sleep 3
  timeout 10 containerd --config "$T/config.toml" 2>&1 | keep
  keep < "$T/d.log"
  c() { timeout 10 ctr --address "$T/ctd.sock" "$@" 2>&1 | keep; }
  timeout 10 ctr --address "$T/nosuch.sock" --connect-timeout 1s version 2>&1 | keep
  c containers info nosuch
  c images rm docker.io/library/nosuch:latest
  c tasks kill nosuch
  c run
  c namespaces remove nosuchns
  c content get sha256:xyz
  c images pull not a ref
  c --bogus version
  c snapshots --snapshotter nosuch ls
  c leases delete nosuch
} | sed "s|$T|/tmp/ctd|g"
