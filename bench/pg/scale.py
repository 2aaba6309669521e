#!/usr/bin/env python3
"""Issue 24's scale check, in one run on this machine.

4 workers crawl N repositories (Debian's Go modules as git repositories,
bench/crawl/make-repos.sh) from a PostgreSQL queue while 2 `errdex serve`
processes answer under wrk. Meanwhile one worker that holds a job is killed
with SIGKILL, TRIALS times, and a fresh worker is started in its place.

Checked at the end, each a line of the report (exit 1 if any fails):
- every repository indexed exactly once: a trigger in the bench schema
  logs each committed write of a repository row, so a repository written
  twice (a killed worker's child committing, then its job run again) shows
  as two rows;
- every killed worker's job done and written once, with the records of a
  reference crawl of the same list into SQLite; at least one of them
  finished by another taking (attempt number above the killed one), as a
  kill can land just after the child committed;
- 0 failed requests (wrk's non-2xx and socket errors) on both servers;
- each server shows each new dataset version within a second: a watcher
  polls /healthz and measures, for every version committed, the time
  from the version's timestamp (taken inside its write transaction) to
  the first answer that carries it or a later one.

Usage: bench/pg/scale.py [N] [TRIALS]  (ERRDEX=path/to/errdex; PG=URL,
default .ci/postgres.sh's; needs wrk and psql)
"""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
E = os.environ.get("ERRDEX", os.path.join(ROOT, "target/release/errdex"))
WORK = "/tmp/errdex-bench-pg-scale"
SCHEMA = "bench_scale"
WORKERS = 4
LEASE = 5
PORTS = (18931, 18932)


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def pg_base():
    url = os.environ.get("PG")
    return url or sh("bash", os.path.join(ROOT, ".ci/postgres.sh")).strip().splitlines()[-1]


def psql(base, sql):
    return sh("psql", base, "-qAtc", f"SET client_min_messages = warning; {sql}")


def per_repo_records(db):
    """Records per repository, from `errdex export --format jsonl`."""
    out = sh(E, "--db", db, "export", "--format", "jsonl")
    return Counter(json.loads(line)["repo"] for line in out.splitlines() if line.strip())


class Watcher(threading.Thread):
    """Polls one server's /healthz; keeps (first time seen, version)."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.seen, self.stop, self.failures = port, [], False, 0

    def run(self):
        last = None
        while not self.stop:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2) as r:
                    v = json.load(r)["datasetVersion"]
                # An empty atlas answers a word, not a timestamp.
                if v != last and v[:1].isdigit():
                    self.seen.append((time.time(), v))
                    last = v
            except Exception:
                self.failures += 1
            time.sleep(0.02)

    def lags(self, versions):
        """Seconds from each version's write (its last statement before the
        commit) to the first answer that carries it or a later one."""
        out = []
        for v, at in versions:
            first = next((t for t, s in self.seen if s >= v), None)
            out.append(None if first is None else first - at)
        return out


def start_worker(db, log):
    return subprocess.Popen(
        [E, "--db", db, "worker", "--lease", str(LEASE), "--exit-when-idle"],
        stdout=subprocess.DEVNULL, stderr=log,
        env={**os.environ, "ERRDEX_CACHE_DIR": f"{WORK}/cache"},
    )


def held_ticket(worker):
    """The ticket (seq, attempt) of the job `worker`'s child indexes now."""
    try:
        kids = open(f"/proc/{worker.pid}/task/{worker.pid}/children").read().split()
    except OSError:
        return None
    for kid in kids:
        try:
            args = open(f"/proc/{kid}/cmdline").read().split("\0")
        except OSError:
            continue
        if "--crawl-ticket" in args:
            seq, attempt = args[args.index("--crawl-ticket") + 1].split(":")
            return int(seq), int(attempt)
    return None


