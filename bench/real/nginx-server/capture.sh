#!/usr/bin/env bash
# nginx 1.22.1 (Debian bookworm nginx-light 1.22.1-9+deb12u11) run as a
# server on 127.0.0.1 with broken and working configs; keeps its stderr
# and its error and access logs verbatim (real timestamps and pids).
#   apt-get install nginx-light; bash capture.sh > log.txt
# Provoked: a port in use, a missing / corrupt / mismatched TLS cert and
# key, an unwritable pid path, then a live server: missing files, a
# forbidden directory listing, basic auth with a wrong password and an
# unknown user, a proxy to a closed port, a too-large body, plain HTTP to
# the HTTPS port, and their access-log lines.
set -uo pipefail
nginx -v 2>&1 | grep -q 'nginx/1.22.1$' || { echo "need nginx 1.22.1" >&2; exit 1; }
T=$(mktemp -d /tmp/ngx.XXXX); chmod 755 "$T"
trap 'nginx -p "$T" -c "$T/live.conf" -s stop 2>/dev/null; kill $PY 2>/dev/null; rm -rf "$T"' EXIT
cd "$T"; mkdir -p logs html/sub html/private
echo hi > html/index.html; echo s > html/private/x.html
openssl req -x509 -newkey rsa:2048 -nodes -keyout good.key -out good.crt -days 1 -subj /CN=localhost 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.crt -days 1 -subj /CN=other 2>/dev/null
head -c 300 good.crt > corrupt.crt
echo "alice:$(openssl passwd -apr1 secret)" > htpasswd
base() { cat <<C
error_log $T/logs/error.log info;
pid $T/nginx.pid;
events {}
http {
  access_log $T/logs/access.log;
  client_body_temp_path $T; proxy_temp_path $T; fastcgi_temp_path $T; uwsgi_temp_path $T; scgi_temp_path $T;
  $1
}
C
}
try() { # name, server block: nginx in the foreground, stderr kept
  base "$2" > "$1.conf"
  timeout 3 nginx -p "$T" -c "$T/$1.conf" -g 'daemon off;' 2>&1
}
python3 -m http.server 18181 --bind 127.0.0.1 >/dev/null 2>&1 & PY=$!
sleep 1
try inuse 'server { listen 127.0.0.1:18181; }'
kill $PY; wait $PY 2>/dev/null
try nocert "server { listen 127.0.0.1:18443 ssl; ssl_certificate /nonexistent.crt; ssl_certificate_key $T/good.key; }"
try badcert "server { listen 127.0.0.1:18443 ssl; ssl_certificate $T/corrupt.crt; ssl_certificate_key $T/good.key; }"
try mismatch "server { listen 127.0.0.1:18443 ssl; ssl_certificate $T/good.crt; ssl_certificate_key $T/other.key; }"
try nokey "server { listen 127.0.0.1:18443 ssl; ssl_certificate $T/good.crt; }"
sed "s|pid $T/nginx.pid|pid /proc/nginx.pid|" inuse.conf > pid.conf
timeout 3 nginx -p "$T" -c "$T/pid.conf" -g 'daemon off;' 2>&1
base "
  server { listen 127.0.0.1:18180; root $T/html; client_max_body_size 10;
    location /sub/ { autoindex off; }
    location /private/ { auth_basic x; auth_basic_user_file $T/htpasswd; }
    location /up/ { proxy_pass http://127.0.0.1:9/; }
  }
  server { listen 127.0.0.1:18443 ssl; ssl_certificate $T/good.crt; ssl_certificate_key $T/good.key; root $T/html; }
" > live.conf
nginx -p "$T" -c "$T/live.conf" 2>&1
sleep 1
c() { curl -s -o /dev/null -m 5 "$@"; }
c http://127.0.0.1:18180/nofile
c http://127.0.0.1:18180/sub/
c -u alice:wrong http://127.0.0.1:18180/private/x.html
c -u mallory:x http://127.0.0.1:18180/private/x.html
c http://127.0.0.1:18180/up/
c -d 'a body that is longer than ten bytes' http://127.0.0.1:18180/index.html
c http://127.0.0.1:18443/
c -k https://127.0.0.1:18443/nofile
nginx -p "$T" -c "$T/live.conf" -s stop 2>&1; sleep 1
# The error log without info-level connection chatter, then the access log.
grep -v '\[notice\]\|\[info\] .*client .* closed keepalive' logs/error.log
cat logs/access.log
