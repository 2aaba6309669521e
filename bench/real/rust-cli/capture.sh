#!/usr/bin/env bash
# Re-captures log.txt: builds ./program (pinned with `=` to exactly
# the crate versions `../shared/bench/corpora.sh rust` put in the cargo
# registry: anyhow 1.0.105, clap 4.6.9/clap_builder 4.6.7, rusqlite 0.32.1,
# serde/serde_core 1.0.229, serde_json 1.0.154, tokio 1.54.1) and runs
# each case, keeping its stderr. The panicking thread's id is normalised
# to 4242; Rust already prints the program's path relative (src/main.rs).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export RUST_BACKTRACE=0 RUST_LIB_BACKTRACE=0
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/rsreal-target}
(cd "$here/program" && cargo build -q --offline) || exit 1
bin=$CARGO_TARGET_DIR/debug/rsreal
run() { "$bin" "$@" 2>&1 >/dev/null; }
{
  # clap: parse errors print clap's own message and exit 2.
  run cli --bogus
  run cli
  run cli --port abc a.json
  run cli --port 99999 a.json
  run cli --port 8080 --mode medium a.json
  run cli --port 8080 a.json b.json
  # serde_json / serde, printed with Display.
  run json ''
  run json '{"name": "x"'
  run json '{"name": "x", "port": "8080"}'
  run json '{"port": 8080}'
  run json '{"name": "x", "port": 8080, "nmae": "y"}'
  run json '{"name": "x", "port": 8080} x'
  run json '{"name": "x", "port": -1}'
  run json '[1, 2]'
  # anyhow: `Error: context` and its `Caused by:` list.
  run json-value '{1: 2}'
  run read-config
  run port 8o
  run port 80
  # panics: `.expect` on an Err, `unwrap` on None.
  run json-expect 'nul'
  run unwrap-none
  # rusqlite, printed with Display.
  for c in no-rows column-index column-type column-name no-table unique params execute-select open; do
    run sql "$c"
  done
  # tokio.
  run tokio timeout
  run tokio join
  run tokio connect
} | sed -E "s/^(thread .[^']*. )\([0-9]+\) panicked at /\1(4242) panicked at /" > "$here/log.txt"
