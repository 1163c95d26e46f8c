// An append costs the same however many injuries the fight has already given: it writes only the injury rows its
// event changed and reads none of the others (server/encounter-store.ts syncConsequences, db/consequences.ts
// writeInjuryChanges). Counted, not timed: the rows the append's statements read and the characters it turns into
// JSON, at a fight with 10 injuries and one with 300.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, writeTransaction, type Db } from '../db/connection.ts';
import { SNAPSHOT_EVERY, getEncounter } from '../db/encounters.ts';
import { EncounterStore } from './encounter-store.ts';
import { useTestApp } from './testing/harness.ts';
import { countJsonCalls } from './testing/json-calls.ts';
import { countRowsRead } from './testing/rows-read.ts';

const t = useTestApp();
const { ok, rows } = t;

/** What one piece of work read and serialised: rows returned by its statements, and characters JSON.stringify gave. */
interface Work {
  rowsRead: number;
  jsonCharacters: number;
}

function counted(db: Db, work: () => void): Work {
  const rowsRead = countRowsRead(db);
  const json = countJsonCalls();
  try {
    work();
  } finally {
    vi.restoreAllMocks();
  }
  return { rowsRead: rowsRead.rows, jsonCharacters: json.stringifiedCharacters };
}

afterEach(() => vi.restoreAllMocks());

/**
 * An Enigma fight in which Berrik has survived Mortal Peril `injuries` times, each Survive giving a new injury, and
 * the store that wrote it (a second connection, so every event of the long fight is one call, not one request).
 */
async function foughtWith(injuries: number, pastSnapshot = 10) {
  const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
  const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Long fight' });
  await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  const berrikId = started.view.order.find((c) => c.name === 'Berrik')!.id;
  const db = openDatabase(t.dir.file());
  const store = new EncounterStore(db);
  const now = new Date().toISOString();
  const append = (event: unknown) => writeTransaction(db, () => store.append(getEncounter(db, encounter.id)!, event, now));
  const survive = (n: number) => ({
    type: 'RESOLVE_PERIL', combatantId: berrikId, choice: 'survive', costText: 'a limp',
    injury: { mode: 'new', name: `Sprained Ankle ${String(n).padStart(4, '0')}`, category: 'speed', baseRoll: 2 },
  });
  const fall = { type: 'APPLY_DAMAGE', targetId: berrikId, amount: 99, source: 'trap' };
  const drums = { type: 'RAISE_ESCALATION', by: 1, source: 'drums' };
  writeTransaction(db, () => {
    for (let n = 1; n <= injuries; n++) {
      store.append(getEncounter(db, encounter.id)!, fall, now);
      store.append(getEncounter(db, encounter.id)!, survive(n), now);
    }
    // Both fights go on from the same place between two stored snapshots (each one holds the whole state).
    while (getEncounter(db, encounter.id)!.event_count % SNAPSHOT_EVERY !== pastSnapshot) store.append(getEncounter(db, encounter.id)!, drums, now);
  });
  const undo = () => writeTransaction(db, () => store.undo(getEncounter(db, encounter.id)!, now));
  return { db, append, undo, fall, survive, drums, encounterId: encounter.id, berrikId };
}

