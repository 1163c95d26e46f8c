// What one GM event writes: its own row and the encounter's head, and the campaign's row only when the campaign
// list's order or its minute-grained time needs it (noteCampaignActivity). Every page a write dirties is appended to
// the WAL and synced before the GM sees the result, so these are counted here, on a real file.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOG_LINES_SQL } from '../db/encounters.ts';
import { openApp } from './app.ts';
import { useTestApp } from './testing/harness.ts';
import { recordStatements } from './testing/rows-read.ts';

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

afterEach(() => vi.restoreAllMocks());

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

/** The statements run by `work` whose SQL `pattern` matches, in order, their white space folded. */
async function statementsMatching(pattern: RegExp, work: () => Promise<unknown>): Promise<string[]> {
  const db = new Database(t.dir.file());
  const recorded = recordStatements(db);
  db.close();
  try {
    await work();
  } finally {
    vi.restoreAllMocks();
  }
  return recorded.sources.filter((sql) => pattern.test(sql)).map((sql) => sql.replace(/\s+/g, ' ').trim());
}

/** The runner's append: its screen up to date (`since`), as it sends every GM event. */
async function runnerAppends(id: string) {
  let shown = (await ok('encounters:get', { id })).encounter;
  return async (event: unknown) => {
    const reply = await ok('encounters:append', { id, event, since: { eventCount: shown.eventCount, version: shown.updatedAt } });
    shown = reply.encounter;
    return reply;
  };
}

describe('log line numbers', () => {
  /** The statements run by `work` that read the encounter's events (an insert into them is not a read). */
  const eventReads = (work: () => Promise<unknown>) => statementsMatching(/\bFROM\s+encounter_events\b/i, work);

  /** Every stored event's first line number follows the lines of the events before it (as migration 13 numbers them). */
  function expectNumbered(id: string) {
    let lines = 0;
    for (const event of rows('SELECT seq, line_start, json_array_length(log_json) AS lines FROM encounter_events WHERE encounter_id = ? ORDER BY seq', id)) {
      expect(event['line_start'], `event ${String(event['seq'])}`).toBe(lines);
      lines += Number(event['lines']);
    }
    return lines;
  }

  it('an append numbers its lines from the count the store keeps: it reads no event, and a log page reads only its lines', async () => {
    const { encounter } = await runningFight('Numbers');
    const id = encounter.id;
    let shown = (await ok('encounters:get', { id })).encounter;
    const append = async (event: unknown) => {
      shown = (await ok('encounters:append', { id, event, since: { eventCount: shown.eventCount, version: shown.updatedAt } })).encounter;
    };
    // The runner's append (its screen up to date): the event, the head and the injuries are written, nothing of the
    // fight's events read, not even the newest one's line count.
    expect(await eventReads(() => append({ type: 'END_TURN' }))).toEqual([]);
    expect(await eventReads(() => append({ type: 'RAISE_ESCALATION', by: 1, source: 'drums' }))).toEqual([]);
    const lines = expectNumbered(id);
    // The full log screen's length comes from the same count: the page reads the events that hold its lines, no more.
    let page = await ok('encounters:logPage', { id, from: 0, count: 50 });
    expect(await eventReads(async () => (page = await ok('encounters:logPage', { id, from: 0, count: 50 })))).toEqual([LOG_LINES_SQL.replace(/\s+/g, ' ').trim()]);
    expect(page.lineCount).toBe(lines);

    // An undo takes its event's lines away; the event written in its place (another branch) is numbered after the rest.
    await ok('encounters:undo', { id });
    await ok('encounters:undo', { id });
    shown = (await ok('encounters:get', { id })).encounter;
    await append({ type: 'RAISE_ESCALATION', by: 2, source: 'a horn' });
    expect(await eventReads(() => append({ type: 'END_TURN' }))).toEqual([]);
    const branched = expectNumbered(id);
    expect((await ok('encounters:logPage', { id, from: 0, count: 50 })).lineCount).toBe(branched);

    // A restart: the first write reads the count once (from the newest event), the next reads nothing.
    t.reopen();
    shown = (await ok('encounters:get', { id })).encounter;
    expect((await eventReads(() => append({ type: 'END_TURN' }))).filter((sql) => sql.includes('json_array_length'))).toHaveLength(1);
    expect(await eventReads(() => append({ type: 'END_TURN' }))).toEqual([]);
    expect((await ok('encounters:logPage', { id, from: 0, count: 50 })).lineCount).toBe(expectNumbered(id));
  });
});

describe('the redo stack', () => {
  const redoStatements = (work: () => Promise<unknown>) => statementsMatching(/\bencounter_redo\b/i, work);
  const CLEAR = 'DELETE FROM encounter_redo WHERE encounter_id = ?';
  const PEEK = 'SELECT depth, payload_json FROM encounter_redo WHERE encounter_id = ? ORDER BY depth DESC LIMIT 1';

  it('is neither emptied nor read by an append after an append: the store knows an append left it empty', async () => {
    const { encounter } = await runningFight('Redo');
    const id = encounter.id;
    let append = await runnerAppends(id);
    // The fight's START was appended by this store: the stack is known empty, and the reply says so unread.
    let reply: { canRedo: boolean; redoLabel: string | null } | undefined;
    expect(await redoStatements(async () => (reply = await append({ type: 'END_TURN' })))).toEqual([]);
    expect([reply!.canRedo, reply!.redoLabel]).toEqual([false, null]);

    // Two undos fill it and one redo leaves one: each reply reads its label.
    await ok('encounters:undo', { id });
    await ok('encounters:undo', { id });
    expect(await redoStatements(async () => (reply = await ok('encounters:redo', { id })))).toEqual([PEEK, 'DELETE FROM encounter_redo WHERE encounter_id = ? AND depth = ?', PEEK]);
    expect([reply!.canRedo, reply!.redoLabel]).toEqual([true, 'End turn']);

    // The append after them empties it once; the appends after that touch it no more.
    append = await runnerAppends(id);
    expect(await redoStatements(async () => (reply = await append({ type: 'RAISE_ESCALATION', by: 1, source: 'drums' })))).toEqual([CLEAR]);
    expect([reply!.canRedo, reply!.redoLabel]).toEqual([false, null]);
    expect(rows('SELECT count(*) AS n FROM encounter_redo WHERE encounter_id = ?', id)[0]!['n']).toBe(0);
    expect(await redoStatements(() => append({ type: 'END_TURN' }))).toEqual([]);

    // A restart knows nothing of it: its first append empties it and its reply reads nothing.
    t.reopen();
    append = await runnerAppends(id);
    expect(await redoStatements(() => append({ type: 'END_TURN' }))).toEqual([CLEAR]);
    expect(await redoStatements(() => append({ type: 'END_TURN' }))).toEqual([]);
  });

  it('filled by another writer of the same file, is read again', async () => {
    const { encounter } = await runningFight('Elsewhere');
    const id = encounter.id;
    await (await runnerAppends(id))({ type: 'END_TURN' });
    // A second app on the same file (another window of a linked copy) undoes the newest event.
    const other = openApp({ databasePath: t.dir.file(), transport: 'cli', version: 'test' });
    try {
      expect('result' in (await other.dispatch('encounters:undo', { id }))).toBe(true);
    } finally {
      other.close();
    }
    const shown = await ok('encounters:get', { id });
    expect([shown.canRedo, shown.redoLabel]).toEqual([true, 'End turn']);
    const append = await runnerAppends(id);
    expect(await redoStatements(() => append({ type: 'END_TURN' }))).toEqual([CLEAR]);
  });
});
