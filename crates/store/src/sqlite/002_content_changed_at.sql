-- Each index run compares every record with its previous version; reading
-- contentChangedAt from a column instead of out of the JSON makes that
-- comparison cheap.
ALTER TABLE records ADD COLUMN content_changed_at TEXT;
UPDATE records SET content_changed_at = json_extract(record, '$.contentChangedAt');