def kill_trials(db, workers, trials, log):
    """Kills a job-holding worker `trials` times, spaced over the crawl."""
    killed = []
    # A short random pause before each trial, then a fast poll for a holder:
    # a small crawl (40 repositories, a few seconds) still fits every trial.
    while len(killed) < trials:
        time.sleep(random.uniform(0.1, 0.4))
        live = [w for w in workers if w.poll() is None]
        if not live:
            break
        holding = [(w, t) for w in live if (t := held_ticket(w))]
        while not holding and any(w.poll() is None for w in live):
            time.sleep(0.02)
            holding = [(w, t) for w in live if w.poll() is None and (t := held_ticket(w))]
        if not holding:
            continue
        w, ticket = random.choice(holding)
        w.send_signal(signal.SIGKILL)
        w.wait()
        killed.append(ticket)
        workers.append(start_worker(db, log))
        print(f"  trial {len(killed)}: killed worker {w.pid} holding job {ticket[0]} (attempt {ticket[1]})", flush=True)
    return killed


def wrk(port, path):
    """wrk for as long as the crawl runs (stopped with SIGINT)."""
    p = subprocess.Popen(["wrk", "-t1", "-c8", "-d600s", "--timeout", "10s", "--latency", f"http://127.0.0.1:{port}{path}"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p


def wrk_result(p):
    """Stops wrk; its requests, req/s, p99 and failures."""
    p.send_signal(signal.SIGINT)
    out = p.communicate(timeout=30)[0]
    rps = next((l.split()[1] for l in out.splitlines() if l.startswith("Requests/sec")), "?")
    p99 = next((l.split()[1] for l in out.splitlines() if l.strip().startswith("99%")), "?")
    worst = next((l.split()[3] for l in out.splitlines() if l.strip().startswith("Latency ")), "?")
    total = next((l.split()[0] for l in out.splitlines() if "requests in" in l), "?")
    bad = [l.strip() for l in out.splitlines() if "Non-2xx" in l or "Socket errors" in l]
    return total, rps, p99, worst, bad


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    base = pg_base()
    os.makedirs(WORK, exist_ok=True)
    subprocess.run(["rm", "-rf", f"{WORK}/cache", f"{WORK}/ref.db", f"{WORK}/ref-cache"], check=True)
    print(f"== {n} repositories (bench/crawl/make-repos.sh)", flush=True)
    sh("bash", os.path.join(ROOT, "bench/crawl/make-repos.sh"), f"{WORK}/repos", str(n))
    listing = f"{WORK}/repos/list.txt"

    print("== reference: the same list crawled into SQLite by one process", flush=True)
    ref_db = f"{WORK}/ref.db"
    subprocess.run([E, "--db", ref_db, "crawl", listing], check=True, capture_output=True,
                   env={**os.environ, "ERRDEX_CACHE_DIR": f"{WORK}/ref-cache"})
    reference = per_repo_records(ref_db)

    print(f"== {WORKERS} workers on PostgreSQL, 2 servers under wrk, {trials} kill trials", flush=True)
    psql(base, f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE; CREATE SCHEMA {SCHEMA};")
    db = f"{base}{'&' if '?' in base else '?'}options=-c%20search_path%3D{SCHEMA}"
    sh(E, "--db", db, "crawl", listing)
    psql(base, f"""
        CREATE TABLE {SCHEMA}.writes (repo TEXT, version TEXT, at TIMESTAMPTZ DEFAULT clock_timestamp());
        CREATE FUNCTION {SCHEMA}.log_write() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN INSERT INTO {SCHEMA}.writes (repo, version) VALUES (NEW.repo, NEW.dataset_version); RETURN NEW; END $$;
        CREATE TRIGGER log_write AFTER INSERT OR UPDATE ON {SCHEMA}.repos
          FOR EACH ROW EXECUTE FUNCTION {SCHEMA}.log_write();
        CREATE TABLE {SCHEMA}.versions (version TEXT, at DOUBLE PRECISION);
        CREATE FUNCTION {SCHEMA}.log_version() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN INSERT INTO {SCHEMA}.versions VALUES (NEW.value, extract(epoch FROM clock_timestamp())); RETURN NEW; END $$;
        CREATE TRIGGER log_version AFTER INSERT OR UPDATE ON {SCHEMA}.meta
          FOR EACH ROW WHEN (NEW.key = 'dataset_version') EXECUTE FUNCTION {SCHEMA}.log_version();""")
    log = open(f"{WORK}/workers.log", "w")
    servers = [subprocess.Popen([E, "--db", db, "serve", "--addr", f"127.0.0.1:{p}"],
                                stdout=subprocess.DEVNULL, stderr=log) for p in PORTS]
    for p in PORTS:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{p}/healthz", timeout=1)
                break
            except Exception:
                time.sleep(0.1)
    watchers = [Watcher(p) for p in PORTS]
    for w in watchers:
        w.start()
    loads = [wrk(PORTS[0], "/api/search?q=connection+refused"), wrk(PORTS[1], "/")]
    started = time.time()
    workers = [start_worker(db, log) for _ in range(WORKERS)]
    killed = kill_trials(db, workers, trials, log)
    for w in workers:
        w.wait()
    took = time.time() - started
    time.sleep(1.5)  # the last version reaches the servers
    for w in watchers:
        w.stop = True
    results = [wrk_result(p) for p in loads]
    for s in servers:
        s.terminate()
        s.wait()

    failures = []
    status = sh(E, "--db", db, "status").splitlines()[0]
    print(f"  crawl: {took:.1f} s, {status}")
    writes = Counter(psql(base, f"SELECT repo FROM {SCHEMA}.writes").split())
    twice = {r: c for r, c in writes.items() if c != 1}
    got = per_repo_records(db)
    print(f"  repositories written: {len(writes)}; written more than once: {len(twice)}")
    done_repos = set(psql(base, f"SELECT repo FROM {SCHEMA}.crawl_jobs WHERE state = 'done'").split())
    if twice or set(writes) != done_repos or len(done_repos) != n:
        failures.append(f"writes per repository: {twice or 'not one per job'}")
    differ = {r: (reference.get(r), got.get(r)) for r in set(reference) | set(got) if reference.get(r) != got.get(r)}
    print(f"  records per repository equal to the SQLite reference: {len(reference) - len(differ)} of "
          f"{len(reference)} (the other {n - len(reference)} repositories hold no message, in both)")
    if differ:
        failures.append(f"records differ from the reference: {dict(list(differ.items())[:5])}")
    jobs = {int(s): (st, int(a), r) for s, st, a, r in
            (l.split("|") for l in psql(base, f"SELECT seq, state, attempts, coalesce(repo, '') FROM {SCHEMA}.crawl_jobs").splitlines())}
    retaken = 0
    for seq, attempt in killed:
        st, a, repo = jobs[seq]
        # A kill can land after the child committed its job: then the job is
        # done at the killed attempt, still written once, and nobody retakes it.
        how = "retaken" if a > attempt else "committed before the kill"
        retaken += a > attempt
        print(f"  killed job {seq}: {st}, attempt {a} (killed at {attempt}, {how}), {repo} written {writes.get(repo, 0)}x")
        if st != "done" or writes.get(repo) != 1:
            failures.append(f"killed job {seq} not done and written once")
    if killed and not retaken:
        failures.append("no kill interrupted a job (each child had committed first)")
    if len(killed) < trials:
        failures.append(f"only {len(killed)} of {trials} kill trials ran (the crawl ended first)")
    for port, (total, rps, p99, worst, bad) in zip(PORTS, results):
        print(f"  server :{port}: {total} requests, {rps} req/s, p99 {p99}, max {worst}, "
              f"{'; '.join(bad) or '0 failed'}")
        if bad:
            failures.append(f"server :{port}: {bad}")
    versions = [(v, float(at)) for v, at in
                (l.split("|") for l in psql(base, f"SELECT version, at FROM {SCHEMA}.versions ORDER BY version").splitlines())]
    for port, w in zip(PORTS, watchers):
        lags = w.lags(versions)
        missing = sum(l is None for l in lags)
        seen = sorted(l for l in lags if l is not None)
        worst = seen[-1] if seen else float("nan")
        p99 = seen[int(len(seen) * 0.99)] if seen else float("nan")
        late = sum(l > 1.0 for l in seen)
        print(f"  server :{port}: {len(versions)} versions; lag median {seen[len(seen) // 2]:.3f} s, p99 {p99:.3f} s, "
              f"max {worst:.3f} s; later than 1 s: {late}; never seen: {missing}; healthz poll failures: {w.failures}")
        if late or missing:
            failures.append(f"server :{port}: {late} versions later than 1 s, {missing} never seen")
    print("PASS" if not failures else "FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
