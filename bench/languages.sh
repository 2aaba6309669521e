#!/usr/bin/env bash
# Benchmark, per language: errdex indexing a real corpus (every construct
# of the language, analysis, database written) against ast-grep searching
# one throw/raise pattern over the same tree, in the same run. Prints files,
# MB, files/s and MB/s for errdex, ast-grep's time and match count (to show
# the pattern really matches), and the ratio of medians.
#
#   bash bench/languages.sh [RUNS]
#
# Needs: ../shared/bench/corpora.sh python js rust debsrc, and ast-grep
# (pip install ast-grep-cli).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
C=${CORPORA:-/var/tmp/errdex-corpora}
REG=$(ls -d "$HOME"/.cargo/registry/src/index.crates.io-*/ | head -1)
command -v ast-grep >/dev/null || pip install -q ast-grep-cli
cargo build --release -q
ERRDEX=$PWD/target/release/errdex
WORK=$(mktemp -d)
# One tree per language: the Rust crates and the Ruby/PHP libraries are
# copied together so each language is one folder.
mkdir -p "$WORK/rust" "$WORK/ruby" "$WORK/php"
for c in tokio-1 hyper-1 reqwest-0.12 serde_json-1 clap_builder-4 rusqlite-0.32; do
  d=$(ls -d "$REG"$c.* | sort -V | tail -1); cp -r "$d" "$WORK/rust/"
done
cp -r /usr/share/rubygems-integration/all/gems/rack-2.2.22 /usr/share/rubygems-integration/all/gems/sinatra-3.0.5 "$WORK/ruby/"
cp -r /usr/share/php/Monolog /usr/share/php/GuzzleHttp "$WORK/php/"
python3 - "$RUNS" "$ERRDEX" "$WORK" "$C" <<'PY'
import os, statistics, subprocess, sys, time
runs, errdex, work, c = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
# language, tree, extensions, ast-grep language, pattern (+ selector)
cases = [
    ("python", f"{c}/python", (".py",), "python", ["-p", "raise $E($$$A)"]),
    ("javascript", f"{c}/js", (".js", ".mjs", ".cjs"), "javascript", ["-p", "throw new $E($$$A)"]),
    ("rust", f"{work}/rust", (".rs",), "rust", ["-p", "panic!($$$A)"]),
    ("java", f"{c}/debsrc/libcommons-lang3-java", (".java",), "java", ["-p", "throw new $E($$$A);"]),
    ("c", f"{c}/debsrc/openssh", (".c", ".h"), "c", ["-p", "fatal($$$A);"]),
    ("ruby", f"{work}/ruby", (".rb",), "ruby", ["-p", "raise $$$A"]),
    ("php", f"{work}/php", (".php",), "php", ["-p", "throw new $E($$$A);"]),
]
def tree_size(tree, exts):
    n = b = 0
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if d not in ("node_modules", ".git")]
        for f in files:
            if f.endswith(exts):
                n += 1; b += os.path.getsize(os.path.join(root, f))
    return n, b
print(f"{'language':<11} {'files':>6} {'MB':>6} {'errdex s':>9} {'files/s':>8} {'MB/s':>6} {'sites':>6} {'ast-grep s':>10} {'matches':>8} {'ratio':>6}")
for lang, tree, exts, sg_lang, pattern in cases:
    db = os.path.join(work, lang + ".db")
    e_cmd = [errdex, "--db", db, "index", "--include-tests", "--include-vendor", tree]
    a_cmd = ["ast-grep", "run", "-l", sg_lang, *pattern, tree]
    e_t, a_t = [], []
    for i in range(runs + 1):
        for cmd, acc in ((e_cmd, e_t), (a_cmd, a_t)):
            t0 = time.perf_counter()
            # ast-grep exits 1 when nothing matches: the match count shows it.
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=cmd is e_cmd)
            if i > 0:
                acc.append(time.perf_counter() - t0)
    out = subprocess.run(e_cmd, capture_output=True, text=True).stderr + subprocess.run(e_cmd, capture_output=True, text=True).stdout
    sites = next((l.split(" sites")[0].rsplit(" ", 1)[-1] for l in out.splitlines() if l.startswith("indexed")), "?")
    matches = subprocess.run(a_cmd + ["--json=stream"], capture_output=True, text=True).stdout.count("\n")
    n, b = tree_size(tree, exts)
    e, a = statistics.median(e_t), statistics.median(a_t)
    print(f"{lang:<11} {n:>6} {b/1e6:>6.1f} {e:>9.3f} {n/e:>8.0f} {b/1e6/e:>6.1f} {sites:>6} {a:>10.3f} {matches:>8} {e/a:>6.2f}")
PY
rm -rf "$WORK"
