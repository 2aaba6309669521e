#!/usr/bin/env python3
"""Draws the findings the lint precision review judges (docs/reviews/lint-precision.md).

Lints each corpus with `errdex lint --format json`, then draws up to 50
findings per rule with a fixed seed: first from the issue's corpora (etcd,
containerd, Django, the JavaScript corpus), then, for a rule with fewer
than 50 there, from the other real corpora (the Pallets projects, Debian's
C and Java sources, the Rust corpus's crates, Ruby's standard library and npm,
bench/lint/setup.sh's packages,
every other repository of Debian's Go tree, each linted on its own).
Writes OUT/RULE.md: each finding with its source lines, for a reviewer
to mark TP or FP by reading the code; OUT/findings.jsonl: every finding.

Usage: bench/lint/sample.py OUT  (ERRDEX=path/to/errdex)
"""
import glob
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
E = os.environ.get("ERRDEX", os.path.join(ROOT, "target/release/errdex"))
C = "/var/tmp/errdex-corpora"
GO = "/usr/share/gocode/src"
PRIMARY = [f"{GO}/go.etcd.io/etcd", f"{GO}/github.com/containerd/containerd",
           f"{C}/python/Django-5.1.4", f"{C}/js/axios", f"{C}/js/webpack", f"{C}/js/typescript",
           f"{C}/js/express"]
MORE = [f"{C}/python/{p}" for p in ("click-8.1.7", "flask-3.1.0", "jinja2-3.1.6", "requests-2.32.3",
                                   "urllib3-2.2.3", "werkzeug-3.1.9")]
MORE += sorted(glob.glob(f"{C}/debsrc/*"))
MORE += sorted(glob.glob(f"{C}/lint/*"))  # bench/lint/setup.sh


def rust_crates():
    """The Rust corpus (corpora.sh rust): its crates, at the versions its Cargo.lock pins."""
    lock = f"{C}/rust-fetch/Cargo.lock"
    if not os.path.exists(lock):
        return []
    text = open(lock).read()
    out = []
    for name in ("tokio", "hyper", "reqwest", "serde_json", "clap_builder", "rusqlite"):
        for block in text.split("[[package]]"):
            if f'name = "{name}"\n' in block:
                version = block.split('version = "')[1].split('"')[0]
                out += glob.glob(os.path.expanduser(f"~/.cargo/registry/src/*/{name}-{version}"))[:1]
    return out


MORE += rust_crates()
# Installed code that bench/real runs: Ruby's standard library, npm.
MORE += [d for d in ("/usr/lib/ruby/3.1.0", "/usr/lib/node_modules/npm") if os.path.isdir(d)]


HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "code.google.com")


def go_repositories():
    """Each repository of Debian's Go tree (host/owner/name), but the two above."""
    out = []
    for d in sorted(glob.glob(f"{GO}/*/*/*")):
        host = d[len(GO) + 1:].split("/")[0]
        if host in HOSTS and os.path.isdir(d):
            out.append(d)
    for d in sorted(glob.glob(f"{GO}/*/*")):
        host = d[len(GO) + 1:].split("/")[0]
        if host not in HOSTS and os.path.isdir(d):
            out.append(d)
    # Symlinked trees (github.com/coreos/etcd → go.etcd.io/etcd) once.
    seen = {os.path.realpath(p) for p in PRIMARY}
    unique = []
    for d in out:
        real = os.path.realpath(d)
        if real not in seen:
            seen.add(real)
            unique.append(d)
    return unique


def lint(root):
    out = subprocess.run([E, "lint", root, "--format", "json"], capture_output=True, text=True)
    if out.returncode == 2 and "no source file" in out.stderr:
        return []  # a folder of tests or data only
    if out.returncode not in (0, 1):
        raise SystemExit(f"errdex lint {root} failed ({out.returncode}): {out.stderr[-2000:]}")
    found = json.loads(out.stdout)["findings"]
    for f in found:
        f["root"] = root
    return found


def snippet(f, around=6):
    path = os.path.join(f["root"], f["file"])
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return "(unreadable)"
    lo, hi = max(0, f["line"] - 1 - around), min(len(lines), f["line"] + around)
    return "\n".join(f"{'>' if i + 1 == f['line'] else ' '}{i + 1:5} {lines[i]}" for i in range(lo, hi))


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    rules = ["ambiguous-message", "untraceable-message", "lost-cause", "swallowed-error", "style",
             "leaks-secret", "duplicate-sentinel"]
    pools = {"primary": [], "more": [], "go": []}
    for r in PRIMARY:
        pools["primary"] += lint(r)
    for r in MORE:
        pools["more"] += lint(r)
    for r in go_repositories():
        pools["go"] += lint(r)
    with open(os.path.join(out_dir, "findings.jsonl"), "w") as fh:
        for name, pool in pools.items():
            for f in pool:
                fh.write(json.dumps({"pool": name, **f}) + "\n")
    rng = random.Random(25)
    summary = {}
    for rule in rules:
        drawn = []
        available = {}
        for name in ("primary", "more", "go"):
            pool = [f for f in pools[name] if f["rule"] == rule]
            available[name] = len(pool)
            rng.shuffle(pool)
            drawn += pool[: 50 - len(drawn)]
        summary[rule] = {"available": available, "drawn": len(drawn)}
        with open(os.path.join(out_dir, f"{rule}.md"), "w") as fh:
            fh.write(f"# {rule}: {len(drawn)} findings drawn\n\n")
            for i, f in enumerate(drawn, 1):
                rel = ", ".join(f"{p['file']}:{p['line']}" for p in f.get("related", [])[:6])
                fh.write(f"## {i}. {f['root']}/{f['file']}:{f['line']}\n\n{f['message']}\n")
                if rel:
                    fh.write(f"\nrelated: {rel}\n")
                fh.write(f"\n```\n{snippet(f)}\n```\n\n")
    json.dump(summary, open(os.path.join(out_dir, "summary.json"), "w"), indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
