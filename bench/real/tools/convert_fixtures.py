#!/usr/bin/env python3
"""One-off: draft bench/real/<program>/ from crates/explain/tests/fixtures/real-*.

Takes the hand-read site of each frame (`sites`, else the single frame),
checks it against the source with draft.check (the literal must be in the
line), and greps each unmatched text in the roots (draft.grep) to decide
`unprinted`. Anything that fails a check goes to REVIEW for hand
annotation; nothing here asks errdex."""
import json, os, sys, shutil
sys.path.insert(0, os.path.dirname(__file__))
import draft

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(HERE, "../../crates/explain/tests/fixtures")
REG = "$HOME/.cargo/registry/src/index.crates.io-*/"
ROOTS = {
    "etcd": "/usr/share/gocode/src/go.etcd.io/etcd",
    "openssh": "$CORPORA/debsrc/openssh", "nginx": "$CORPORA/debsrc/nginx",
    "libcommons-lang3-java": "$CORPORA/debsrc/libcommons-lang3-java",
    "express": "$CORPORA/js/express", "axios": "$CORPORA/js/axios",
    "GuzzleHttp": "/usr/share/php/GuzzleHttp", "Monolog": "/usr/share/php/Monolog",
    "requests-2.32.3": "$CORPORA/python/requests-2.32.3", "urllib3-2.2.3": "$CORPORA/python/urllib3-2.2.3",
    "click-8.1.7": "$CORPORA/python/click-8.1.7", "flask-3.1.0": "$CORPORA/python/flask-3.1.0",
    "rack-2.2.22": "/usr/share/rubygems-integration/all/gems/rack-2.2.22",
    "sinatra-3.0.5": "/usr/share/rubygems-integration/all/gems/sinatra-3.0.5",
    "real-rust": "$BENCH_REAL/rust-cli/program",
}
for c in ["serde_json-1.0.154", "serde_core-1.0.229", "clap_builder-4.6.7", "rusqlite-0.32.1", "tokio-1.54.1", "anyhow-1.0.105"]:
    ROOTS[c] = REG + c
SETS = {
    "etcd": ["etcd"], "c": ["openssh", "nginx"], "java": ["libcommons-lang3-java"],
    "js": ["express", "axios"], "php": ["GuzzleHttp", "Monolog"],
    "python": ["requests-2.32.3", "urllib3-2.2.3", "click-8.1.7", "flask-3.1.0"],
    "ruby": ["rack-2.2.22", "sinatra-3.0.5"],
    "rust": ["serde_json-1.0.154", "serde_core-1.0.229", "clap_builder-4.6.7", "rusqlite-0.32.1", "tokio-1.54.1", "anyhow-1.0.105", "real-rust"],
}
import importlib.util, importlib.machinery
score = importlib.util.module_from_spec(importlib.util.spec_from_loader("score", importlib.machinery.SourceFileLoader("score", os.path.join(HERE, "score"))))
score.__spec__.loader.exec_module(score)
def ex(r): return score.expand_root(r)

def convert(name, prog):
    log = open(f"{FIX}/real-{name}.log").read().split("\n")
    if log[-1] == "": log.pop()
    exp = [json.loads(l) for l in open(f"{FIX}/real-{name}.expected.jsonl")]
    pkgs = SETS[name]
    out, review, k = [], [], 0
    for e in exp:
        while log[k] != e["input"]: k += 1
        n = k + 1; k += 1
        fr = e.get("sites") or e["frames"]
        layers = []
        amb = e["verdict"] == "ambiguous"
        for f in fr:
            alts = []
            if isinstance(f, list):
                if len(f) > 1: amb = True
                alts = ["etcd " + x for x in f[1:]]
                f = "etcd " + f[0]
            if " | " in f:
                amb = True
                alts = f.split(" | ")[1:]
                f = f.split(" | ")[0]
            pkg, site = f.split(" ", 1)
            site = site.replace("crates/explain/tests/fixtures/real-rust/", "")
            file, line = site.rsplit(":", 1)
            root = ROOTS[pkg]
            lines = draft.check(ex(root), file, int(line), e["input"])
            if lines is None:
                review.append((n, "site FAIL", f, e["input"])); lines = [int(line)]
            elif int(line) not in lines:
                review.append((n, f"site line {line} not in {lines}", f, e["input"])); lines = sorted(set(lines) | {int(line)})
            layer = {"root": root, "file": file, "lines": lines}
            for a in alts:
                ap, asite = a.split(" ", 1)
                af, al = asite.rsplit(":", 1)
                alines = draft.check(ex(ROOTS[ap]), af, int(al), e["input"])
                if alines is None:
                    review.append((n, "alt FAIL", a, e["input"])); continue
                layer.setdefault("also", []).append({"root": ROOTS[ap], "file": af, "lines": sorted(set(alines) | {int(al)})})
            layers.append(layer)
        if amb and len(fr) == 1 and not e.get("sites") and "also" not in layers[0] and e["verdict"] == "ambiguous":
            review.append((n, "ambiguous, one site only", fr, e["input"]))
        for u in e["unmatched"]:
            hits = [h for p in pkgs for piece, hs in draft.grep(ex(ROOTS[p]), u) for h in hs]
            layers.append({"unprinted": True, "text": u})
            if hits: review.append((n, "unmatched text found in source", u, hits[:4]))
        out.append({"n": n, "line": e["input"], "layers": layers})
    return log, out, review

if __name__ == "__main__":
    name, prog = sys.argv[1], sys.argv[2]
    log, out, review = convert(name, prog)
    d = os.path.join(HERE, prog); os.makedirs(d, exist_ok=True)
    open(f"{d}/log.txt", "w").write("\n".join(log) + "\n")
    with open(f"{d}/truth.jsonl", "w") as f:
        for o in out: f.write(json.dumps(o, ensure_ascii=False) + "\n")
    open(f"{d}/roots.txt", "w").write("".join(ROOTS[p] + "\n" for p in SETS[name]))
    for r in review: print("REVIEW", prog, *r)
