// Never keep a snapshot that disagrees with the events (server/encounter-store.ts): another writer that changes an
// encounter behind the app's back makes the app rebuild it from the stored events before its next write, and a
// stored snapshot its events do not reproduce is not resumed from: the events' state is, and the snapshot is
// replaced. The other writer is a second better-sqlite3 connection to the same file, as another process would be.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HandlerResults } from '../core/api/contract.ts';
import { EncounterEngine } from '../core/encounter/kernel.ts';
import type { EncounterInput, GmEvent } from '../core/encounter/types.ts';
import { openDatabase, writeTransaction } from '../db/connection.ts';
import { getEncounter, saveSnapshot, SNAPSHOT_EVERY } from '../db/encounters.ts';
import { EncounterStore, rulesFor } from './encounter-store.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;
type Detail = HandlerResults['encounters:get'];

const storedEvents = (id: string) =>
  t.rows('SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', id).map((r) => JSON.parse(r['payload_json'] as string) as GmEvent);
const inputOf = (id: string) => JSON.parse(t.rows('SELECT input_json FROM encounters WHERE id = ?', id)[0]!['input_json'] as string) as EncounterInput;
const replayed = (id: string, events: GmEvent[]) => EncounterEngine.resume(rulesFor('enigma'), inputOf(id), undefined, events);
/** The view a fresh engine gives after replaying every stored event from the start (no snapshot, no mark). */
const freshView = (id: string) => replayed(id, storedEvents(id)).view();
/** The digest a snapshot carries: sha1 over each event's JSON and a newline. */
const digest = (events: GmEvent[]) => events.reduce((hash, event) => hash.update(JSON.stringify(event)).update('\n'), createHash('sha1')).digest('base64');
const snapshotAt = (id: string, seq: number) => t.rows('SELECT snapshot_json FROM encounter_snapshots WHERE encounter_id = ? AND seq = ?', id, seq)[0]?.['snapshot_json'] as string | undefined;

