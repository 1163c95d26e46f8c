// encounters:logPage: the full log screen reads a page of a long log by line number, and the server reads only the
// events that hold that page (issue 30: the screen used to receive and keep every line). On a real temporary
// SQLite file, with a 100,000-line log stored in one transaction.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry, LogPageLine } from '../../core/api/contract.ts';
import { LOG_KIND_FILTERS, matches, type LogFilter } from '../../core/encounter/log-filter.ts';
import type { LogLine } from '../../core/encounter/types.ts';
import { openDatabase, writeTransaction } from '../../db/connection.ts';
import { EVENT_LOGS_SQL, LOG_LINES_SQL, getEncounter, insertEventRow } from '../../db/encounters.ts';
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

const syntheticLine = (n: number): LogLine => ({ round: roundOf(n), kind: 'turn', text: lineText(n) });

/**
 * Adds events writing `lines` more log lines (one or two each; line `n` of them is `lineAt(n)`) after the fight's
 * own, in one transaction through the store's insert; returns how many lines the fight had before.
 */
function lengthen(id: string, lines: number, lineAt: (n: number) => LogLine = syntheticLine): number {
  const db = openDatabase(t.dir.file());
  try {
    return writeTransaction(db, () => {
      const head = getEncounter(db, id)!;
      const before = Number((db.prepare('SELECT sum(json_array_length(log_json)) AS n FROM encounter_events WHERE encounter_id = ?').get(id) as { n: number }).n);
      let seq = head.event_count;
      for (let written = 0; written < lines; ) {
        seq += 1;
        const count = seq % 3 === 0 && written + 1 < lines ? 2 : 1;
        const log: LogLine[] = Array.from({ length: count }, (_, i) => lineAt(written + i));
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
async function parsesFor(id: string, from: number, count: number, filter?: LogFilter) {
  const parse = vi.spyOn(JSON, 'parse');
  const page = await ok('encounters:logPage', { id, from, count, ...(filter ? { filter } : {}) });
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

/** Names the generated log speaks of: accents, a Greek final sigma, quotes and a backslash, as a GM may type them. */
const NAMES = ['Berrik', 'Goblin 1', 'Élodie', 'ÆTHELRED', 'ΟΔΥΣΣΕΥΣ', 'Zoë "the Quick"', 'Back\\slash', 'élodie'];
/** The id a generated line acts under (a combatant filter matches its id, or its name in the text). */
const actorOf = (name: string) => `actor-${NAMES.indexOf(name)}`;

/** Line `n` of a generated log of every kind the filters tell apart: attacks, damage, injuries, overrides, rulings. */
function variedLine(n: number): LogLine {
  const name = NAMES[n % NAMES.length]!;
  const other = NAMES[(n * 5 + 3) % NAMES.length]!;
  const round = 2 + Math.floor(n / 37);
  const actor = n % 4 === 0 ? { actorId: actorOf(name) } : n % 4 === 1 ? { actorId: null } : {};
  const rulings = n % 11 === 0 ? { rulings: ['R-E3 Übermut', `R-E${n % 7} applies`] } : {};
  switch (n % 6) {
    case 0: return { round, kind: 'attack', text: `${name} attacks ${other}: 14 against 12, a hit.`, ...actor, ...rulings };
    case 1: return { round, kind: 'damage', text: `${other} takes ${n % 9} damage${n % 5 === 0 ? ' and an Injury (Sprained Wrist)' : ''}.`, ...actor, ...rulings };
    case 2: return { round, kind: 'decision', text: `GM override: ${name}'s wounds are carried as ${n % 4}.`, ...actor, ...rulings };
    case 3: return { round, kind: 'turn', text: `${name} ends the turn; ÉLAN restored (ΣΟΦΊΑ).`, ...actor, ...rulings };
    case 4: return { round, kind: 'decision', text: `${name} is WOUNDED by ${other}.`, ...actor, ...rulings };
    default: return { round, kind: 'condition', text: `${name} overrides nothing; ${other} waits.`, ...actor, ...rulings };
  }
}

/** The lines the full log screen asks for at a time (renderer/src/lib/log-window.svelte.ts). */
const LOG_PAGE_LINES = 100;

const COMBATANTS = [null, { id: actorOf('Élodie'), name: 'Élodie' }, { id: 'nobody', name: 'Zoë "the Quick"' }, { id: actorOf('Berrik'), name: 'Nobody at all' }];
// Accents and case, a final sigma, quotes, a backslash, a query only rulings hold, one no line holds.
const QUERIES = ['', '  ÉLODIE ', 'elodie', 'übermut', 'ΟΔΥΣΣΕΥΣ', '"the quick"', 'back\\slash', 'zzz'];
const EVERY_FILTER: LogFilter[] = LOG_KIND_FILTERS.flatMap((kind) => COMBATANTS.flatMap((combatant) => QUERIES.map((query) => ({ kind, combatant, query }))));

/**
 * The lines a filter shows as the server found them before it kept the matches: every line of the whole log matched
 * in order, numbered in the view, a heading above each line of another round than the one before it in the view. A
 * page is a slice of it.
 */
function todaysView(entries: readonly LogEntry[], filter: LogFilter): LogPageLine[] {
  const lines: LogPageLine[] = [];
  let round: number | null = null;
  for (const entry of entries) {
    if (!matches(entry, filter)) continue;
    lines.push({ ...entry, index: lines.length, opensRound: entry.round !== round });
    round = entry.round;
  }
  return lines;
}

const todaysPage = (view: LogPageLine[], from: number, count: number) => ({ lines: view.slice(from, from + count), shown: view.length });

/** Expects every page asked (the first, one in the middle, the last, at and past the end) to be today's page. */
async function expectTodaysPages(id: string, filters: readonly LogFilter[], when: string) {
  const whole = await ok('encounters:log', { id });
  const version = t.rows('SELECT updated_at FROM encounters WHERE id = ?', id)[0]!['updated_at'];
  const head = { lineCount: whole.entries.length, eventCount: whole.eventCount, version };
  for (const filter of filters) {
    const view = todaysView(whole.entries, filter);
    const shown = view.length;
    for (const from of [0, Math.max(0, Math.floor(shown / 2) - 7), Math.max(0, shown - LOG_PAGE_LINES), shown, shown + 3]) {
      const page = await ok('encounters:logPage', { id, from, count: LOG_PAGE_LINES, filter });
      expect(page, `${when}: ${JSON.stringify(filter)} from ${from}`).toEqual({ ...todaysPage(view, from, LOG_PAGE_LINES), ...head });
    }
  }
}

describe('encounters:logPage with a filter', () => {
  it("gives today's page for every kind, combatant and query, at every place, after appends, undo, redo, a branch and a restart", async () => {
    const id = await fight();
    lengthen(id, 2_000, variedLine);
    const goblin = (await ok('encounters:get', { id })).view.order.find((c) => c.side === 'gm')!;
    await expectTodaysPages(id, EVERY_FILTER, 'as stored');
    for (const event of [{ type: 'END_TURN' }, { type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 1, source: 'a rock' }, { type: 'END_TURN' }]) await ok('encounters:append', { id, event });
    await expectTodaysPages(id, EVERY_FILTER, 'after appends');
    await ok('encounters:undo', { id });
    await ok('encounters:undo', { id });
    await expectTodaysPages(id, EVERY_FILTER, 'after two undos');
    await ok('encounters:redo', { id });
    await expectTodaysPages(id, EVERY_FILTER, 'after a redo');
    t.reopen();
    await expectTodaysPages(id, EVERY_FILTER, 'after a restart');
  }, 180_000);

  it('keeps what a filter matched right through every change, one at a time, while the screen pages', async () => {
    const id = await fight();
    lengthen(id, 2_500, variedLine);
    const goblin = (await ok('encounters:get', { id })).view.order.find((c) => c.side === 'gm')!;
    // As many filters as the store keeps, so each is matched once and then only kept up to date.
    const kept: LogFilter[] = [
      { kind: 'all', combatant: null, query: 'goblin' },
      { kind: 'damage', combatant: null, query: '' },
      { kind: 'all', combatant: { id: goblin.id, name: goblin.name }, query: '' },
      { kind: 'injuries', combatant: null, query: 'É' },
    ];
    const hit = { type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 1, source: 'a rock' };
    const changes: [string, () => Promise<unknown>][] = [
      ['an append', () => ok('encounters:append', { id, event: { type: 'END_TURN' } })],
      ['a hit', () => ok('encounters:append', { id, event: hit })],
      ['an undo', () => ok('encounters:undo', { id })],
      ['a redo', () => ok('encounters:redo', { id })],
      ['another undo', () => ok('encounters:undo', { id })],
      ['a third undo', () => ok('encounters:undo', { id })],
      ['a branch', () => ok('encounters:append', { id, event: hit })],
      ['an append after it', () => ok('encounters:append', { id, event: { type: 'END_TURN' } })],
    ];
    await expectTodaysPages(id, kept, 'as stored');
    for (const [change, make] of changes) {
      await make();
      for (const filter of kept) {
        // The store matches only what changed: a page reads the events it shows and those appended since.
        const { page, calls } = await parsesFor(id, 0, LOG_PAGE_LINES, filter);
        expect(calls, `${change}: ${JSON.stringify(filter)}`).toBeLessThanOrEqual(LOG_PAGE_LINES + 3);
        expect(page.lines.length).toBeGreaterThan(0);
      }
      await expectTodaysPages(id, kept, `after ${change}`);
    }
  });

  it('reads a filtered page of a 100,000-line log from the events that hold it, after the first page matched every line once', async () => {
    const id = await fight();
    const before = lengthen(id, 100_000);
    const whole = await ok('encounters:log', { id });
    const events = whole.eventCount;
    // Every line of the history names Goblin 1; one in ten has a number ending in 0.
    const dense: LogFilter = { kind: 'all', combatant: null, query: 'GOBLIN 1' };
    const sparse: LogFilter = { kind: 'all', combatant: null, query: '0:' };
    for (const filter of [dense, sparse]) {
      const view = todaysView(whole.entries, filter);
      const first = await parsesFor(id, 0, 50, filter);
      // The first page reads and parses each event once at most (and nothing more than its own page beside).
      expect(first.calls).toBeLessThanOrEqual(events + 60);
      expect(first.page).toEqual({ ...todaysPage(view, 0, 50), lineCount: before + 100_000, eventCount: events, version: expect.any(String) });
      const { shown } = first.page;
      for (const from of [61_234, 1_234, shown - 50].map((n) => Math.min(n, shown - 50))) {
        const { page, calls } = await parsesFor(id, from, 50, filter);
        expect(page.lines).toEqual(todaysPage(view, from, 50).lines);
        expect(page.shown).toBe(shown);
        // Dense: 50 lines are about 38 events with the line before the page. Sparse: at most one event a line.
        expect(calls, `${filter.query} from ${from}`).toBeLessThanOrEqual(filter === dense ? 40 : 51);
      }
    }
    // A query no event's stored lines hold parses none of them, even the first time (storedLogTest).
    const none = await parsesFor(id, 0, 50, { kind: 'all', combatant: null, query: 'ogre' });
    expect(none.page.shown).toBe(0);
    expect(none.calls).toBe(0);
  });

  it('reads the events of a page by their key, never the whole table', () => {
    const db = openDatabase(t.dir.file());
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${EVENT_LOGS_SQL}`).all('x', '[1,2]') as { detail: string }[];
      expect(plan.map((p) => p.detail).filter((d) => d.includes('encounter_events'))).toEqual([
        expect.stringMatching(/^SEARCH encounter_events USING PRIMARY KEY \(encounter_id=\? AND seq=\?\)$/),
      ]);
    } finally {
      db.close();
    }
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
