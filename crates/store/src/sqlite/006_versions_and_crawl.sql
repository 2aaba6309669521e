-- History runs: the versions (tags, refs) a repository was indexed at,
-- oldest first, as JSON ([] for a one-commit run).
ALTER TABLE repos ADD COLUMN versions TEXT NOT NULL DEFAULT '[]';

-- `errdex crawl`: the repositories to index, in the order listed. A job is
-- queued, running (with the process that took it), done or failed (with
-- why); a run killed mid-job leaves it running, and the next crawl takes
-- it again once that process is gone.
CREATE TABLE crawl_jobs (
  seq         INTEGER PRIMARY KEY,
  source      TEXT NOT NULL UNIQUE,
  refs        TEXT,
  state       TEXT NOT NULL DEFAULT 'queued',
  attempts    INTEGER NOT NULL DEFAULT 0,
  owner       INTEGER,
  repo        TEXT,
  reason      TEXT,
  started_at  TEXT,
  finished_at TEXT,
  seconds     REAL
);
CREATE INDEX crawl_jobs_by_state ON crawl_jobs (state, seq);
