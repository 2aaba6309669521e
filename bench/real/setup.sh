#!/usr/bin/env bash
# Installs what bench/real needs beyond `../shared/bench/corpora.sh go
# python js rust debsrc programs`: the extra source trees its programs are
# annotated against (exact versions, see each <program>/source.txt) and,
# for re-capturing, the programs themselves. Idempotent.
#   bash bench/real/setup.sh            # sources only (enough to score)
#   bash bench/real/setup.sh --programs # and the binaries, to re-capture
set -euo pipefail
CORPORA=${CORPORA:-/var/tmp/errdex-corpora}
mkdir -p "$CORPORA/debsrc" "$CORPORA/python/sdist"
apt_ready() { [ -f "$CORPORA/.apt-updated" ] || { apt-get update -qq && touch "$CORPORA/.apt-updated"; }; }
apt_src() { # package=version, unpacked folder, target name
  [ -d "$CORPORA/debsrc/$3" ] && return 0
  apt_ready
  local t; t=$(mktemp -d)
  (cd "$t" && apt-get source -qq "$1" >/dev/null 2>&1) || { echo "apt-get source $1 failed" >&2; rm -rf "$t"; return 1; }
  mv "$t/$2" "$CORPORA/debsrc/$3"; rm -rf "$t"
}
apt_src zookeeper=3.8.0-11+deb12u2 zookeeper-3.8.0 zookeeper
apt_src curl=7.88.1-10+deb12u15 curl-7.88.1 curl
apt_src rust-ripgrep=13.0.0-4 rust-ripgrep-13.0.0 ripgrep
apt_src redis=5:7.0.15-1~deb12u10 redis-7.0.15 redis
if [ ! -d "$CORPORA/python/werkzeug-3.1.9" ] || [ ! -d "$CORPORA/python/jinja2-3.1.6" ]; then
  pip download -q --no-binary :all: --no-deps -d "$CORPORA/python/sdist" werkzeug==3.1.9 jinja2==3.1.6
  tar -xzf "$CORPORA/python/sdist/werkzeug-3.1.9.tar.gz" -C "$CORPORA/python"
  tar -xzf "$CORPORA/python/sdist/jinja2-3.1.6.tar.gz" -C "$CORPORA/python"
fi
# Sources that are the installed packages themselves (rubygems, npm come
# with ruby and node; composer, the Debian crate sources for ripgrep).
need=(composer librust-regex-syntax-dev librust-clap-2-dev librust-globset-dev librust-ignore-dev
      librust-grep-searcher-dev librust-grep-regex-dev)
[ "${1:-}" = --programs ] && need+=(nginx-light etcd-server etcd-client containerd zookeeper ripgrep curl redis-server redis-tools)
missing=()
for p in "${need[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then apt_ready; apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; fi
echo "bench/real: sources ready under $CORPORA (debsrc/{zookeeper,curl,ripgrep,redis}, python/{werkzeug-3.1.9,jinja2-3.1.6}), /usr/share/php, /usr/share/cargo/registry"
