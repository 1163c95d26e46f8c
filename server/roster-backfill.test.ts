// The roster changes of events stored before version 7, filled in the background (server/roster-backfill.ts): each
// must be the change the app stores when it writes the event (the fight is played through the handler table, its
// changes kept, then taken away as an old version stored it), chunk by chunk, beside the GM's undos and redos.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { EncounterInput } from '../core/encounter/types.ts';
import type { RulesetId } from '../core/rulesets/types.ts';
import { generateFight } from '../bench/fight.ts';
import { openDatabase, type Db } from '../db/connection.ts';
import { backupDir } from '../db/backup.ts';
import { loadFixture } from '../db/fixtures/fixture-db.ts';
import { RosterBackfill, backfillInBackground } from './roster-backfill.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, rows } = t;

const RULESETS: RulesetId[] = ['enigma', 'teams', 'factions', 'cairn-errant', 'thrum'];
const NOW = '2026-11-23T12:00:00.000Z';

type Stored = { seq: number; roster_json: string | null }[];

async function playFight(rulesetId: RulesetId, events: number, name = 'Old fight'): Promise<{ id: string; stored: Stored; campaignId: string }> {
  const campaign = await ok('campaigns:create', { name: `Backfill ${rulesetId}`, rulesetId });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name });
  const [row] = rows('SELECT input_json FROM encounters WHERE id = ?', encounter.id) as { input_json: string }[];
  const fight = generateFight(rulesetId, 8, events, 5, [], undefined, JSON.parse(row!.input_json) as EncounterInput);
  for (const [index, event] of fight.events.entries()) {
    await ok('encounters:append', { id: encounter.id, event });
    if (index % 29 === 28) {
      await ok('encounters:undo', { id: encounter.id });
      // Confirmed: the dice are rolled afresh for each generated fight, and its last event may be the one that
      // ends it (a redo of an ending asks first).
      await ok('encounters:redo', { id: encounter.id, confirm: true });
    }
  }
  return { id: encounter.id, stored: storedChanges(encounter.id), campaignId: campaign.id };
}

const storedChanges = (id: string) => rows('SELECT seq, roster_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', id) as Stored;

/** Takes the changes of the fight's events up to `upTo` away, as a version before 7 stored them. */
function forget(db: Db, id: string, upTo = Infinity): number {
  return db.prepare('UPDATE encounter_events SET roster_json = NULL WHERE encounter_id = ? AND seq <= ?').run(id, upTo === Infinity ? 1e9 : upTo).changes;
}

function untilDone(backfill: RosterBackfill, db: Db, budgetMs: number): number {
  let chunks = 1;
  while (!backfill.run(db, budgetMs)) chunks += 1;
  return chunks;
}

describe.each(RULESETS)('%s: filling in the roster changes of old events', (rulesetId) => {
  it('gives every old event the change the app stored when it wrote it, one chunk or many', async () => {
    const fight = await playFight(rulesetId, 150);
    const n = fight.stored.length;
    expect(n).toBeGreaterThan(50);
    expect(fight.stored.every((r) => r.roster_json !== null)).toBe(true);
    const db = openDatabase(t.dir.file());
    try {
      for (const budgetMs of [1000, 0]) {
        expect(forget(db, fight.id)).toBe(n);
        const backfill = new RosterBackfill();
        const chunks = untilDone(backfill, db, budgetMs);
        // A budget of 0 steps one event a chunk: the fight is taken up again where the last chunk left it.
        if (budgetMs === 0) expect(chunks).toBeGreaterThan(n);
        else expect(chunks).toBe(1);
        expect(backfill.filled).toBe(n);
        expect(backfill.skipped).toEqual([]);
        expect(storedChanges(fight.id)).toEqual(fight.stored);
      }
    } finally {
      db.close();
    }
  });
});

