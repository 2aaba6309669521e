-- The atlas: repositories, their records (the full record as JSON, plus the
-- columns lists filter on), dynamic sites, and full-text search.
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE repos (
  repo            TEXT PRIMARY KEY,
  commit_sha      TEXT,
  remote_url      TEXT,
  dataset_version TEXT NOT NULL,
  indexed_at      TEXT NOT NULL,
  stats           TEXT NOT NULL
);

CREATE TABLE records (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  repo            TEXT NOT NULL REFERENCES repos(repo) ON DELETE CASCADE,
  slug            TEXT NOT NULL,
  message_pattern TEXT NOT NULL,
  error_message   TEXT NOT NULL,
  error_type      TEXT NOT NULL,
  severity        TEXT NOT NULL,
  file_path       TEXT NOT NULL,
  line_number     INTEGER NOT NULL,
  error_code      TEXT,
  content_hash    TEXT NOT NULL,
  record          TEXT NOT NULL,
  UNIQUE (repo, slug)
);
CREATE INDEX records_by_path ON records (repo, file_path, line_number);

CREATE TABLE dynamic_sites (
  repo        TEXT NOT NULL REFERENCES repos(repo) ON DELETE CASCADE,
  file_path   TEXT NOT NULL,
  line_number INTEGER NOT NULL,
  function    TEXT,
  callee      TEXT NOT NULL,
  expression  TEXT NOT NULL
);
CREATE INDEX dynamic_sites_by_repo ON dynamic_sites (repo, file_path);

CREATE VIRTUAL TABLE records_fts USING fts5 (
  error_message,
  message_pattern,
  tokenize = 'unicode61 remove_diacritics 2'
);
