#!/usr/bin/env python3
"""Does PostgreSQL's search rank like SQLite's? One atlas in each backend
(bench/pg/bench.sh leaves etcd in both), one `errdex serve` each, the same
queries to /api/search on both:

- known-item queries: for 60 records drawn with a fixed seed, three
  words of the record's own message (its literal words, in order): is
  the record in the top 10 of each backend (recall@10), and at rank 1?
- both backends' top 10 compared: mean overlap (shared ids over the
  longer list), how often the lists are identical in order, and how
  often both put the same record first.

Usage: bench/pg/ranking.py SQLITE_DB POSTGRES_URL  (ERRDEX=path/to/errdex)
"""
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
E = os.environ.get("ERRDEX", os.path.join(ROOT, "target/release/errdex"))


def serve(db, port):
    p = subprocess.Popen([E, "--db", db, "serve", "--addr", f"127.0.0.1:{port}"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return p
        except Exception:
            time.sleep(0.1)
    raise SystemExit(f"{db}: the server did not start")


def search(port, q):
    url = f"http://127.0.0.1:{port}/api/search?limit=10&q={urllib.parse.quote(q)}"
    with urllib.request.urlopen(url, timeout=30) as r:
        return [h["id"] for h in json.load(r)["results"]]


def main():
    sqlite_db, pg = sys.argv[1], sys.argv[2]
    records = [json.loads(l) for l in subprocess.run(
        [E, "--db", sqlite_db, "export", "--format", "jsonl"], check=True,
        capture_output=True, text=True).stdout.splitlines() if l.strip()]
    rng = random.Random(24)
    queries = []
    for r in rng.sample(records, len(records)):
        words = re.findall(r"[A-Za-z]{4,}", r["messagePattern"])
        if len(words) >= 3:
            start = rng.randrange(len(words) - 2)
            queries.append((r["id"], " ".join(words[start:start + 3])))
        if len(queries) == 60:
            break
    servers = [serve(sqlite_db, 18941), serve(pg, 18942)]
    try:
        found = [[0, 0], [0, 0]]
        overlap, same_first, identical = 0.0, 0, 0
        for rid, q in queries:
            tops = [search(18941, q), search(18942, q)]
            for b, top in enumerate(tops):
                found[b][0] += rid in top
                found[b][1] += bool(top) and top[0] == rid
            longer = max(len(tops[0]), len(tops[1])) or 1
            overlap += len(set(tops[0]) & set(tops[1])) / longer
            identical += tops[0] == tops[1]
            same_first += bool(tops[0]) and bool(tops[1]) and tops[0][0] == tops[1][0]
    finally:
        for s in servers:
            s.terminate()
    n = len(queries)
    for name, (in10, first) in zip(("SQLite", "PostgreSQL"), found):
        print(f"{name}: the record in the top 10 for {in10}/{n}, first for {first}/{n}")
    print(f"top 10 shared: {overlap / n:.0%} on average (of the longer list); identical, in order: "
          f"{identical}/{n}; same first result: {same_first}/{n}")


if __name__ == "__main__":
    main()
