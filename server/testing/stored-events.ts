// Stored events rewritten as an older version wrote them (tests of a ruleset's `upcast`): through a second connection
// to the test's database file, every payload of one encounter is replaced by `rewrite`'s result and the snapshots are
// dropped, so a resume must replay every event through the upcast. Returns the payloads as now stored.
import { expect } from 'vitest';
import type { EncounterDetail } from '../../core/api/contract.ts';
import { openDatabase } from '../../db/connection.ts';
import type { TestApp } from './harness.ts';

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

/**
 * Restarts the app on its file and checks the GM finds the encounter as it was before its events were rewritten:
 * the same view and export summary, and an undo that takes back the last event (every event replayed through the
 * upcast, the snapshots being gone).
 */
export async function expectSameAfterRestart(t: TestApp, id: string, before: EncounterDetail, summary: unknown): Promise<void> {
  t.reopen();
  const after = await t.ok('encounters:get', { id });
  expect(after.view).toEqual(before.view);
  expect(await t.ok('encounters:summary', { id })).toEqual(summary);
  const undone = await t.ok('encounters:undo', { id });
  expect(undone.encounter.eventCount).toBe(before.encounter.eventCount - 1);
}
