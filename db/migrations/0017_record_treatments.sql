-- Each lasting record keeps the seqs of the ledger entries that changed it (`treatment_seqs`: ascending, joined by
-- commas; null if none), as ledger_records names them record by record: a character's history reads the treatments
-- of the records it sends from the rows it reads of them by their key, where it sought each (entry, record) pair in
-- ledger_records' key (a rest that counts down 1,860 records gives each its row: 3,700 seeks for 74 records after 50
-- rests). A ledger entry appends its seq to the records it changes in the one update it makes of each
-- (server/ledger-store.ts); bringing an entry back appends it if the record lost it (db/ledger.ts, writeImage);
-- taking one back leaves it (the history keeps only the done entries). An import fills it as this does.
ALTER TABLE injuries ADD COLUMN treatment_seqs TEXT;

UPDATE injuries SET treatment_seqs = t.seqs
  FROM (SELECT campaign_id, record_id, group_concat(seq, ',' ORDER BY seq) AS seqs FROM ledger_records GROUP BY campaign_id, record_id) AS t
  WHERE injuries.id = t.record_id AND injuries.campaign_id = t.campaign_id;
