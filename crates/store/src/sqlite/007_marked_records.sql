-- Records are stored with the run's commit and times as marks (see
-- encode.rs), the times in columns: a record a new commit did not change
-- is then the very row already stored, and is not written again.
-- `records.analyzed_at` NULL: the repository's `analyzed_at`.
ALTER TABLE records ADD COLUMN analyzed_at TEXT;
ALTER TABLE repos ADD COLUMN analyzed_at TEXT;
UPDATE records SET analyzed_at = json_extract(record, '$.analyzedAt');
-- Traces first: which rows are pinned to their repository's commit is read
-- from the records before they are marked.
UPDATE record_traces SET trace = replace(trace,
    (SELECT p.commit_sha FROM records r JOIN repos p ON p.repo = r.repo
     WHERE r.seq = record_traces.seq),
    '\u0001errdex:commit\u0001')
  WHERE (SELECT json_extract(r.record, '$.analyzedSha') = p.commit_sha
                AND length(p.commit_sha) >= 7
         FROM records r JOIN repos p ON p.repo = r.repo
         WHERE r.seq = record_traces.seq);
UPDATE records SET record = replace(record,
    (SELECT p.commit_sha FROM repos p WHERE p.repo = records.repo),
    '\u0001errdex:commit\u0001')
  WHERE json_extract(record, '$.analyzedSha') =
          (SELECT p.commit_sha FROM repos p WHERE p.repo = records.repo)
    AND length(json_extract(record, '$.analyzedSha')) >= 7;
-- (A row without a time keeps its text: the pattern then matches nothing.)
UPDATE records SET record = replace(replace(record,
    '"analyzedAt":"' || coalesce(analyzed_at, '\u0000') || '"',
    '"analyzedAt":"\u0001errdex:analyzedAt\u0001"'),
    '"contentChangedAt":"' || coalesce(content_changed_at, '\u0000') || '"',
    '"contentChangedAt":"\u0001errdex:contentChangedAt\u0001"');
