-- Ledger entries become a rowid table, their (campaign_id, seq) key an index of its own. As a WITHOUT ROWID table,
-- each entry's whole row sat in the key's b-tree, and a rest's row (its before and after images hold every record it
-- counted down: 1.4 MB on a long campaign) spills onto overflow pages; SQLite reads a spilled cell whole whenever a
-- seek compares a key with it. Every seek of an entry by its key read the images of the rests on its path: 126 µs
-- for a small entry and 601 µs for a rest on the bench's 1 GB campaign, and a rest's foreign-key check of each record
-- it names (1,863) against its own entry. In a rowid table a seek compares only the key's index cells and then the
-- rowid; the row's columns are read as they are asked for. The columns, their order and the indexes stay as they
-- were. ledger_records is written again around it (with foreign keys on, dropping the old table deletes its rows
-- and theirs with them); its rows are small and stay WITHOUT ROWID.
CREATE TABLE ledger_entries_as_rows (
  campaign_id     TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  seq             INTEGER NOT NULL CHECK (seq >= 1),
  type            TEXT NOT NULL,
  payload_json    TEXT NOT NULL CHECK (json_valid(payload_json)),
  log_json        TEXT NOT NULL CHECK (json_valid(log_json)),
  day             INTEGER NOT NULL,
  session_id      TEXT,
  subjects_json   TEXT NOT NULL CHECK (json_valid(subjects_json)),
  before_json     TEXT NOT NULL CHECK (json_valid(before_json)),
  after_json      TEXT NOT NULL CHECK (json_valid(after_json)),
  state           TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('done', 'undone', 'dropped')),
  recorded_at     TEXT NOT NULL,
  lines_lead      TEXT NOT NULL DEFAULT '',
  first_line_lead TEXT,
  PRIMARY KEY (campaign_id, seq)
) STRICT;
INSERT INTO ledger_entries_as_rows (campaign_id, seq, type, payload_json, log_json, day, session_id, subjects_json, before_json,
    after_json, state, recorded_at, lines_lead, first_line_lead)
  SELECT campaign_id, seq, type, payload_json, log_json, day, session_id, subjects_json, before_json,
    after_json, state, recorded_at, lines_lead, first_line_lead FROM ledger_entries ORDER BY campaign_id, seq;

CREATE TEMP TABLE ledger_records_kept AS SELECT campaign_id, seq, record_id FROM ledger_records;
DROP TABLE ledger_records;
DROP TABLE ledger_entries;
ALTER TABLE ledger_entries_as_rows RENAME TO ledger_entries;

CREATE TABLE ledger_records (
  campaign_id TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  record_id   TEXT NOT NULL,
  PRIMARY KEY (campaign_id, seq, record_id),
  FOREIGN KEY (campaign_id, seq) REFERENCES ledger_entries (campaign_id, seq) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
INSERT INTO ledger_records (campaign_id, seq, record_id) SELECT campaign_id, seq, record_id FROM ledger_records_kept ORDER BY campaign_id, seq, record_id;
DROP TABLE ledger_records_kept;

CREATE INDEX ledger_entries_by_state ON ledger_entries (campaign_id, state, seq, type, day, session_id, recorded_at, subjects_json, log_json);
CREATE INDEX ledger_entries_history ON ledger_entries (campaign_id, state, seq, type, day, session_id, recorded_at, subjects_json,
  lines_lead, first_line_lead);
