#!/usr/bin/env bash
# Apache ZooKeeper 3.8.0 server (Java; Debian bookworm zookeeper
# 3.8.0-11+deb12u2, `apt-get install --no-install-recommends zookeeper`),
# run in the foreground with Debian's own log4j pattern
# (`%d{ISO8601} - %-5p [%t:%C{1}@%L] - %m%n`, conf_example/log4j.properties)
# on the console. Provoked: a missing config file, a bad number, no
# dataDir, a malformed server line, an unwritable dataDir, a port in use,
# a corrupt snapshot; and the CLI client against a closed port. WARN and
# ERROR lines kept verbatim with their stack traces; INFO dropped.
set -uo pipefail
dpkg-query -W -f='${Version}' zookeeper | grep -q '^3.8.0-11+deb12u2$' || { echo "need zookeeper 3.8.0-11+deb12u2" >&2; exit 1; }
T=$(mktemp -d /tmp/zk.XXXX)
trap 'kill $PY 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/conf" "$T/data"
sed 's/^log4j.rootLogger=.*/log4j.rootLogger=INFO,CONSOLE/' /etc/zookeeper/conf_example/log4j.properties > "$T/conf/log4j.properties"
CP="$T/conf:/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-log4j12.jar:/usr/share/java/log4j-1.2.jar"
zk() { # config text; runs the server until it exits or 8 s pass
  printf '%s\n' "$1" > "$T/zoo.cfg"
  timeout 8 java -cp "$CP" org.apache.zookeeper.server.quorum.QuorumPeerMain "$T/zoo.cfg" 2>&1 |
    awk '/^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] / { keep = ($4 != "INFO") } keep'
}
BASE="tickTime=2000
admin.enableServer=false"
java -cp "$CP" org.apache.zookeeper.server.quorum.QuorumPeerMain /nonexistent/zoo.cfg 2>&1
zk "$BASE
dataDir=$T/data
clientPort=abc"
zk "$BASE
clientPort=21810"
zk "$BASE
dataDir=$T/data
clientPort=21810
initLimit=5
syncLimit=2
server.1=localhost"
zk "$BASE
dataDir=/proc/zk
clientPort=21810"
python3 -m http.server 21811 --bind 0.0.0.0 >/dev/null 2>&1 & PY=$!
sleep 1
zk "$BASE
dataDir=$T/data
clientPort=21811"
kill $PY
# A snapshot, then garbage in it.
zk "$BASE
dataDir=$T/data2
clientPort=21812
snapCount=2" >/dev/null &
sleep 3
java -cp "$CP" org.apache.zookeeper.ZooKeeperMain -server 127.0.0.1:21812 create /a x >/dev/null 2>&1
wait
for s in "$T"/data2/version-2/snapshot.*; do printf 'garbage!garbage!garbage!' | dd of="$s" bs=1 seek=30 conv=notrunc 2>/dev/null; done
for s in "$T"/data2/version-2/log.*; do printf 'garbage!garbage!garbage!' | dd of="$s" bs=1 seek=30 conv=notrunc 2>/dev/null; done
zk "$BASE
dataDir=$T/data2
clientPort=21812"
# The CLI client against a closed port.
timeout 5 java -cp "$CP" org.apache.zookeeper.ZooKeeperMain -server 127.0.0.1:21899 ls / 2>&1 |
  awk '/^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] / { keep = ($4 != "INFO") } keep' | head -12
