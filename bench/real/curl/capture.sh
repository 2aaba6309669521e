#!/usr/bin/env bash
# curl 7.88.1 (C command-line tool; Debian bookworm curl/libcurl4
# 7.88.1-10+deb12u15) against local endpoints only: a closed port, an
# unresolvable .invalid name, a server that never answers (timeout), a
# self-signed TLS server, a missing CA file, a 404 with --fail, a bad URL,
# an unknown protocol and option, a missing file:// and upload file, an
# unwritable output path. stderr verbatim (-sS: errors only).
set -uo pipefail
dpkg-query -W -f='${Version}' curl | grep -q '^7.88.1-10+deb12u15$' || { echo "need curl 7.88.1-10+deb12u15" >&2; exit 1; }
T=$(mktemp -d /tmp/curl.XXXX)
trap 'kill $P1 $P2 $P3 2>/dev/null; rm -rf "$T"' EXIT
cd "$T"
openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -days 1 -subj /CN=localhost 2>/dev/null
python3 -m http.server 18601 --bind 127.0.0.1 >/dev/null 2>&1 & P1=$!
python3 -c 'import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1",18602)); s.listen(); c=s.accept(); time.sleep(30)' & P2=$!
openssl s_server -quiet -accept 18603 -cert c.pem -key k.pem -www >/dev/null 2>&1 & P3=$!
sleep 1
c() { curl -sS -o /dev/null "$@" 2>&1; }
c http://127.0.0.1:9/
c http://nosuchhost.invalid/
c -m 1 http://127.0.0.1:18602/
c https://127.0.0.1:18603/
c --cacert /nonexistent.pem https://127.0.0.1:18603/
c -f http://127.0.0.1:18601/nofile
c 'http://[::1'
c bogus://x/
c --bogus http://127.0.0.1:18601/
c file:///nonexistent
c -T /nonexistent http://127.0.0.1:18601/
curl -sS -o /proc/nope/out http://127.0.0.1:18601/ 2>&1
c -x http://127.0.0.1:9 http://example.invalid/
c --connect-timeout abc http://127.0.0.1:18601/
c -u alice http://127.0.0.1:18601/ </dev/null
c https://127.0.0.1:18601/
