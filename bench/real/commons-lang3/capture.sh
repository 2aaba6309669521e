#!/bin/sh
# Re-captures log.txt: runs program/Main.java against Debian's
# commons-lang3 3.12.0 jar (built from exactly the corpus sources,
# /var/tmp/errdex-corpora/debsrc/libcommons-lang3-java). Needs javac and
# java (OpenJDK 17) and libcommons-lang3-java.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
jar=/usr/share/java/commons-lang3.jar
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" -cp "$jar" "$here/program/Main.java"
# The uncaught exception at the end makes java exit 1.
java -cp "$tmp:$jar" Main > "$here/log.txt" 2>&1 || true
