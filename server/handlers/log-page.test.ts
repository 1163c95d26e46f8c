// encounters:logPage: the full log screen reads a page of a long log by line number, and the server reads only the
// events that hold that page (issue 30: the screen used to receive and keep every line). On a real temporary
// SQLite file, with a 100,000-line log stored in one transaction.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogLine } from '../../core/encounter/types.ts';
import { openDatabase, writeTransaction } from '../../db/connection.ts';
import { LOG_LINES_SQL, getEncounter, insertEventRow } from '../../db/encounters.ts';
import { loadFixture } from '../../db/fixtures/fixture-db.ts';
import { useTestApp } from '../testing/harness.ts';

const t = useTestApp();
const { ok, refused } = t;

afterEach(() => {
  vi.restoreAllMocks();
});

/** A started Enigma fight: Berrik against two Goblins. */
async function fight() {
  const campaign = await ok('campaigns:create', { name: 'Bridge', rulesetId: 'enigma' });
  const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'At the ford' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  return encounter.id;
}

/** What the synthetic history's line `n` says: its round changes every 40 lines; every third event writes two. */
const lineText = (n: number) => `Line ${n}: Goblin 1 ends its turn.`;
const roundOf = (n: number) => 2 + Math.floor(n / 40);

/**
 * Adds events writing `lines` more log lines (one or two each) after the fight's own, in one transaction through the
 * store's insert; returns how many lines the fight had before.
 */
function lengthen(id: string, lines: number): number {
  const db = openDatabase(t.dir.file());
  try {
    return writeTransaction(db, () => {
      const head = getEncounter(db, id)!;
      const before = Number((db.prepare('SELECT sum(json_array_length(log_json)) AS n FROM encounter_events WHERE encounter_id = ?').get(id) as { n: number }).n);
      let seq = head.event_count;
      for (let written = 0; written < lines; ) {
        seq += 1;
        const count = seq % 3 === 0 && written + 1 < lines ? 2 : 1;
        const log: LogLine[] = Array.from({ length: count }, (_, i) => ({ round: roundOf(written + i), kind: 'turn', text: lineText(written + i) }));
        insertEventRow(db, id, seq, { type: 'END_TURN', payload_json: '{"type":"END_TURN"}', log_json: JSON.stringify(log), recorded_at: head.updated_at, roster_json: null, line_start: before + written });
        written += count;
      }
      db.prepare('UPDATE encounters SET event_count = ? WHERE id = ?').run(seq, id);
      return before;
    });
  } finally {
    db.close();
  }
}

/** How many times JSON.parse runs while the page is read: once per event row the server reads. */
async function parsesFor(id: string, from: number, count: number) {
  const parse = vi.spyOn(JSON, 'parse');
  const page = await ok('encounters:logPage', { id, from, count });
  const calls = parse.mock.calls.length;
  parse.mockRestore();
  return { page, calls };
}

