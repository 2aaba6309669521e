-- What tracing reads of each record (language, documentation, and per site
-- its file, line, function, callee, type, class, arguments, snippet lines
-- and link; not its facts) in a table of its own, as positional JSON:
-- loading every template of an atlas for `errdex explain` then reads a few
-- hundred bytes per record, instead of walking each whole record's
-- overflow pages and parsing it.
-- Records in trace order from an index that holds what tracing reads of
-- the row itself: no table page (each holds most of one large record) is
-- read.
CREATE INDEX records_by_pattern ON records (repo, message_pattern, id, slug);
CREATE TABLE record_traces (
  seq   INTEGER PRIMARY KEY REFERENCES records(seq) ON DELETE CASCADE,
  trace TEXT NOT NULL
);
-- json(): a subquery's or coalesce's value loses its JSON type and would be
-- quoted as a string.
INSERT INTO record_traces (seq, trace)
SELECT seq, json_array(
  json_extract(record, '$.language'),
  json_extract(record, '$.documentation'),
  json((SELECT json_group_array(json_array(
      json_extract(value, '$.filePath'),
      json_extract(value, '$.lineNumber'),
      json_extract(value, '$.function'),
      json_extract(value, '$.callee'),
      json_extract(value, '$.errorType'),
      json_extract(value, '$.errorClass'),
      json(coalesce(json_extract(value, '$.args'), '[]')),
      json_extract(value, '$.sourceCodeStart'),
      json_extract(value, '$.sourceCodeEnd'),
      json_extract(value, '$.githubUrl')) ORDER BY key)
    FROM json_each(record, '$.sites'))))
FROM records;
