#!/usr/bin/env bash
# Re-captures log.txt (with ../openssh, one script: the ssh lines are openssh/log.txt, the nginx lines nginx/log.txt): real error output of Debian bookworm's
# OpenSSH client 9.2p1 (openssh-client, built from the openssh source that
# `corpora.sh debsrc` unpacks) and nginx 1.22.1 (nginx package, same
# source), provoked locally. Nothing here contacts another host: ssh only
# talks to 127.0.0.1 (closed ports), a `.invalid` name and a blackhole
# address with a one-second timeout (where something accepts TCP on any
# address, as on the machine this was captured on, ssh then times out in
# the banner exchange; elsewhere it fails to connect).
#
# Usage: capture.sh > both.log; split at the first nginx line
#
# Normalised: nginx's error-log timestamp and pid, and the temp dir.
set -uo pipefail
ssh -V 2>&1 | grep -q '^OpenSSH_9.2p1 ' || { echo "need OpenSSH 9.2p1" >&2; exit 1; }
nginx -v 2>&1 | grep -q 'nginx/1.22.1$' || { echo "need nginx 1.22.1" >&2; exit 1; }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home
mkdir -p "$HOME" "$T/logs"
unset SSH_AUTH_SOCK
O=(-o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=2)
run() { timeout 10 "$@" </dev/null 2>&1; }

{
  # ssh
  run ssh "${O[@]}" -p 9 127.0.0.1 true
  run ssh "${O[@]}" nosuchhost.invalid true
  run ssh "${O[@]}" -o Bogus=yes 127.0.0.1 true
  run ssh "${O[@]}" -p 99999 127.0.0.1 true
  run ssh "${O[@]}" -i /nonexistent -p 9 127.0.0.1 true
  run ssh "${O[@]}" -c nope 127.0.0.1 true
  run ssh "${O[@]}" -m nope 127.0.0.1 true
  run ssh "${O[@]}" -L bogus 127.0.0.1 true
  run ssh "${O[@]}" -R bogus 127.0.0.1 true
  run ssh "${O[@]}" -D 99999999 127.0.0.1 true
  run ssh "${O[@]}" -W bad 127.0.0.1
  run ssh "${O[@]}" -e zz 127.0.0.1 true
  run ssh "${O[@]}" -J 'a:b:c@' 127.0.0.1 true
  run ssh "${O[@]}" -o Port=abc 127.0.0.1 true
  run ssh "${O[@]}" -o ConnectTimeout=abc 127.0.0.1 true
  run ssh "${O[@]}" -o KexAlgorithms=nope 127.0.0.1 true
  run ssh "${O[@]}" -o MACs=nope 127.0.0.1 true
  run ssh "${O[@]}" -o HostKeyAlgorithms=nope 127.0.0.1 true
  run ssh "${O[@]}" -o LogLevel=bogus 127.0.0.1 true
  run ssh "${O[@]}" -o AddressFamily=nope 127.0.0.1 true
  run ssh "${O[@]}" -b 1.2.3.4 -p 9 127.0.0.1 true
  printf 'garbage line here\nPort abc\nHost\n' > "$T/bad_config"
  run ssh -F "$T/bad_config" 127.0.0.1 true
  run ssh "${O[@]}" -o ConnectTimeout=1 10.255.255.1 true
  run ssh -Q bogus
  run scp "${O[@]}" /nonexistent 127.0.0.1:/tmp/x
  run ssh-keygen -l -f /nonexistent
  run ssh-keygen -y -f /nonexistent
  run ssh-keygen -F host -f /nonexistent
  run ssh-keygen -t bogus
  run ssh-keygen -b 5 -t rsa -f "$T/k" -N ''
  run ssh-add -l

  # nginx -t with broken configurations; -e sends the error log to a file,
  # so stderr gets nginx's own `nginx: [emerg] ...` form.
  conf() {
    printf "$2" > "$T/$1.conf"
    run nginx -t -e "$T/logs/error.log" -p "$T/" -c "$T/$1.conf" -g "pid $T/nginx.pid;" | grep -v 'test failed$'
  }
  conf unknown 'events {}\nhttp {\n  bogus_directive on;\n}\n'
  conf badnum 'worker_processes abc;\nevents {}\n'
  conf nosemi 'events {}\nhttp {\n  server {\n    listen 8080\n  }\n}\n'
  conf unexpbrace 'events {}\n}\n'
  conf unkvar 'events {}\nhttp {\n  server {\n    return 200 $no_such_var;\n  }\n}\n'
  conf dup 'events {}\nevents {}\n'
  conf badlisten 'events {}\nhttp {\n  server {\n    listen 99999999;\n  }\n}\n'
  conf onoff 'events {}\nhttp {\n  sendfile maybe;\n}\n'
  conf notallowed 'events {}\nlisten 80;\n'
  conf args 'events {}\nhttp {\n  sendfile on off;\n}\n'
  conf include 'events {}\nhttp { include /nonexistent.conf; }\n'
  conf upstream 'events {}\nhttp {\n  server { location / { proxy_pass http://nosuchupstream.invalid; } }\n}\n'
  conf noevents 'http {}\n'
  run nginx -s bogus
  run nginx -Z
  # The same failures as the error log has them (timestamp, level, pid).
  cat "$T/logs/error.log"
} | sed -e "s|$T|/tmp/x|g" \
    -e 's|^[0-9]\{4\}/[0-9][0-9]/[0-9][0-9] [0-9:]\{8\} \[\([a-z]*\)\] [0-9]*#[0-9]*:|2026/11/29 00:00:00 [\1] 1000#1000:|' \
    -e '/syntax is ok$/d'
