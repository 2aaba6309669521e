#!/usr/bin/env bash
# Extra real corpora for the lint precision review (bench/lint/sample.py):
# PyPI sdists and npm packages of libraries that handle credentials and
# connections, pinned, and Debian sources of servers that handle passwords
# (apt-get source; a package whose newest source is gone from the archive
# falls back to the other versions Debian lists).
set -euo pipefail
dir=/var/tmp/errdex-corpora/lint
mkdir -p "$dir"
cd "$dir"
for p in paramiko==3.5.0 ldap3==2.9.1 pymongo==4.10.1 oauthlib==3.2.2 Authlib==1.3.2 \
  PyJWT==2.9.0 PyMySQL==1.1.1 redis==5.2.0 kombu==5.4.2 impacket==0.12.0 psycopg2==2.9.10 \
  fabric==3.2.2 keystoneauth1==5.8.0 python-keystoneclient==5.5.0 social-auth-core==4.5.4 \
  hvac==2.3.0 smbprotocol==1.14.0 asyncssh==2.18.0 exchangelib==5.4.3 pywinrm==0.5.0; do
  name=$(echo "${p/==/-}" | tr 'A-Z' 'a-z' | tr '_' '-')
  ls -d "$dir"/*/ | tr 'A-Z_' 'a-z-' | grep -q "/$name/\$" && continue
  pip download -q --no-deps --no-binary :all: "$p" -d .
  for f in *.tar.gz; do tar xzf "$f" && rm -f "$f"; done
done
for p in pg@8.13.1 mysql@2.18.1 nodemailer@6.9.16 ssh2@1.16.0 ioredis@5.4.1 mongodb@6.10.0 \
  passport@0.7.0 jsonwebtoken@9.0.2 imapflow@1.0.164 tedious@18.6.1; do
  out="npm-${p%@*}-${p#*@}"
  [ -d "$out" ] && continue
  f=$(npm pack -q "$p" | tail -1)
  mkdir -p "$out" && tar xzf "$f" -C "$out" --strip-components=1 && rm -f "$f"
done
for p in openldap postfix proftpd-dfsg squid dovecot exim4 strongswan cyrus-sasl2 haproxy \
  freeradius openvpn dropbear-bin pgbouncer mosquitto krb5 lighttpd net-snmp wpa wget; do
  src=$(apt-cache showsrc "$p" | awk '/^Package:/{print $2; exit}')
  ls -d "$dir/$src"-*/ >/dev/null 2>&1 && continue
  apt-get source -qq "$p" >/dev/null 2>&1 && continue
  for v in $(apt-cache showsrc "$p" | awk '/^Version:/{print $2}'); do
    apt-get source -qq "$p=$v" >/dev/null 2>&1 && break
  done
  ls -d "$dir/$src"-*/ >/dev/null 2>&1 || { echo "apt-get source $p failed" >&2; exit 1; }
done
rm -f "$dir"/*.dsc "$dir"/*.tar.* "$dir"/*.diff.gz
ls "$dir"
