#!/usr/bin/env bash
# Benchmark: errdex indexing the etcd tree (every Go construct, database
# written) against ast-grep finding the single pattern fmt.Errorf over the
# same files, in the same run. Prints both medians, the ratio and errdex's
# peak memory.
#
#   bash bench/index-vs-astgrep.sh [TREE] [RUNS]
#
# Needs: ../shared/bench/corpora.sh go and ast-grep (pip install
# ast-grep-cli).
set -euo pipefail
cd "$(dirname "$0")/.."
TREE=${1:-/usr/share/gocode/src/go.etcd.io/etcd}
RUNS=${2:-15}
OUT=bench/out
mkdir -p "$OUT"
command -v ast-grep >/dev/null || pip install -q ast-grep-cli
cargo build --release -q
ERRDEX=$PWD/target/release/errdex
DB=$(mktemp -d)/bench.db

# The machine's speed drifts over seconds, so runs alternate (errdex,
# ast-grep, errdex, ...) and medians of both wall and CPU time are taken.
python3 - "$RUNS" "$ERRDEX" "$DB" "$TREE" <<'PY'
import os, statistics, subprocess, sys, time
runs, errdex, db, tree = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
cmds = {
    "errdex": [errdex, "--db", db, "index", "--include-tests", tree],
    "ast-grep": ["ast-grep", "run", "-l", "go", "-p", "func _() { fmt.Errorf($$$A) }", "--selector", "call_expression", tree],
}
wall = {k: [] for k in cmds}
cpu = {k: [] for k in cmds}
for i in range(runs + 2):
    for name, cmd in cmds.items():
        t0, r0 = time.perf_counter(), os.times()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        t1, r1 = time.perf_counter(), os.times()
        if i >= 2:  # warm-up
            wall[name].append(t1 - t0)
            cpu[name].append((r1.children_user - r0.children_user) + (r1.children_system - r0.children_system))
for name in cmds:
    print(f"{name}: median wall {statistics.median(wall[name]):.3f} s, median CPU {statistics.median(cpu[name]):.3f} s ({runs} runs)")
e, a = statistics.median(wall["errdex"]), statistics.median(wall["ast-grep"])
ce, ca = statistics.median(cpu["errdex"]), statistics.median(cpu["ast-grep"])
print(f"errdex/ast-grep: wall {e/a:.2f}, CPU {ce/ca:.2f}")
PY
/usr/bin/time -f "errdex peak memory: %M KB" "$ERRDEX" --db "$DB" index --include-tests "$TREE" 2>&1 | tail -1
"$ERRDEX" --db "$DB" index --include-tests "$TREE" 2>&1 | grep '^indexed'
echo "ast-grep matches: $(ast-grep run -l go -p 'func _() { fmt.Errorf($$$A) }' --selector call_expression "$TREE" --json=stream | wc -l)"
