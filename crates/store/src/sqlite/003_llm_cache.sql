-- LLM answers, keyed by a hash of what the prompt showed (the record's
-- facts and snippet), the provider, the model and the prompt version: a
-- re-run, or a re-index of unchanged code, sends no request.
CREATE TABLE llm_cache (
  key        TEXT PRIMARY KEY,
  provider   TEXT NOT NULL,
  model      TEXT NOT NULL,
  answer     TEXT NOT NULL,
  created_at TEXT NOT NULL
);