describe('encounters:logPage', () => {
  it('reads a page of a 100,000-line log by line number: the right lines, and only the events that hold them', async () => {
    const id = await fight();
    const before = lengthen(id, 100_000);
    const whole = await ok('encounters:log', { id });
    expect(whole.entries).toHaveLength(before + 100_000);

    const from = before + 61_234;
    const { page, calls } = await parsesFor(id, from, 50);
    expect(page.lineCount).toBe(before + 100_000);
    expect(page.shown).toBe(before + 100_000);
    expect(page.lines.map((l) => l.index)).toEqual(Array.from({ length: 50 }, (_, i) => from + i));
    expect(page.lines.map((l) => l.text)).toEqual(whole.entries.slice(from, from + 50).map((e) => e.text));
    expect(page.lines.map((l) => l.seq)).toEqual(whole.entries.slice(from, from + 50).map((e) => e.seq));
    // A heading goes above the first line of each round (line 61,234 of the history is not one; 61,240 is).
    expect(page.lines.filter((l) => l.opensRound).map((l) => l.text)).toEqual([lineText(61_240), lineText(61_280)]);
    // 50 lines are about 38 events, with the line before the page: the server parsed those and nothing else.
    expect(calls).toBeLessThanOrEqual(40);

    // The same page near the start costs the same: the read does not grow with the log.
    const early = await parsesFor(id, before + 1_234, 50);
    expect(early.page.lines.map((l) => l.text)).toEqual(whole.entries.slice(before + 1_234, before + 1_284).map((e) => e.text));
    expect(early.calls).toBe(calls);
  });

  it('reads through the line-number index, never the whole table', () => {
    const db = openDatabase(t.dir.file());
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${LOG_LINES_SQL}`).all({ encounterId: 'x', from: 0, to: 1 }) as { detail: string }[];
      expect(plan.map((p) => p.detail).filter((d) => d.includes('encounter_events'))).toEqual([
        expect.stringMatching(/^SEARCH encounter_events USING INDEX encounter_events_by_line \(encounter_id=\? AND line_start>\? AND line_start<\?\)$/),
        expect.stringMatching(/^SEARCH encounter_events USING COVERING INDEX encounter_events_by_line \(encounter_id=\? AND line_start<\?\)$/),
      ]);
    } finally {
      db.close();
    }
  });

  it('opens the first page with a heading, ends at the last line, and numbers lines from 0', async () => {
    const id = await fight();
    const whole = await ok('encounters:log', { id });
    const first = await ok('encounters:logPage', { id, from: 0, count: 500 });
    expect(first.lines.map((l) => l.text)).toEqual(whole.entries.map((e) => e.text));
    expect(first.lines[0]!.opensRound).toBe(true);
    const past = await ok('encounters:logPage', { id, from: 10_000, count: 50 });
    expect(past.lines).toEqual([]);
    expect(past.shown).toBe(whole.entries.length);
  });

  it('reads the lines a filter shows, numbered in that view, with the headings of that view', async () => {
    const id = await fight();
    const before = lengthen(id, 2_000);
    const filter = { kind: 'all' as const, combatant: null, query: 'LINE 1:' };
    const page = await ok('encounters:logPage', { id, from: 0, count: 500, filter });
    const mine = page.lines.map((l) => l.text);
    // "LINE 1:" matches Line 1 alone (the case typed does not matter).
    expect(mine).toEqual([lineText(1)]);
    expect(page.shown).toBe(1);
    expect(page.lineCount).toBe(before + 2_000);
    const turns = await ok('encounters:logPage', { id, from: 38, count: 4, filter: { kind: 'all', combatant: { id: 'nobody', name: 'Goblin 1' }, query: '' } });
    expect(turns.lines.map((l) => [l.index, l.text, l.opensRound])).toEqual([
      [38, expect.any(String), expect.any(Boolean)], [39, expect.any(String), false], [40, expect.any(String), expect.any(Boolean)], [41, expect.any(String), false],
    ]);
  });

  it('refuses a page of no encounter, or out of range, with a sentence', async () => {
    const id = await fight();
    expect(await refused('encounters:logPage', { id: 'no-such-fight', from: 0, count: 50 })).toBe('That encounter does not exist (it may have been removed).');
    expect(await refused('encounters:logPage', { id, from: -1, count: 50 })).toMatch(/A log page starts at line 0 or later\./);
    expect(await refused('encounters:logPage', { id, from: 0, count: 0 })).toMatch(/A log page holds at least one line\./);
    expect(await refused('encounters:logPage', { id, from: 0, count: 100_000 })).toMatch(/A log page holds at most 500 lines\./);
    expect(await refused('encounters:logPage', { id, from: 1e12, count: 50 })).toMatch(/A log holds at most 100,000,000 lines\./);
    expect(await refused('encounters:logPage', { id, from: 0.5, count: 50 })).toMatch(/A log page starts at a whole line number\./);
    expect(await refused('encounters:logPage', { id, from: 0, count: 50, filter: { kind: 'spells', combatant: null, query: '' } })).toMatch(/A kind of line is one of all, attacks/);
  });
});

describe('migration 13 (log line numbers)', () => {
  it("numbers the lines of every stored encounter's events: each event's first line follows its earlier events' lines", () => {
    const path = t.dir.file('v12.sqlite');
    loadFixture(12, path);
    const db = openDatabase(path);
    try {
      const events = db.prepare('SELECT encounter_id, seq, line_start, json_array_length(log_json) AS lines FROM encounter_events ORDER BY encounter_id, seq').all() as { encounter_id: string; seq: number; line_start: number; lines: number }[];
      expect(events.length).toBeGreaterThan(10);
      const counted = new Map<string, number>();
      for (const event of events) {
        expect(event.line_start, `${event.encounter_id} event ${event.seq}`).toBe(counted.get(event.encounter_id) ?? 0);
        counted.set(event.encounter_id, (counted.get(event.encounter_id) ?? 0) + event.lines);
      }
    } finally {
      db.close();
    }
  });
});
