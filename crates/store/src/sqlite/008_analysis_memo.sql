-- What each record's static analysis was made from (hashes of the record
-- as extraction left it and of its related records) and the family it
-- gave: a re-index takes an unchanged record's row over without analysing
-- or encoding it again. NULL: written by another writer (an LLM pass), or
-- before this column; such rows are analysed again.
ALTER TABLE records ADD COLUMN analysis_input TEXT;
ALTER TABLE records ADD COLUMN analysis_related TEXT;
ALTER TABLE records ADD COLUMN family TEXT;
