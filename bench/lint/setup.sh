#!/usr/bin/env bash
# Extra real corpora for the lint precision review (bench/lint/sample.py):
# PyPI sdists and npm packages of libraries that handle credentials and
# connections, and large Python libraries and tools (SQLAlchemy, Twisted,
# ansible-core, sympy, …: more messages for the rarer rules), pinned, and
# Debian sources of servers that handle passwords
# (apt-get source; a package whose newest source is gone from the archive
# falls back to the other versions Debian lists; one with none left is left
# out, with a notice).
set -euo pipefail
dir=/var/tmp/errdex-corpora/lint
mkdir -p "$dir"
cd "$dir"
for p in paramiko==3.5.0 ldap3==2.9.1 pymongo==4.10.1 oauthlib==3.2.2 Authlib==1.3.2 \
  PyJWT==2.9.0 PyMySQL==1.1.1 redis==5.2.0 kombu==5.4.2 impacket==0.12.0 psycopg2==2.9.10 \
  fabric==3.2.2 keystoneauth1==5.8.0 python-keystoneclient==5.5.0 social-auth-core==4.5.4 \
  hvac==2.3.0 smbprotocol==1.14.0 asyncssh==2.18.0 exchangelib==5.4.3 pywinrm==0.5.0 \
  netmiko==4.4.0 ncclient==0.6.15 requests-oauthlib==2.0.0 msal==1.31.0 google-auth==2.36.0 \
  pysmb==1.2.10 django-oauth-toolkit==3.0.1 python-keycloak==4.7.3 flask-jwt-extended==4.7.1 \
  djangorestframework-simplejwt==5.3.1 oauth2client==4.1.3 google-auth-oauthlib==1.2.1 \
  SQLAlchemy==2.0.36 Twisted==24.11.0 ansible-core==2.18.1 sympy==1.13.3 docutils==0.21.2 \
  setuptools==75.6.0 celery==5.4.0 dnspython==2.7.0 pyasn1==0.6.1; do
  name=$(echo "${p/==/-}" | tr 'A-Z' 'a-z' | tr '_' '-')
  ls -d "$dir"/*/ | tr 'A-Z_' 'a-z-' | grep -q "/$name/\$" && continue
  # The sdist where its build needs nothing heavy; a pure-Python wheel
  # (the same .py files) where building the sdist's metadata would
  # build its backend from source (poetry, maturin).
  if pip download -q --no-deps --only-binary :all: "$p" -d wheel 2>/dev/null; then
    for f in wheel/*.whl; do
      out="$(basename "$f" | cut -d- -f1-2)"
      mkdir -p "$out" && (cd "$out" && python3 -m zipfile -e "../$f" .) && rm -f "$f"
    done
    continue
  fi
  pip download -q --no-deps --no-binary :all: "$p" -d .
  for f in *.tar.gz; do [ -e "$f" ] && tar xzf "$f" && rm -f "$f"; done
  for f in *.zip; do [ -e "$f" ] && python3 -m zipfile -e "$f" . && rm -f "$f"; done
done
rmdir wheel 2>/dev/null || true
for p in pg@8.13.1 mysql@2.18.1 nodemailer@6.9.16 ssh2@1.16.0 ioredis@5.4.1 mongodb@6.10.0 \
  passport@0.7.0 jsonwebtoken@9.0.2 imapflow@1.0.164 tedious@18.6.1 mssql@11.0.1 ldapjs@3.0.7 \
  basic-ftp@5.0.5 node-ssh@13.2.0 smtp-server@3.13.6 irc-framework@4.14.0 passport-oauth2@1.8.0 \
  simple-oauth2@5.1.0 openid-client@5.7.1 express-session@1.18.1 jose@5.9.6 oauth@0.10.0; do
  out="npm-${p%@*}-${p#*@}"
  [ -d "$out" ] && continue
  f=$(npm pack -q "$p" | tail -1)
  mkdir -p "$out" && tar xzf "$f" -C "$out" --strip-components=1 && rm -f "$f"
done
for p in openldap postfix proftpd-dfsg squid dovecot exim4 strongswan cyrus-sasl2 haproxy \
  freeradius openvpn dropbear-bin pgbouncer mosquitto krb5 lighttpd net-snmp wpa wget \
  msmtp isync vsftpd pure-ftpd courier-authlib nss-pam-ldapd libpam-radius-auth ppp \
  openconnect ocserv davfs2 sshpass rdesktop x11vnc tinyproxy znc bitlbee ngircd pam-mysql \
  neomutt rsync lftp putty cifs-utils autofs keepalived icecast2 mpd xrdp libssh libssh2 \
  memcached stunnel4 privoxy dante irssi mutt; do
  src=$(apt-cache showsrc "$p" | awk '/^Package:/{print $2; exit}')
  ls -d "$dir/$src"-*/ >/dev/null 2>&1 && continue
  apt-get source -qq "$p" >/dev/null 2>&1 && continue
  for v in $(apt-cache showsrc "$p" | awk '/^Version:/{print $2}'); do
    apt-get source -qq "$p=$v" >/dev/null 2>&1 && break
  done
  ls -d "$dir/$src"-*/ >/dev/null 2>&1 || echo "apt-get source $p: no version is in the archive, left out" >&2
done
rm -f "$dir"/*.dsc "$dir"/*.tar.* "$dir"/*.diff.gz
ls "$dir"
