#!/usr/bin/env python3
"""Rewrites README.md's baseline table and floor.txt from `score --json`.

  bench/real/score --errdex BIN --no-floor --json > /tmp/base.json
  python3 bench/real/tools/baseline_table.py /tmp/base.json [--floor]
"""
import json, math, os, sys
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
META = {
 "commons-lang3": ("Java", "library stack traces"), "composer-cli": ("PHP", "Composer CLI (Symfony Console blocks)"),
 "containerd": ("Go", "containerd daemon (logrus) + ctr CLI"),
 "curl": ("C", "curl CLI / libcurl"), "etcd": ("Go", "etcd capnslog + etcdctl CLI"),
 "etcd-zap": ("Go", "etcd server, zap JSON"), "express-axios": ("JavaScript", "Node uncaught errors"),
 "flask-app": ("Python", "Flask/werkzeug web app + flask CLI"), "guzzle-monolog": ("PHP", "library errors, PHP fatals"),
 "nginx": ("C", "`nginx -t` config errors"), "nginx-server": ("C", "nginx server: stderr, error + access log"),
 "npm-cli": ("JavaScript", "npm CLI (`npm error` display)"),
 "openssh": ("C", "ssh/scp/ssh-keygen CLI"), "redis": ("C", "Redis server log, config errors, redis-cli"), "rack-sinatra": ("Ruby", "library errors, uncaught"),
 "requests-click": ("Python", "tracebacks, click CLI"), "rubygems-cli": ("Ruby", "`gem` CLI"),
 "rust-cli": ("Rust", "clap/anyhow/serde_json/rusqlite/tokio CLI"), "ripgrep": ("Rust", "ripgrep CLI (clap 2, regex-syntax)"),
 "zookeeper": ("Java", "ZooKeeper server, log4j + stack traces"),
}
d = json.load(open(sys.argv[1]))
rows = ["| program | language | what | lines | layers | right | accuracy | unprinted | traced-unprinted |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|"]
for n, r in d["programs"].items():
    lang, what = META.get(n, ("?", "?"))
    rows.append(f"| {n} | {lang} | {what} | {r['lines']} | {r['layers']} | {r['right']} | {r['right']/r['layers']:.3f} | {r['unprinted']} | {r['unprinted_traced']} |")
t = d["overall"]
langs = len({META[n][0] for n in d["programs"] if n in META})
rows.append(f"| **overall** | {langs} languages | {len(d['programs'])} programs | **{t['lines']}** | **{t['layers']}** | **{t['right']}** | **{d['accuracy']:.3f}** | {t['unprinted']} | {t['unprinted_traced']} |")
p = os.path.join(HERE, "README.md")
s = open(p).read()
a = s.index("| program | language |"); b = s.index("`floor.txt` holds")
s = s[:a] + "\n".join(rows) + "\n\n" + s[b:]
floor = math.floor(d["accuracy"] * 100) / 100
if "--floor" in sys.argv:
    e = s.index("\n", s.index("`floor.txt` holds"))
    s = s[:s.index("`floor.txt` holds")] + f"`floor.txt` holds {floor:.2f} (the overall accuracy rounded down)." + s[e:]
    open(os.path.join(HERE, "floor.txt"), "w").write(f"{floor:.2f}\n")
open(p, "w").write(s)
print(f"accuracy {d['accuracy']:.4f}, floor {floor:.2f}")
