#!/usr/bin/env bash
# Fuzzes errdex's parsers with AFL++ as the afl crate ships it (cargo-afl
# builds its own AFL++, 4.40c; Debian's afl-fuzz 4.04c cannot start the
# crate's fork server): every target in crates/fuzzing, SECONDS each (default 600),
# from the committed seed corpus fuzz/corpus/TARGET. A crash or hang found
# is copied to fuzz/regressions/TARGET/, where crates/fuzzing/tests/replay.rs
# replays it in every `cargo test`; the run fails when one was found.
#
#   bash fuzz/run.sh [SECONDS] [TARGET…]
#   bash fuzz/run.sh 30          # CI's smoke run
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(formats prefix stack matcher mcp)
cargo afl --version >/dev/null 2>&1 || { echo "fuzz/run.sh: cargo-afl not found; cargo install cargo-afl" >&2; exit 2; }
cargo afl build --release --quiet
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_QUIET=1
found=0
for t in "${targets[@]}"; do
  out=out/$t
  rm -rf "$out"
  mkdir -p out
  # -t: an input that takes over a second is a hang.
  cargo afl fuzz -i "corpus/$t" -o "$out" -V "$seconds" -t 1000 -m none -- "target/release/$t" >"out-$t.log" 2>&1 || true
  stats=$out/default/fuzzer_stats
  execs=$(awk -F' *: *' '/^execs_done/ {print $2}' "$stats" 2>/dev/null || echo 0)
  crashes=$(find "$out/default/crashes" -type f -name 'id:*' 2>/dev/null | wc -l)
  hangs=$(find "$out/default/hangs" -type f -name 'id:*' 2>/dev/null | wc -l)
  echo "fuzz $t: ${seconds}s, $execs executions, $crashes crashes, $hangs hangs"
  if [ "$crashes" -gt 0 ] || [ "$hangs" -gt 0 ]; then
    mkdir -p "regressions/$t"
    for f in "$out"/default/crashes/id:* "$out"/default/hangs/id:*; do
      [ -f "$f" ] && cp "$f" "regressions/$t/$(sha256sum "$f" | cut -c1-16)"
    done
    found=1
  fi
done
exit $found
