#!/usr/bin/env bash
# Re-captures log.txt with the capture script of the explain test this
# program was converted from (real-c.sh, shared with ../nginx), so the test and the benchmark
# share one driver and one capture; read that script for what it provokes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../../../crates/explain/tests/fixtures
# ssh's lines end in CR LF; the nginx lines start at the first `nginx`.
bash "$fixtures/real-c.sh" | tr -d '\r' |
  awk -v a="$here/log.txt" -v b="$here/../nginx/log.txt" '/^nginx/ { n = 1 } { print > (n ? b : a) }'
