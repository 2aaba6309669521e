#!/usr/bin/env bash
# Extra real corpora for the lint precision review (bench/lint/sample.py):
# PyPI sdists of libraries that handle credentials and connections, pinned,
# and Debian sources of servers that handle passwords (apt-get source).
set -euo pipefail
dir=/var/tmp/errdex-corpora/lint
mkdir -p "$dir"
cd "$dir"
for p in paramiko==3.5.0 ldap3==2.9.1 pymongo==4.10.1; do
  name=${p/==/-}
  [ -d "$name" ] && continue
  pip download -q --no-deps --no-binary :all: "$p" -d .
  tar xzf "$name.tar.gz" && rm -f "$name.tar.gz"
done
for p in openldap postfix proftpd-dfsg squid; do
  ls -d "$dir/$p"-*/ >/dev/null 2>&1 && continue
  apt-get source -qq "$p" >/dev/null
done
rm -f "$dir"/*.dsc "$dir"/*.tar.* "$dir"/*.diff.gz
ls "$dir"
