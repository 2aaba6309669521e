#!/usr/bin/env bash
# Usage: bench/export-identical.sh ERRDEX_BINARY OUTDIR
# Indexes every corpus with the given binary, exports jsonl, removes timestamps,
# and writes OUTDIR/<corpus>.jsonl. Diff two OUTDIRs to compare builds:
#   diff -rq --exclude="*.stderr" OUT_OLD OUT_NEW && echo IDENTICAL
# A refactor must leave every corpus byte-identical. The corpora are those of
# ../shared/bench/corpora.sh. RUST_SRC names the Rust corpus: a folder of
# crate sources copied out of the cargo registry once (the registry itself
# grows whenever a build fetches a crate, which would change the corpus
# between the two runs); issue 19 used tokio, hyper, reqwest, serde_json,
# clap_builder and rusqlite. The default is the whole registry.
set -euo pipefail
bin=$1; out=$2; mkdir -p "$out"
C=/var/tmp/errdex-corpora
declare -A corp=(
  [go]=/usr/share/gocode/src
  [python]=$C/python
  [js]=$C/js
  [rust]=${RUST_SRC:-$(ls -d "$HOME"/.cargo/registry/src/*/ | head -1)}
  [c-openssh]=$C/debsrc/openssh
  [c-nginx]=$C/debsrc/nginx
  [java]=$C/debsrc/libcommons-lang3-java
  [php-monolog]=/usr/share/php/Monolog
  [php-guzzle]=/usr/share/php/GuzzleHttp
  [ruby-rack]=$(dpkg -L ruby-rack | grep -m1 '/rack$')
  [ruby-sinatra]=$(dpkg -L ruby-sinatra | grep -m1 '/sinatra$')
)
for name in "${!corp[@]}"; do
  db=$(mktemp -u /tmp/cmp-XXXXXX.db)
  "$bin" --db "$db" index "${corp[$name]}" >/dev/null 2>"$out/$name.stderr" || { echo "index failed: $name"; cat "$out/$name.stderr"; }
  "$bin" --db "$db" export --format jsonl --out "$out/$name.raw.jsonl" >/dev/null 2>>"$out/$name.stderr"
  jq -c 'del(.. | .analyzedAt?, .contentChangedAt?, .datasetVersion?, .indexedAt?)' "$out/$name.raw.jsonl" > "$out/$name.jsonl"
  rm -f "$out/$name.raw.jsonl" "$db" "$db"-* "$db".trace-cache
  echo "$name: $(wc -l < "$out/$name.jsonl") records"
done
