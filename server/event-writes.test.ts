// What one GM event writes: its own row and the encounter's head, and the campaign's row only when the campaign
// list's order or its minute-grained time needs it (noteCampaignActivity). Every page a write dirties is appended to
// the WAL and synced before the GM sees the result, so these are counted here, on a real file.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, rows } = t;

let clock = Date.parse('2026-11-22T12:00:00.000Z');
const at = (seconds: number) => {
  clock = Date.parse('2026-11-22T12:00:00.000Z') + seconds * 1000;
};

/** A running Enigma fight of one party member and two goblins in a new campaign. */
async function runningFight(name: string) {
  const campaign = await ok('campaigns:create', { name, rulesetId: 'enigma' });
  const hero = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [hero.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  // The GM's slots taken in a set order, so each turn's end moves straight to the next.
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  return { campaign, encounter };
}

const campaignTime = (id: string) => rows('SELECT updated_at FROM campaigns WHERE id = ?', id)[0]!['updated_at'];
const listed = async () => (await ok('campaigns:list', {})).map((c) => c.name);

describe('the campaign list follows the fights', () => {
  it('puts the campaign whose fight moved last first, and writes its row only when the order or the minute changes', async () => {
    t.reopen({ now: () => new Date(clock).toISOString() });
    at(0);
    const first = await runningFight('First');
    at(10);
    const second = await runningFight('Second');
    expect(await listed()).toEqual(['Second', 'First']);

    // An event in the older campaign's fight brings it to the top.
    at(20);
    await ok('encounters:append', { id: first.encounter.id, event: { type: 'END_TURN' } });
    expect(await listed()).toEqual(['First', 'Second']);
    expect(campaignTime(first.campaign.id)).toBe('2026-11-22T12:00:20.000Z');

    // Already first: the next events within the minute leave its row alone, and the order stays right.
    at(50);
    await ok('encounters:append', { id: first.encounter.id, event: { type: 'END_TURN' } });
    expect(campaignTime(first.campaign.id)).toBe('2026-11-22T12:00:20.000Z');
    expect(await listed()).toEqual(['First', 'Second']);

    // A minute on, the time is brought up to date.
    at(81);
    await ok('encounters:append', { id: first.encounter.id, event: { type: 'END_TURN' } });
    expect(campaignTime(first.campaign.id)).toBe('2026-11-22T12:01:21.000Z');

    // The other fight moves: its campaign goes first again at once, and an undo counts as much as an event.
    at(85);
    await ok('encounters:undo', { id: second.encounter.id });
    expect(await listed()).toEqual(['Second', 'First']);
    at(86);
    await ok('encounters:append', { id: first.encounter.id, event: { type: 'END_TURN' } });
    expect(await listed()).toEqual(['First', 'Second']);
  });
});

describe('pages written by one GM event', () => {
  it('are its own row, the encounter head and the newest entry of the log-line index: no campaign row, no index entry that moves', async () => {
    const { encounter } = await runningFight('Pages');
    // A second connection checkpoints after each write: the WAL then holds only the frames of the next one.
    const db = new Database(t.dir.file());
    try {
      const framesOfLastWrite = () => (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
      framesOfLastWrite();
      const frames: number[] = [];
      for (let i = 0; i < 12; i++) {
        await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } });
        frames.push(framesOfLastWrite());
      }
      // A turn's end is one event row, the encounter's new head, and its entry at the end of the log-line index the
      // full log screen reads pages by (migration 13): three pages. Every few events a page is full and splits,
      // which writes two to four more.
      expect(frames.filter((n) => n === 3).length, `frames per event: ${frames.join(' ')}`).toBeGreaterThanOrEqual(8);
    } finally {
      db.close();
    }
  });

  it('the campaign list of encounters reads in index order, with no sort of its own', () => {
    const db = new Database(t.dir.file(), { readonly: true });
    try {
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM encounters WHERE campaign_id = ? ORDER BY created_at DESC').all('x') as { detail: string }[];
      expect(plan.map((p) => p.detail)).toEqual([expect.stringContaining('USING INDEX encounters_by_campaign')]);
    } finally {
      db.close();
    }
  });
});
