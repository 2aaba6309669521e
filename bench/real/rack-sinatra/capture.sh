#!/usr/bin/env bash
# Re-captures log.txt with the capture script of the explain test this
# program was converted from (real-ruby.sh), so the test and the benchmark
# share one driver and one capture; read that script for what it provokes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../../../crates/explain/tests/fixtures
bash "$fixtures/real-ruby.sh"
cp "$fixtures/real-ruby.log" "$here/log.txt"
