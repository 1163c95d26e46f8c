// The first `encounters:get` of a freshly opened app costs the same however long the fight has run: it reads the
// newest stored snapshot, the events after it and the newest LOG_TAIL_EVENTS events' log lines, and replays only the
// events after the snapshot (server/encounter-store.ts `resume`, taken at the snapshot's word until the first
// write). Counted, not timed: the rows its statements read, the JSON.parse calls and characters, and the events the
// engine steps, at a fight of 299 events and one of 1,049 (both 49 past their newest snapshot).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EncounterEngine } from '../core/encounter/kernel.ts';
import { LOG_TAIL_EVENTS } from '../core/api/contract.ts';
import { openDatabase, writeTransaction } from '../db/connection.ts';
import { SNAPSHOT_EVERY, getEncounter } from '../db/encounters.ts';
import { EncounterStore } from './encounter-store.ts';
import { useTestApp } from './testing/harness.ts';
import { countJsonCalls } from './testing/json-calls.ts';
import { countRowsRead } from './testing/rows-read.ts';

const t = useTestApp();
const { ok } = t;

/** What one resume read and replayed. */
interface Work {
  rowsRead: number;
  parses: number;
  parsedCharacters: number;
  eventsStepped: number;
}

async function counted(work: () => Promise<unknown>): Promise<Work> {
  const db = openDatabase(t.dir.file());
  const rowsRead = countRowsRead(db);
  db.close();
  let eventsStepped = 0;
  const json = countJsonCalls();
  const step = EncounterEngine.prototype.step;
  vi.spyOn(EncounterEngine.prototype, 'step').mockImplementation(function (this: EncounterEngine, raw: unknown) {
    eventsStepped += 1;
    step.call(this, raw);
  });
  try {
    await work();
  } finally {
    vi.restoreAllMocks();
  }
  return { rowsRead: rowsRead.rows, parses: json.parses, parsedCharacters: json.parsedCharacters, eventsStepped };
}

afterEach(() => vi.restoreAllMocks());

/** Ash against five goblins, started, then turns passed until the fight holds `length` events. */
async function foughtFor(length: number): Promise<string> {
  const campaign = await ok('campaigns:create', { name: 'Long watch', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Crossing' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 5 }] });
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  // The long part through a second connection: every event one call, not one request.
  const db = openDatabase(t.dir.file());
  try {
    const store = new EncounterStore(db);
    const now = new Date().toISOString();
    writeTransaction(db, () => {
      while (getEncounter(db, encounter.id)!.event_count < length) store.append(getEncounter(db, encounter.id)!, { type: 'END_TURN' }, now);
    });
  } finally {
    db.close();
  }
  return encounter.id;
}

describe('the first encounters:get of a freshly opened app', () => {
  it('reads, parses and replays as much at 1,049 events as at 299: the newest snapshot, the events after it and the log tail', async () => {
    const measured: Work[] = [];
    const views: unknown[] = [];
    for (const length of [6 * SNAPSHOT_EVERY - 1, 21 * SNAPSHOT_EVERY - 1]) {
      expect(length).toBeGreaterThan(LOG_TAIL_EVENTS);
      const id = await foughtFor(length);
      t.reopen();
      await ok('campaigns:list', {}); // the file is open and checked: only the resume is counted
      let detail: { encounter: { eventCount: number }; view: unknown; log: unknown[] } | undefined;
      measured.push(await counted(async () => (detail = await ok('encounters:get', { id }))));
      expect(detail!.encounter.eventCount).toBe(length);
      views.push(detail!.view);
    }
    const [short, long] = measured as [Work, Work];
    // Only the events after the newest snapshot go through the machine.
    expect(short.eventsStepped).toBe(SNAPSHOT_EVERY - 1);
    expect(long.eventsStepped).toBe(SNAPSHOT_EVERY - 1);
    expect(long.rowsRead, 'rows read').toBe(short.rowsRead);
    expect(long.parses, 'JSON.parse calls').toBe(short.parses);
    // The same rows, their numbers a digit longer here and there (rounds and turns in the log lines and the
    // snapshot): 52,751 characters against 52,250 when this was written.
    expect(long.parsedCharacters, 'characters parsed').toBeLessThanOrEqual(short.parsedCharacters * 1.02);
  }, 120_000);
});
