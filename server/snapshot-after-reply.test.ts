// The snapshot an append owes every SNAPSHOT_EVERY events is written after the write's reply, in a transaction of its
// own (server/app.ts, EncounterStore.writeOwedSnapshots): never one of a state the encounter no longer reaches (an
// undo first, a write rolled back, another writer), all of them when writes come in a row with no turn of the event
// loop between (a script) or the app closes, and a fight whose snapshot was never written (a crash first) resumes
// right from the events. Real SQLite files; another process is a second connection.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../core/encounter/kernel.ts';
import type { EncounterInput, GmEvent } from '../core/encounter/types.ts';
import { openDatabase, writeTransaction, type Db } from '../db/connection.ts';
import { SNAPSHOT_EVERY, getEncounter, latestSnapshot } from '../db/encounters.ts';
import { EncounterStore, rulesFor } from './encounter-store.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

const storedEvents = (id: string) =>
  t.rows('SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', id).map((r) => JSON.parse(r['payload_json'] as string) as GmEvent);
const inputOf = (id: string) => JSON.parse(t.rows('SELECT input_json FROM encounters WHERE id = ?', id)[0]!['input_json'] as string) as EncounterInput;
/** The state a fresh engine reaches through the first `upTo` stored events, as a snapshot holds it. */
const replayedState = (id: string, upTo: number) => JSON.parse(JSON.stringify(EncounterEngine.resume(rulesFor('enigma'), inputOf(id), undefined, storedEvents(id).slice(0, upTo)).persisted())) as unknown;
const snapshotSeqs = (id: string) => t.rows('SELECT seq FROM encounter_snapshots WHERE encounter_id = ? ORDER BY seq', id).map((r) => r['seq'] as number);
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Ash against two goblins, started: 3 events. */
async function fight(): Promise<{ id: string; goblinId: string }> {
  const campaign = await ok('campaigns:create', { name: 'Owed', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 12 } });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Ford' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  const goblins = added.view.order.filter((c) => c.side === 'gm').map((c) => c.id);
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: goblins } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  return { id: encounter.id, goblinId: goblins[0]! };
}

const drums = (source: string) => ({ type: 'RAISE_ESCALATION', by: 1, source });

/** Appends through the app until the encounter holds `count` events, each awaited (no turn of the event loop between). */
async function appendUpTo(id: string, count: number, source = 'drums'): Promise<void> {
  let at = (await ok('encounters:get', { id })).encounter.eventCount;
  while (at < count) at = (await ok('encounters:append', { id, event: drums(source) })).encounter.eventCount;
}

/** The stored snapshot at `seq` is the state the stored events give there, with their digest. */
function expectRight(id: string, seq: number): void {
  const db = openDatabase(t.dir.file());
  try {
    const stored = latestSnapshot(db, id, seq);
    expect(stored?.seq).toBe(seq);
    expect(stored?.covers).not.toBeNull();
    expect(stored?.snapshot).toEqual(replayedState(id, seq));
  } finally {
    db.close();
  }
}