describe('an append at a fight that has given many injuries', () => {
  it('reads and serialises as much at 300 injuries as at 10, whether its event gives an injury or not', async () => {
    const measured: Record<number, Record<'escalation' | 'fall' | 'survive' | 'undo', Work>> = {};
    for (const injuries of [10, 300]) {
      const fight = await foughtWith(injuries);
      try {
        expect(rows('SELECT count(*) AS n FROM injuries WHERE source_encounter_id = ?', fight.encounterId)).toEqual([{ n: injuries }]);
        const escalation = counted(fight.db, () => fight.append({ type: 'RAISE_ESCALATION', by: 1, source: 'drums' }));
        const fall = counted(fight.db, () => fight.append(fight.fall));
        const survive = counted(fight.db, () => fight.append(fight.survive(injuries + 1)));
        expect(rows('SELECT count(*) AS n FROM injuries WHERE source_encounter_id = ?', fight.encounterId)).toEqual([{ n: injuries + 1 }]);
        // The undo of the Survive deletes its injury's row, and only that one.
        const undo = counted(fight.db, fight.undo);
        expect(rows('SELECT count(*) AS n FROM injuries WHERE source_encounter_id = ?', fight.encounterId)).toEqual([{ n: injuries }]);
        measured[injuries] = { escalation, fall, survive, undo };
      } finally {
        fight.db.close();
      }
    }
    for (const work of ['escalation', 'fall', 'survive', 'undo'] as const) {
      const few = measured[10]![work];
      const many = measured[300]![work];
      expect(many.rowsRead, `rows ${work} read`).toBe(few.rowsRead);
      // The new injury's id counts the Survives (c0001.injury11, c0001.injury301): a few characters more, no more.
      expect(many.jsonCharacters - few.jsonCharacters, `characters ${work} serialised`).toBeLessThanOrEqual(16);
    }
  }, 240_000);

  it("compares the rows of the runner's reply without serialising the injuries they list", async () => {
    // The runner's write sends what its screen shows (`since`): the reply carries only the rows that changed, found by
    // comparing each row with the one shown. Berrik's row lists his running injuries; a hit on him changes his LP.
    const serialised: Record<number, number> = {};
    for (const injuries of [10, 300]) {
      const fight = await foughtWith(injuries);
      try {
        // One write through the app first: its store then holds the fight's records, as after any write of a session.
        const hit = { type: 'APPLY_DAMAGE', targetId: fight.berrikId, amount: 1, source: 'a pebble' };
        const shown = (await ok('encounters:append', { id: fight.encounterId, event: hit })).encounter;
        const since = { eventCount: shown.eventCount, version: shown.updatedAt };
        const json = countJsonCalls();
        let reply;
        try {
          reply = await ok('encounters:append', { id: fight.encounterId, event: hit, since });
        } finally {
          json.restore();
        }
        expect(reply.view.order.map((c) => c.id)).toContain(fight.berrikId);
        serialised[injuries] = json.stringifiedCharacters;
      } finally {
        fight.db.close();
      }
    }
    // The new event's row and log are the same size in both fights (a few characters of ids apart).
    expect(serialised[300]! - serialised[10]!).toBeLessThanOrEqual(16);
  }, 240_000);

  it('makes the GM wait no longer at an event that owes a snapshot: the snapshot, which holds every injury, is written after the reply', async () => {
    const measured: Record<number, Work & { snapshot: number }> = {};
    for (const injuries of [10, 300]) {
      // Two events short of a snapshot's seq: one write through the app (its store then holds the fight), then the
      // write whose event is the snapshot's, counted on its own.
      const fight = await foughtWith(injuries, SNAPSHOT_EVERY - 2);
      try {
        const first = (await ok('encounters:append', { id: fight.encounterId, event: fight.drums })).encounter;
        const since = { eventCount: first.eventCount, version: first.updatedAt };
        const seq = first.eventCount + 1;
        expect(seq % SNAPSHOT_EVERY).toBe(0);
        const snapshotAt = () => rows('SELECT length(snapshot_json) AS n FROM encounter_snapshots WHERE encounter_id = ? AND seq = ?', fight.encounterId, seq);
        let reply;
        const work = counted(fight.db, () => void (reply = ok('encounters:append', { id: fight.encounterId, event: fight.drums, since })));
        expect((await reply!).encounter.eventCount).toBe(seq);
        // Replied before the snapshot is stored; in the next turn of the event loop it is.
        expect(snapshotAt()).toEqual([]);
        await new Promise<void>((resolve) => setImmediate(resolve));
        const [stored] = snapshotAt() as { n: number }[];
        expect(stored?.n).toBeGreaterThan(0);
        measured[injuries] = { ...work, snapshot: stored!.n };
      } finally {
        fight.db.close();
      }
    }
    // The snapshot grows with the injuries (each is in it) …
    expect(measured[300]!.snapshot - measured[10]!.snapshot).toBeGreaterThan(50_000);
    // … the append does not: same rows read, a few characters of ids apart.
    expect(measured[300]!.rowsRead, 'rows read').toBe(measured[10]!.rowsRead);
    expect(measured[300]!.jsonCharacters - measured[10]!.jsonCharacters, 'characters serialised').toBeLessThanOrEqual(16);
  }, 240_000);
});

/**
 * A ruleset whose fights give injury records by one event each: `perPc` at most per party member (Cairn-Errant's
 * ten inventory slots, Any system's twenty injuries), so a fight of many records has many party members.
 */
interface InjuringRuleset {
  rulesetId: string;
  perPc: number;
  sheet: Record<string, unknown>;
  /** The events that start the fight. */
  start: unknown[];
  /** The event giving the party member `pcId` its record number `n` of the fight. */
  injure(pcId: string, n: number): unknown;
}

