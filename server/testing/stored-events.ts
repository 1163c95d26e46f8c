// Stored events rewritten as an older version wrote them (tests of a ruleset's `upcast`): through a second connection
// to the test's database file, every payload of one encounter is replaced by `rewrite`'s result and the snapshots are
// dropped, so a resume must replay every event through the upcast. Returns the payloads as now stored.
import { openDatabase } from '../../db/connection.ts';

export type Payload = Record<string, unknown>;

export function storeAsWritten(file: string, encounterId: string, rewrite: (event: Payload) => Payload): Payload[] {
  const db = openDatabase(file);
  try {
    const rows = db.prepare('SELECT seq, payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq').all(encounterId) as { seq: number; payload_json: string }[];
    const update = db.prepare('UPDATE encounter_events SET payload_json = ? WHERE encounter_id = ? AND seq = ?');
    const stored = rows.map((row) => rewrite(JSON.parse(row.payload_json) as Payload));
    db.transaction(() => {
      rows.forEach((row, i) => update.run(JSON.stringify(stored[i]), encounterId, row.seq));
      db.prepare('DELETE FROM encounter_snapshots WHERE encounter_id = ?').run(encounterId);
    })();
    return stored;
  } finally {
    db.close();
  }
}