describe('the snapshot an append owes', () => {
  it('is written in the turn after the reply, right', async () => {
    const { id } = await fight();
    await appendUpTo(id, SNAPSHOT_EVERY - 1);
    await turn();
    await ok('encounters:append', { id, event: drums('the fiftieth') });
    expect(snapshotSeqs(id)).toEqual([]);
    await turn();
    expect(snapshotSeqs(id)).toEqual([SNAPSHOT_EVERY]);
    expectRight(id, SNAPSHOT_EVERY);
  });

  it('is written before the next write when no turn came between (a script), and on close', async () => {
    const { id } = await fight();
    await appendUpTo(id, 2 * SNAPSHOT_EVERY);
    // The one at 50 went in before write 51; the one at 100 is still owed.
    expect(snapshotSeqs(id)).toEqual([SNAPSHOT_EVERY]);
    t.reopen();
    expect(snapshotSeqs(id)).toEqual([SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY]);
    expectRight(id, SNAPSHOT_EVERY);
    expectRight(id, 2 * SNAPSHOT_EVERY);
  });

  it('is not written when an undo took its event away first; the new event there owes its own', async () => {
    const { id } = await fight();
    await appendUpTo(id, SNAPSHOT_EVERY - 1);
    // Through a store of the app's kind on a connection of the test's own, so nothing writes it in between.
    const db = openDatabase(t.dir.file());
    try {
      const store = new EncounterStore(db, { snapshotsAfterReply: true });
      const now = () => new Date(Date.now() + 1000).toISOString();
      writeTransaction(db, () => store.append(getEncounter(db, id)!, drums('taken back'), now()));
      expect(store.owesSnapshots()).toBe(true);
      writeTransaction(db, () => store.undo(getEncounter(db, id)!, now()));
      expect(store.owesSnapshots()).toBe(false);
      expect(store.writeOwedSnapshots()).toBe(0);
      writeTransaction(db, () => store.append(getEncounter(db, id)!, drums('kept'), now()));
      expect(store.writeOwedSnapshots()).toBe(1);
    } finally {
      db.close();
    }
    expect(storedEvents(id).at(-1)).toMatchObject({ source: 'kept' });
    expectRight(id, SNAPSHOT_EVERY);
  });

  it('is not written when its write was rolled back, nor when another writer changed the encounter since', async () => {
    const { id } = await fight();
    await appendUpTo(id, SNAPSHOT_EVERY - 1);
    const db = openDatabase(t.dir.file());
    const other = openDatabase(t.dir.file());
    try {
      const store = new EncounterStore(db, { snapshotsAfterReply: true });
      const at = (ms: number) => new Date(Date.now() + ms).toISOString();
      // A write that fails after its append: the transaction rolls back, event 50 is not stored.
      expect(() => writeTransaction(db, () => {
        store.append(getEncounter(db, id)!, drums('rolled back'), at(1000));
        throw new Error('disk full');
      })).toThrow('disk full');
      expect(store.writeOwedSnapshots()).toBe(0);
      expect(snapshotSeqs(id)).toEqual([]);
      // Appended, then another writer takes the event back and puts another in its place before the snapshot is written.
      writeTransaction(db, () => store.append(getEncounter(db, id)!, drums('replaced'), at(2000)));
      writeTransaction(other, () => {
        const elsewhere = new EncounterStore(other);
        elsewhere.undo(getEncounter(other, id)!, at(3000));
        elsewhere.append(getEncounter(other, id)!, drums('the other window'), at(3000));
      });
      // The other writer's own store wrote the right snapshot at 50; the stale one is not written over it.
      const right = t.rows('SELECT snapshot_json FROM encounter_snapshots WHERE encounter_id = ?', id);
      expect(store.writeOwedSnapshots()).toBe(0);
      expect(t.rows('SELECT snapshot_json FROM encounter_snapshots WHERE encounter_id = ?', id)).toEqual(right);
    } finally {
      db.close();
      other.close();
    }
    expectRight(id, SNAPSHOT_EVERY);
  });

  it('never written (the app killed first): the fight resumes from the events, and the next snapshot is written', async () => {
    const { id } = await fight();
    await appendUpTo(id, SNAPSHOT_EVERY - 1);
    const db: Db = openDatabase(t.dir.file());
    try {
      const killed = new EncounterStore(db, { snapshotsAfterReply: true });
      writeTransaction(db, () => killed.append(getEncounter(db, id)!, drums('the last before the kill'), new Date(Date.now() + 1000).toISOString()));
      expect(killed.owesSnapshots()).toBe(true);
    } finally {
      db.close();
    }
    expect(snapshotSeqs(id)).toEqual([]);
    t.reopen();
    const resumed = await ok('encounters:get', { id });
    expect(resumed.encounter.eventCount).toBe(SNAPSHOT_EVERY);
    expect(resumed.view).toEqual(EncounterEngine.resume(rulesFor('enigma'), inputOf(id), undefined, storedEvents(id)).view());
    await appendUpTo(id, 2 * SNAPSHOT_EVERY);
    await turn();
    expect(snapshotSeqs(id)).toEqual([2 * SNAPSHOT_EVERY]);
    expectRight(id, 2 * SNAPSHOT_EVERY);
  });
});
