-- Ledger reads that need no before/after images. The images (every row an entry wrote, tens of KB for a rest that
-- counts down many records) sit before `state` and `recorded_at` in each row, so any filter on the state walked
-- every image's overflow pages. The index answers state, order and the listing columns by itself, and
-- ledger_records names the lasting records each entry touched (the `record:` keys of its after-image), found by
-- entry or by record.
CREATE INDEX ledger_entries_by_state ON ledger_entries (campaign_id, state, seq, type, day, session_id, recorded_at, subjects_json, log_json);

CREATE TABLE ledger_records (
  campaign_id TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  record_id   TEXT NOT NULL,
  PRIMARY KEY (campaign_id, seq, record_id),
  FOREIGN KEY (campaign_id, seq) REFERENCES ledger_entries (campaign_id, seq) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
CREATE INDEX ledger_records_by_record ON ledger_records (campaign_id, record_id, seq);

INSERT INTO ledger_records (campaign_id, seq, record_id)
  SELECT l.campaign_id, l.seq, substr(j.key, 8) FROM ledger_entries l, json_each(l.after_json) j WHERE j.key LIKE 'record:%';
