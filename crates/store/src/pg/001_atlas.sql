-- The atlas, as SQLite's migrations 001-007 leave it: repositories, their
-- records (marked JSON, see encode.rs; the trace row in a column), dynamic
-- sites, the LLM answer cache and the crawl queue. Text that lists sort
-- on is compared byte by byte ("C"), as SQLite compares it.
CREATE TABLE repos (
  repo            TEXT COLLATE "C" PRIMARY KEY,
  commit_sha      TEXT,
  remote_url      TEXT,
  dataset_version TEXT NOT NULL,
  indexed_at      TEXT NOT NULL,
  stats           TEXT NOT NULL,
  versions        TEXT NOT NULL DEFAULT '[]',
  analyzed_at     TEXT
);

CREATE TABLE records (
  seq                BIGSERIAL PRIMARY KEY,
  id                 TEXT COLLATE "C" NOT NULL UNIQUE,
  repo               TEXT COLLATE "C" NOT NULL REFERENCES repos(repo) ON DELETE CASCADE,
  slug               TEXT COLLATE "C" NOT NULL,
  message_pattern    TEXT COLLATE "C" NOT NULL,
  error_message      TEXT NOT NULL,
  error_type         TEXT NOT NULL,
  severity           TEXT NOT NULL,
  file_path          TEXT COLLATE "C" NOT NULL,
  line_number        INTEGER NOT NULL,
  error_code         TEXT,
  content_hash       TEXT NOT NULL,
  record             TEXT NOT NULL,
  content_changed_at TEXT NOT NULL,
  analyzed_at        TEXT,
  trace              TEXT,
  search             tsvector GENERATED ALWAYS AS
                       (to_tsvector('simple', error_message || ' ' || message_pattern)) STORED,
  UNIQUE (repo, slug)
);
CREATE INDEX records_by_path ON records (repo, file_path, line_number);
CREATE INDEX records_by_pattern ON records (repo, message_pattern);
CREATE INDEX records_search ON records USING GIN (search);

CREATE TABLE dynamic_sites (
  repo        TEXT COLLATE "C" NOT NULL REFERENCES repos(repo) ON DELETE CASCADE,
  file_path   TEXT COLLATE "C" NOT NULL,
  line_number INTEGER NOT NULL,
  function    TEXT,
  callee      TEXT NOT NULL,
  expression  TEXT NOT NULL
);
CREATE INDEX dynamic_sites_by_repo ON dynamic_sites (repo, file_path);

CREATE TABLE llm_cache (
  key        TEXT PRIMARY KEY,
  provider   TEXT NOT NULL,
  model      TEXT NOT NULL,
  answer     TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE crawl_jobs (
  seq         BIGSERIAL PRIMARY KEY,
  source      TEXT NOT NULL UNIQUE,
  refs        TEXT,
  state       TEXT NOT NULL DEFAULT 'queued',
  attempts    INTEGER NOT NULL DEFAULT 0,
  owner       BIGINT,
  repo        TEXT,
  reason      TEXT,
  started_at  TEXT,
  finished_at TEXT,
  seconds     DOUBLE PRECISION,
  -- A running job whose lease has passed is taken again: its worker died
  -- (a live one renews its lease while it works).
  lease_until TIMESTAMPTZ
);
CREATE INDEX crawl_jobs_waiting ON crawl_jobs (state, seq);