describe('filling in beside the GM', () => {
  it('stays right when the GM undoes past where it is and plays on differently, and fills only what an old version left', async () => {
    const fight = await playFight('enigma', 120);
    const db = openDatabase(t.dir.file());
    try {
      // An old version wrote the first 100 events; this one the rest.
      expect(forget(db, fight.id, 100)).toBe(100);
      const backfill = new RosterBackfill();
      for (let i = 0; i < 95; i++) expect(backfill.run(db, 0)).toBe(false);
      expect(storedChanges(fight.id).filter((r) => r.roster_json === null).map((r) => r.seq)).toEqual([96, 97, 98, 99, 100]);
      // Back to event 90 while the backfill has stepped to 95, then on with other events (another fight's, those the
      // rules take): events 91–110 are new, written with their changes.
      for (let i = 0; i < 30; i++) await ok('encounters:undo', { id: fight.id });
      expect(backfill.run(db, 0)).toBe(false);
      const [head] = rows('SELECT input_json FROM encounters WHERE id = ?', fight.id) as { input_json: string }[];
      // Other fights' events until twenty are taken (each generated fight rolls its dice afresh, and one may end early).
      let count = 90;
      for (let seed = 11; count < 110 && seed < 60; seed++) {
        const other = generateFight('enigma', 8, 400, seed, [], undefined, JSON.parse(head!.input_json) as EncounterInput);
        for (const event of other.events.slice(2)) {
          count = (await t.app.dispatch('encounters:append', { id: fight.id, event }) as { result?: { encounter: { eventCount: number } } }).result?.encounter.eventCount ?? count;
          if (count === 110) break;
        }
      }
      const written = storedChanges(fight.id);
      expect(written).toHaveLength(110);
      expect(written.slice(90)).not.toEqual(fight.stored.slice(90, 110));
      untilDone(backfill, db, 0);
      expect(storedChanges(fight.id)).toEqual([...fight.stored.slice(0, 90), ...written.slice(90)]);
    } finally {
      db.close();
    }
  });

  it('leaves a fight that no longer replays as it is, fills the others, and writes nothing after it', async () => {
    const broken = await playFight('enigma', 40, 'Edited on disk');
    const sound = await playFight('teams', 40);
    const db = openDatabase(t.dir.file());
    try {
      forget(db, broken.id);
      forget(db, sound.id);
      // Event 12 is of a kind no ruleset knows.
      db.prepare("UPDATE encounter_events SET payload_json = json_set(payload_json, '$.type', 'NOT_AN_EVENT') WHERE encounter_id = ? AND seq = 12").run(broken.id);
      const backfill = new RosterBackfill();
      untilDone(backfill, db, 1000);
      expect(backfill.skipped).toEqual([broken.id]);
      expect(storedChanges(sound.id)).toEqual(sound.stored);
      const left = storedChanges(broken.id);
      expect(left.slice(0, 11)).toEqual(broken.stored.slice(0, 11));
      expect(left.slice(11).every((r) => r.roster_json === null)).toBe(true);
      // Done: a second pass over the same file finds nothing to start with but the broken fight, and leaves it.
      const again = new RosterBackfill();
      expect(again.run(db, 1000)).toBe(true);
      expect(again.filled).toBe(0);
      expect(again.skipped).toEqual([broken.id]);
    } finally {
      db.close();
    }
  });

  it('finds old events through the partial index, which the app’s own writes never add to', async () => {
    const fight = await playFight('enigma', 30);
    const db = openDatabase(t.dir.file());
    try {
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT encounter_id AS id FROM encounter_events WHERE roster_json IS NULL AND encounter_id > ? ORDER BY encounter_id LIMIT 1').all('') as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('encounter_events_without_roster');
      const indexed = () => (db.prepare('SELECT count(*) AS n FROM encounter_events INDEXED BY encounter_events_without_roster WHERE roster_json IS NULL').get() as { n: number }).n;
      expect(indexed()).toBe(0);
      forget(db, fight.id, 10);
      expect(indexed()).toBe(10);
      untilDone(new RosterBackfill(), db, 1000);
      expect(indexed()).toBe(0);
    } finally {
      db.close();
    }
  });
});

describe('in the background', () => {
  it('works in chunks off the caller, waits while busy, and reports each chunk that wrote (the app counts it towards its checkpoint)', async () => {
    const fight = await playFight('teams', 60);
    const n = fight.stored.length;
    const db = openDatabase(t.dir.file());
    try {
      forget(db, fight.id);
      let busy = true;
      let wrote = 0;
      const background = backfillInBackground(() => db, () => busy, { delayMs: 0, budgetMs: 0, pauseMs: 0 }, () => (wrote += 1));
      try {
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(wrote).toBe(0);
        busy = false;
        await vi.waitFor(() => expect(storedChanges(fight.id)).toEqual(fight.stored), { timeout: 10_000, interval: 20 });
        // A budget of 0 steps one event a chunk: one write each.
        expect(wrote).toBe(n);
      } finally {
        background.stop();
      }
    } finally {
      db.close();
    }
  });
});

describe('in the app', () => {
  it('fills a migrated version-6 database in the background and exports the same files after', async () => {
    t.app.close();
    t.dir.remove();
    mkdirSync(t.dir.path);
    loadFixture(6, t.dir.file());
    t.reopen({ now: () => NOW });
    const [fight] = rows('SELECT id FROM encounters WHERE event_count > 0 ORDER BY id') as { id: string }[];
    const missing = () => (rows('SELECT count(*) AS n FROM encounter_events WHERE roster_json IS NULL')[0] as { n: number }).n;
    expect(missing()).toBeGreaterThan(100);
    const exports = async () => Promise.all((['md', 'html', 'json'] as const).map(async (format) => (await ok('exports:encounter', { id: fight!.id, format })).content));
    const replayed = await exports();

    // The CLI (no backfill) leaves them; the desktop app and web mode fill them soon after opening.
    t.reopen({ now: () => NOW, backfill: { delayMs: 0, budgetMs: 2, pauseMs: 0 } });
    await vi.waitFor(() => expect(missing()).toBe(0), { timeout: 10_000, interval: 20 });
    t.reopen({ now: () => NOW });
    expect(await exports()).toEqual(replayed);
  });

  it('looks again when a backup is restored', async () => {
    const fight = await playFight('thrum', 60);
    t.reopen({ backfill: { delayMs: 0, budgetMs: 2, pauseMs: 0 } });
    const backup = await ok('backups:create', {});
    // The backup as a version before 7 wrote it; the running app has nothing left to fill in and has gone idle.
    const copy = openDatabase(join(backupDir(t.dir.file()), backup.name));
    forget(copy, fight.id);
    copy.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await ok('backups:restore', { name: backup.name });
    const missing = () => (rows('SELECT count(*) AS n FROM encounter_events WHERE roster_json IS NULL')[0] as { n: number }).n;
    expect(missing()).toBe(fight.stored.length);
    await vi.waitFor(() => expect(storedChanges(fight.id)).toEqual(fight.stored), { timeout: 10_000, interval: 20 });
  });
});
