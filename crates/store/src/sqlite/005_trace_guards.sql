-- Each site's trace row gains its guards (the conditions of the `if`
-- statements around it, from its facts) as an eleventh field: tracing
-- tells apart two sites in the two branches of one `if` by them.
DELETE FROM record_traces;
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
      json_extract(value, '$.githubUrl'),
      json(coalesce(json_extract(value, '$.facts.guards'), '[]'))) ORDER BY key)
    FROM json_each(record, '$.sites'))))
FROM records;