/** Ash against five goblins, started. */
async function fight(): Promise<{ id: string; detail: Detail }> {
  const campaign = await ok('campaigns:create', { name: 'Snapshots', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Crossing' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 5 }] });
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  return { id: encounter.id, detail: await ok('encounters:append', { id: encounter.id, event: { type: 'START' } }) };
}

/** `count` more events through the app: a point of damage to each goblin in turn every fifth event, else a turn. */
async function play(id: string, shown: Detail, count: number): Promise<Detail> {
  const goblins = shown.view.order.filter((c) => c.side === 'gm').map((c) => c.id);
  let d = shown;
  for (let i = 0; i < count; i++) {
    const event = i % 5 === 0 ? { type: 'APPLY_DAMAGE', targetId: goblins[(i / 5) % goblins.length], amount: 1, source: 'a sling' } : { type: 'END_TURN' };
    d = await ok('encounters:append', { id, event });
  }
  return d;
}

describe('an encounter another writer changed behind the app\'s back', () => {
  it('is rebuilt from the stored events before the next write: the result and the snapshot it saves agree with a fresh replay', async () => {
    const { id, detail } = await fight();
    const shown = await play(id, detail, 10);
    expect(shown.view).toEqual(freshView(id));
    // The other writer takes back the app's newest event and stores another in its place: the same event count.
    const other = openDatabase(t.dir.file());
    try {
      const store = new EncounterStore(other);
      const goblin = shown.view.order.find((c) => c.name === 'Goblin 3')!;
      writeTransaction(other, () => {
        const later = new Date(Date.now() + 1000).toISOString();
        store.undo(getEncounter(other, id)!, later);
        store.append(getEncounter(other, id)!, { type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 4, source: 'the other window' }, later);
      });
    } finally {
      other.close();
    }
    expect(storedEvents(id)).toHaveLength(shown.encounter.eventCount);
    // The app appends on: its answer is the replay of what the file holds, the other writer's damage included.
    const next = await ok('encounters:append', { id, event: { type: 'END_TURN' } });
    expect(next.view).toEqual(freshView(id));
    expect(next.view.order.find((c) => c.name === 'Goblin 3')!.health!.current).toBe(freshView(id).order.find((c) => c.name === 'Goblin 3')!.health!.current);
    // On past the snapshot at 50: a fresh start resumes from it with the events' state.
    const last = await play(id, next, SNAPSHOT_EVERY);
    expect(last.encounter.eventCount).toBeGreaterThan(SNAPSHOT_EVERY);
    expect(snapshotAt(id, SNAPSHOT_EVERY)).toBeDefined();
    expect(last.view).toEqual(freshView(id));
    t.reopen();
    expect((await ok('encounters:get', { id })).view).toEqual(freshView(id));
  });
});

describe('a stored snapshot that disagrees with its events', () => {
  /** A fight past its first snapshot, the app closed; the events with one damage changed, as a stale engine held them. */
  async function pastTheSnapshot() {
    const { id, detail } = await fight();
    await play(id, detail, SNAPSHOT_EVERY + 5);
    const events = storedEvents(id);
    const changed = events.findIndex((e) => e.type === 'APPLY_DAMAGE');
    const stale = events.map((e, i) => (i === changed ? { ...e, amount: 3 } : e));
    const wrong = replayed(id, stale.slice(0, SNAPSHOT_EVERY));
    expect(wrong.view()).not.toEqual(replayed(id, events.slice(0, SNAPSHOT_EVERY)).view());
    return { id, events, stale, wrong };
  }

  /** Writes a snapshot at 50 behind the app's back. */
  function forge(id: string, state: unknown, covers?: string): string {
    const other = openDatabase(t.dir.file());
    try {
      saveSnapshot(other, id, SNAPSHOT_EVERY, state, covers);
    } finally {
      other.close();
    }
    return snapshotAt(id, SNAPSHOT_EVERY)!;
  }

  const expectReplaced = (id: string, events: GmEvent[], forged: string) => {
    const now = snapshotAt(id, SNAPSHOT_EVERY)!;
    expect(now).not.toBe(forged);
    const stored = JSON.parse(now) as { covers: string; machine: unknown };
    expect(stored.covers).toBe(digest(events.slice(0, SNAPSHOT_EVERY)));
    expect(stored.machine).toEqual(JSON.parse(JSON.stringify(replayed(id, events.slice(0, SNAPSHOT_EVERY)).persisted())));
  };

  it('saved by an engine that had gone stale (its digest is of the events it held): the first write goes on from the events, and it is replaced', async () => {
    const { id, events, stale, wrong } = await pastTheSnapshot();
    const forged = forge(id, wrong.persisted(), digest(stale.slice(0, SNAPSHOT_EVERY)));
    t.reopen();
    // A read takes a snapshot with a digest at its word (only an engine checked against the file's head saves one);
    // the first write checks the digest against the stored events before it writes anything.
    await ok('encounters:get', { id });
    const written = await ok('encounters:append', { id, event: { type: 'END_TURN' } });
    expect(written.view).toEqual(freshView(id));
    expectReplaced(id, events, forged);
    // The next start resumes from the replaced snapshot, and leaves it alone.
    const replaced = snapshotAt(id, SNAPSHOT_EVERY);
    t.reopen();
    expect((await ok('encounters:get', { id })).view).toEqual(freshView(id));
    expect(snapshotAt(id, SNAPSHOT_EVERY)).toBe(replaced);
  });

  it('saved without a digest (by an earlier version): checked by a replay once, and replaced', async () => {
    const { id, events, wrong } = await pastTheSnapshot();
    const forged = forge(id, wrong.persisted());
    t.reopen();
    expect((await ok('encounters:get', { id })).view).toEqual(freshView(id));
    expectReplaced(id, events, forged);
  });

  it('a right snapshot is resumed from and not written again', async () => {
    const { id } = await pastTheSnapshot();
    const before = snapshotAt(id, SNAPSHOT_EVERY);
    t.reopen();
    expect((await ok('encounters:get', { id })).view).toEqual(freshView(id));
    expect(snapshotAt(id, SNAPSHOT_EVERY)).toBe(before);
  });
});

describe('the digest of the events a snapshot carries', () => {
  afterEach(() => vi.restoreAllMocks());

  /** From now on, counts the hashes copied and the pieces hashed (every hash of the process). */
  function countHashing(): { copies: number; pieces: number } {
    const hash = Object.getPrototypeOf(createHash('sha1')) as { copy(...a: unknown[]): unknown; update(...a: unknown[]): unknown };
    const { copy, update } = hash;
    const count = { copies: 0, pieces: 0 };
    vi.spyOn(hash, 'copy').mockImplementation(function (this: unknown, ...a: unknown[]) {
      count.copies += 1;
      return copy.apply(this, a);
    });
    vi.spyOn(hash, 'update').mockImplementation(function (this: unknown, ...a: unknown[]) {
      count.pieces += 1;
      return update.apply(this, a);
    });
    return count;
  }

  /** The D a snapshot at `seq` carries, chained from the start (see EventDigest in server/encounter-store.ts). */
  const chained = (events: GmEvent[], seq: number) => {
    let d = '';
    for (let from = 0; from < seq; from += SNAPSHOT_EVERY) {
      d = events.slice(from, from + SNAPSHOT_EVERY).reduce((hash, event) => hash.update(JSON.stringify(event)).update('\n'), createHash('sha1').update(d)).digest('base64');
    }
    return d;
  };
  const coversAt = (id: string, seq: number) => (JSON.parse(snapshotAt(id, seq)!) as { covers: string }).covers;

  it('costs an append its own event and no copy of the hash; after undos, a write hashes the events since the last snapshot once', async () => {
    const { id, detail } = await fight();
    const shown = await play(id, detail, SNAPSHOT_EVERY + 2);
    let count = countHashing();
    await play(id, shown, 5);
    // Each append: its event's JSON and a newline, nothing copied (the mark kept beside it shares the events).
    expect(count).toEqual({ copies: 0, pieces: 10 });
    vi.restoreAllMocks();

    // Two undos go back to a mark; the append after them makes the hash again, once: from the snapshot's digest
    // and the events after it that the mark kept, then its own event.
    await ok('encounters:undo', { id });
    await ok('encounters:undo', { id });
    const seq = (await ok('encounters:get', { id })).encounter.eventCount;
    expect(seq).toBeGreaterThan(SNAPSHOT_EVERY);
    count = countHashing();
    await play(id, await ok('encounters:get', { id }), 1);
    expect(count).toEqual({ copies: 0, pieces: 1 + 2 * (seq - SNAPSHOT_EVERY) + 2 });
    vi.restoreAllMocks();

    // On past two snapshots: each carries the digest of its events, chained, as a replay from the start gives it.
    for (let i = 0; i < 2 * SNAPSHOT_EVERY; i++) await ok('encounters:append', { id, event: { type: 'END_TURN' } });
    const events = storedEvents(id);
    expect(coversAt(id, SNAPSHOT_EVERY)).toBe(chained(events, SNAPSHOT_EVERY));
    expect(coversAt(id, 2 * SNAPSHOT_EVERY)).toBe(chained(events, 2 * SNAPSHOT_EVERY));
    expect(coversAt(id, 3 * SNAPSHOT_EVERY)).toBe(chained(events, 3 * SNAPSHOT_EVERY));
  });
});
