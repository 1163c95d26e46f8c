-- Snapshots become a rowid table, as ledger entries did in 0018 and for the same reason: a snapshot of a fight of
-- 200 combatants is about 120 KB (300 KB at 500) and spills onto overflow pages, and in a WITHOUT ROWID table SQLite
-- reads a spilled cell whole each time a seek compares a key with it. Every undo deletes the snapshots from the event
-- it takes back on (none, mostly), and that seek read the snapshots on its way: 0.47–0.51 ms an undo at 200 and 500
-- combatants, 0.03 ms at 20; a rowid table seeks the key's own index. Columns and key stay as they were.
CREATE TABLE encounter_snapshots_as_rows (
  encounter_id  TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
  seq           INTEGER NOT NULL,
  snapshot_json TEXT NOT NULL CHECK (json_valid(snapshot_json)),
  PRIMARY KEY (encounter_id, seq)
) STRICT;
INSERT INTO encounter_snapshots_as_rows (encounter_id, seq, snapshot_json)
  SELECT encounter_id, seq, snapshot_json FROM encounter_snapshots ORDER BY encounter_id, seq;
DROP TABLE encounter_snapshots;
ALTER TABLE encounter_snapshots_as_rows RENAME TO encounter_snapshots;