const RULESETS: InjuringRuleset[] = [
  {
    rulesetId: 'cairn-errant', perPc: 10, sheet: { gearSlots: 0, fatigue: 0 }, start: [{ type: 'START' }],
    injure: (pcId, n) => ({ type: 'GAIN_WOUND', combatantId: pcId, woundType: 'other', choice: 'newSlot', severity: 'light', source: `Trap ${String(n).padStart(4, '0')}` }),
  },
  {
    rulesetId: 'any-system', perPc: 20, sheet: {}, start: [{ type: 'START' }, { type: 'START_COMBAT', missingLast: true }],
    injure: (pcId, n) => ({ type: 'INJURY', targetId: pcId, name: `Cut ${String(n).padStart(4, '0')}`, untilLongRest: false }),
  },
];

/**
 * A fight of `ruleset` whose party has been given `injuries` records, filling one member after another; the party
 * is as large in every fight (enough for `most` records and one more), so only the records differ.
 */
async function injuredIn(ruleset: InjuringRuleset, injuries: number, most: number) {
  const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: ruleset.rulesetId });
  const pcIds: string[] = [];
  for (let i = 0; i <= Math.floor(most / ruleset.perPc); i++) {
    pcIds.push((await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: `Hero ${String(i).padStart(3, '0')}`, sheet: ruleset.sheet })).id);
  }
  const brute = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Brute', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Long fight' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds, npcs: [{ templateId: brute.id, count: 1 }] });
  const party = [...added.view.order].filter((c) => c.name.startsWith('Hero')).sort((a, b) => a.name.localeCompare(b.name)).map((c) => c.id);
  const bruteId = added.view.order.find((c) => c.name.startsWith('Brute'))!.id;
  const db = openDatabase(t.dir.file());
  const store = new EncounterStore(db);
  const now = new Date().toISOString();
  const append = (event: unknown) => writeTransaction(db, () => store.append(getEncounter(db, encounter.id)!, event, now));
  const injure = (n: number) => ruleset.injure(party[Math.floor((n - 1) / ruleset.perPc)]!, n);
  writeTransaction(db, () => {
    for (const event of ruleset.start) store.append(getEncounter(db, encounter.id)!, event, now);
    for (let n = 1; n <= injuries; n++) store.append(getEncounter(db, encounter.id)!, injure(n), now);
    // Both fights go on from the same place between two stored snapshots (each one holds the whole state).
    const prone = { type: 'CONDITION_ADD', targetIds: [bruteId], name: 'Prone', duration: { kind: 'untilRemoved' } };
    while (getEncounter(db, encounter.id)!.event_count % SNAPSHOT_EVERY !== 10) store.append(getEncounter(db, encounter.id)!, prone, now);
  });
  const undo = () => writeTransaction(db, () => store.undo(getEncounter(db, encounter.id)!, now));
  return { db, append, undo, injure, bruteId, encounterId: encounter.id };
}

describe.each(RULESETS)('an append at a $rulesetId fight that has given many injury records', (ruleset) => {
  it('reads and serialises as much at 300 records as at 10, whether its event gives one or not', async () => {
    const measured: Record<number, Record<'condition' | 'injury' | 'undo', Work>> = {};
    for (const injuries of [10, 300]) {
      const fight = await injuredIn(ruleset, injuries, 300);
      try {
        expect(rows('SELECT count(*) AS n FROM injuries WHERE source_encounter_id = ?', fight.encounterId)).toEqual([{ n: injuries }]);
        const condition = counted(fight.db, () => fight.append({ type: 'CONDITION_ADD', targetIds: [fight.bruteId], name: 'Dazed', duration: { kind: 'rounds', rounds: 2 } }));
        const injury = counted(fight.db, () => fight.append(fight.injure(injuries + 1)));
        expect(rows('SELECT count(*) AS n FROM injuries WHERE source_encounter_id = ?', fight.encounterId)).toEqual([{ n: injuries + 1 }]);
        const undo = counted(fight.db, fight.undo);
        expect(rows('SELECT count(*) AS n FROM injuries WHERE source_encounter_id = ?', fight.encounterId)).toEqual([{ n: injuries }]);
        measured[injuries] = { condition, injury, undo };
      } finally {
        fight.db.close();
      }
    }
    for (const work of ['condition', 'injury', 'undo'] as const) {
      const few = measured[10]![work];
      const many = measured[300]![work];
      expect(many.rowsRead, `rows ${work} read`).toBe(few.rowsRead);
      expect(many.jsonCharacters - few.jsonCharacters, `characters ${work} serialised`).toBeLessThanOrEqual(16);
    }
  }, 240_000);
});
