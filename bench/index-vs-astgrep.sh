#!/usr/bin/env bash
# Benchmark: errdex indexing the etcd tree (every Go construct, database
# written) against ast-grep finding the single pattern fmt.Errorf over the
# same files, in the same run. Prints both medians, the ratio and errdex's
# peak memory.
#
#   bash bench/index-vs-astgrep.sh [TREE] [RUNS]
#
# Needs: ../shared/bench/corpora.sh go, hyperfine (apt), ast-grep (pip
# install ast-grep-cli). Results land in bench/out/.
set -euo pipefail
cd "$(dirname "$0")/.."
TREE=${1:-/usr/share/gocode/src/go.etcd.io/etcd}
RUNS=${2:-15}
OUT=bench/out
mkdir -p "$OUT"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null; }
command -v ast-grep >/dev/null || pip install -q ast-grep-cli
cargo build --release -q
ERRDEX=$PWD/target/release/errdex
DB=$(mktemp -d)/bench.db

hyperfine -N -w 3 -r "$RUNS" --export-json "$OUT/index-vs-astgrep.json" \
  -n errdex "$ERRDEX --db $DB index --include-tests $TREE" \
  -n ast-grep "ast-grep run -l go -p 'func _() { fmt.Errorf(\$\$\$A) }' --selector call_expression $TREE"

python3 - "$OUT/index-vs-astgrep.json" <<'PY'
import json, statistics, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
e, a = statistics.median(r["errdex"]["times"]), statistics.median(r["ast-grep"]["times"])
print(f"median errdex {e:.3f} s, ast-grep {a:.3f} s, errdex/ast-grep = {e/a:.2f}")
PY
/usr/bin/time -f "errdex peak memory: %M KB" "$ERRDEX" --db "$DB" index --include-tests "$TREE" 2>&1 | tail -1
"$ERRDEX" --db "$DB" index --include-tests "$TREE" 2>&1 | grep '^indexed'
echo "ast-grep matches: $(ast-grep run -l go -p 'func _() { fmt.Errorf($$$A) }' --selector call_expression "$TREE" --json=stream | wc -l)"
