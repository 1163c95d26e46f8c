// The handler table end to end against a real temporary SQLite file: what every transport relies on.
import { describe, expect, it, vi } from 'vitest';
import type { HandlerResults } from '../core/api/contract.ts';
import type { ChangeNotice } from '../core/api/names.ts';
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { SNAPSHOT_EVERY } from '../db/encounters.ts';
import { CHECKPOINT_EVERY } from './app.ts';
import { useTestApp } from './testing/harness.ts';
import { LOG_TAIL_EVENTS } from './handlers/encounters.ts';

const t = useTestApp();
const { ok, refused } = t;

/** Row counts of every table: "nothing written" means these do not move. */
function counts(): Record<string, number> {
  const tables = ['campaigns', 'characters', 'encounters', 'encounter_events', 'encounter_redo', 'encounter_snapshots'];
  return Object.fromEntries(tables.map((table) => [table, Number(t.rows(`SELECT count(*) AS n FROM ${table}`)[0]!['n'])]));
}

async function prepared() {
  const campaign = await ok('campaigns:create', { name: 'The Drowned Vault', rulesetId: 'enigma' });
  const sheet = (endure: number) => ({ endure, navigate: 8, glean: 6, attack: 8, influence: 6, manifest: 6, namedNpc: false, notes: '' });
  const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: sheet(10) });
  const lotty = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Lotty', sheet: sheet(8) });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: sheet(6) });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Ambush at the ford' });
  await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id, lotty.id], npcs: [{ templateId: goblin.id, count: 3 }] });
  return { campaign, encounter, berrik, lotty, goblin };
}

const append = (id: string, event: unknown) => ok('encounters:append', { id, event });
const activeName = (d: HandlerResults['encounters:get']) => d.view.order.find((c) => c.id === d.view.activeId)?.name ?? null;

describe('campaigns and characters', () => {
  it('creates, renames, archives and lists campaigns', async () => {
    const a = await ok('campaigns:create', { name: 'Alpha', rulesetId: 'thrum' });
    await ok('campaigns:create', { name: 'Beta', rulesetId: 'enigma' });
    await ok('campaigns:rename', { id: a.id, name: 'Alpha Prime' });
    await ok('campaigns:archive', { id: a.id, archived: true });
    expect((await ok('campaigns:list', {})).map((c) => c.name)).toEqual(['Beta']);
    const all = await ok('campaigns:list', { includeArchived: true });
    expect(all.map((c) => [c.name, c.archived])).toEqual([['Beta', false], ['Alpha Prime', true]]);
  });

  it('accepts a campaign for each of the six rulesets with its default sheet', async () => {
    const info = await ok('app:info', {});
    expect(info.rulesets.map((r) => r.id)).toEqual(['enigma', 'teams', 'factions', 'cairn-errant', 'thrum', 'any-system']);
    for (const ruleset of info.rulesets) {
      const c = await ok('campaigns:create', { name: ruleset.name, rulesetId: ruleset.id });
      const sheet = Object.fromEntries((await ok('rulesets:get', { id: ruleset.id })).sheet.fields.map((f) => [f.key, f.default]));
      await ok('characters:create', { campaignId: c.id, role: 'pc', name: 'Hero', sheet });
    }
    expect(counts().characters).toBe(6);
  });

  it('refuses bad input with a sentence and writes nothing', async () => {
    const campaign = await ok('campaigns:create', { name: 'Alpha', rulesetId: 'enigma' });
    const before = counts();
    expect(await refused('campaigns:create', { name: '', rulesetId: 'enigma' })).toBe('A name cannot be empty.');
    expect(await refused('campaigns:create', { name: '   ', rulesetId: 'enigma' })).toBe('A name cannot be empty.');
    expect(await refused('campaigns:create', { name: 'x'.repeat(10_000), rulesetId: 'enigma' })).toBe('A name is at most 80 characters.');
    expect(await refused('campaigns:create', { name: 'A', rulesetId: 'dnd' })).toMatch(/^The ruleset must be one of/);
    expect(await refused('campaigns:create', { name: 'A', rulesetId: 'enigma', options: { reactionDebtCap: 7 } })).toMatch(/Reaction debt cap \(R-E6\) must be at most 2/);
    expect(await refused('campaigns:create', { name: 'A', rulesetId: 'enigma', __proto__: { x: 1 }, admin: true })).toMatch(/fields this app does not know/);
    expect(await refused('campaigns:create', 'not an object')).toBe('The request cannot be read.');
    expect(await refused('campaigns:drop', {})).toBe('Unknown request.');
    expect(await refused('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ana', sheet: { endure: 7 } })).toBe('Endure must be one of d4, d6, d8, d10, d12.');
    expect(await refused('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ana', sheet: { hitPoints: 7 } })).toBe('Enigma sheets have no field "hitPoints".');
    expect(await refused('characters:create', { campaignId: 'nope', role: 'pc', name: 'Ana', sheet: {} })).toMatch(/campaign does not exist/);
    expect(counts()).toEqual(before);
  });

  it('gives every write its own time, in the order of the writes, even within one millisecond of the clock', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-01T12:00:00.000Z') });
    try {
      const campaign = await ok('campaigns:create', { name: 'Frozen clock', rulesetId: 'enigma' });
      for (let i = 0; i < 5; i++) await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: `Hero ${i}`, sheet: {} });
      const times = t.rows('SELECT created_at FROM characters ORDER BY rowid').map((r) => String(r['created_at']));
      expect(times).toEqual(['2026-03-01T12:00:00.001Z', '2026-03-01T12:00:00.002Z', '2026-03-01T12:00:00.003Z', '2026-03-01T12:00:00.004Z', '2026-03-01T12:00:00.005Z']);
      // One write, one time: the campaign's last activity is the time of the newest character.
      expect(t.rows('SELECT updated_at FROM campaigns')).toEqual([{ updated_at: times[4] }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fills missing sheet fields with defaults', async () => {
    const campaign = await ok('campaigns:create', { name: 'Alpha', rulesetId: 'enigma' });
    const ana = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ana', sheet: { endure: 12 } });
    expect(ana.sheet).toMatchObject({ endure: 12, navigate: 8, notes: '' });
  });
});

describe('encounters', () => {
  it('creates encounters for every ruleset', async () => {
    for (const ruleset of (await ok('app:info', {})).rulesets) {
      const c = await ok('campaigns:create', { name: ruleset.name, rulesetId: ruleset.id });
      expect((await ok('encounters:create', { campaignId: c.id, name: 'Fight' })).phase).toBe('setup');
    }
  });

  it('numbers NPC copies and runs two rounds with a removal, undo and redo', async () => {
    const { encounter } = await prepared();
    let d = await ok('encounters:get', { id: encounter.id });
    expect(d.view.order.map((c) => c.name)).toEqual(['Berrik', 'Lotty', 'Goblin 1', 'Goblin 2', 'Goblin 3']);
    const goblins = d.view.order.filter((c) => c.side === 'gm').map((c) => c.id);
    await append(encounter.id, { type: 'SET_GM_ORDER', ids: goblins });
    d = await append(encounter.id, { type: 'START' });
    expect([d.view.round, activeName(d)]).toEqual([1, 'Berrik']);
    const seen: string[] = [];
    while (d.view.round < 3) {
      seen.push(`${d.view.round}:${activeName(d)}`);
      if (seen.length === 4) d = await append(encounter.id, { type: 'REMOVE_COMBATANT', combatantId: goblins[1], reason: 'fled' });
      else d = await append(encounter.id, { type: 'END_TURN' });
    }
    expect(seen).toEqual(['1:Berrik', '1:Goblin 1', '1:Lotty', '1:Goblin 2', '1:Goblin 3', '2:Berrik', '2:Goblin 1', '2:Lotty', '2:Goblin 3']);
    expect(d.view.counters[0]!.value).toBe(3);
    expect(d.undoLabel).toBe('Goblin 3 ends the turn with 2 actions unused.');
    d = await ok('encounters:undo', { id: encounter.id });
    expect([d.view.round, activeName(d), d.redoLabel]).toEqual([2, 'Goblin 3', 'End turn']);
    d = await ok('encounters:redo', { id: encounter.id });
    expect([d.view.round, activeName(d), d.canRedo]).toEqual([3, 'Berrik', false]);
    expect(d.log.map((l) => l.text)).toContain('Goblin 2 left the order of battle (fled); everyone after slides up.');
  });

  it('adds late arrivals after the start, at the end or before a chosen slot (R-E4)', async () => {
    const { encounter, goblin } = await prepared();
    const gmIds = (await ok('encounters:get', { id: encounter.id })).view.order.filter((c) => c.side === 'gm').map((c) => c.id);
    await append(encounter.id, { type: 'SET_GM_ORDER', ids: gmIds });
    let d = await append(encounter.id, { type: 'START' });
    while (d.view.round === 1) d = await append(encounter.id, { type: 'END_TURN' });
    d = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [], npcs: [{ templateId: goblin.id, count: 2 }], position: 0 });
    expect(d.view.order.filter((c) => c.slot !== null).map((c) => c.name)).toEqual(['Goblin 4', 'Goblin 5', 'Berrik', 'Goblin 1', 'Lotty', 'Goblin 2', 'Goblin 3']);
    expect(activeName(d)).toBe('Berrik');
    expect(d.log.filter((l) => l.kind === 'order').map((l) => l.text)).toEqual(['Goblin 4 arrives late and joins slot 1.', 'Goblin 5 arrives late and joins slot 2.']);
  });

  it('keeps the exact turn after the app is closed and reopened', async () => {
    const { encounter } = await prepared();
    await append(encounter.id, { type: 'START' });
    await append(encounter.id, { type: 'END_TURN' });
    let d = await ok('encounters:get', { id: encounter.id });
    await append(encounter.id, { type: 'CHOOSE_NPC', combatantId: d.view.prompt!.choices[1]!.id });
    d = await append(encounter.id, { type: 'END_TURN' });
    const before = d;
    t.reopen();
    const after = await ok('encounters:get', { id: encounter.id });
    expect(after.view).toEqual(before.view);
    expect(after.log).toEqual(before.log);
    expect(activeName(after)).toBe('Lotty');
  });

  it('refuses events the rules forbid or that are malformed, and writes nothing', async () => {
    const { encounter } = await prepared();
    const before = counts();
    expect(await refused('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } })).toBe('Start combat first.');
    expect(await refused('encounters:append', { id: encounter.id, event: { type: 'FIREBALL' } })).toBe('"FIREBALL" is not an action this ruleset knows.');
    expect(await refused('encounters:append', { id: encounter.id, event: 'END_TURN' })).toBe('The action is missing its type.');
    expect(await refused('encounters:append', { id: encounter.id, event: { type: 'SET_PARTY_ORDER', ids: ['x'] } })).toBe('The party order must list every party member exactly once.');
    expect(await refused('encounters:append', { id: 'missing', event: { type: 'START' } })).toMatch(/encounter does not exist/);
    expect(await refused('encounters:redo', { id: encounter.id })).toBe('There is nothing to redo in this encounter.');
    expect(counts()).toEqual(before);
  });

  it('clears the redo stack when a new action is taken', async () => {
    const { encounter } = await prepared();
    await append(encounter.id, { type: 'START' });
    await ok('encounters:undo', { id: encounter.id });
    expect(counts().encounter_redo).toBe(1);
    await append(encounter.id, { type: 'SET_FIRST_SIDE', side: 'gm' });
    expect(counts().encounter_redo).toBe(0);
    expect(await refused('encounters:redo', { id: encounter.id })).toBe('There is nothing to redo in this encounter.');
  });

  it('undoes all the way back to an empty encounter', async () => {
    const { encounter } = await prepared();
    await append(encounter.id, { type: 'START' });
    await ok('encounters:undo', { id: encounter.id });
    const d = await ok('encounters:undo', { id: encounter.id });
    expect([d.view.order.length, d.canUndo, d.encounter.eventCount]).toEqual([0, false, 0]);
    expect(await refused('encounters:undo', { id: encounter.id })).toBe('There is nothing to undo in this encounter.');
  });

  it('stores snapshots and resumes from snapshot plus tail to the same state', async () => {
    const { encounter } = await prepared();
    await append(encounter.id, { type: 'SET_GM_ORDER', ids: (await ok('encounters:get', { id: encounter.id })).view.order.filter((c) => c.side === 'gm').map((c) => c.id) });
    await append(encounter.id, { type: 'START' });
    for (let i = 0; i < SNAPSHOT_EVERY * 2 + 7; i += 1) await append(encounter.id, { type: 'END_TURN' });
    const live = await ok('encounters:get', { id: encounter.id });
    expect(counts().encounter_snapshots).toBe(2);
    t.reopen();
    const resumed = await ok('encounters:get', { id: encounter.id });
    expect(resumed.view).toEqual(live.view);
    // undo across a snapshot boundary replays from the previous snapshot
    for (let i = 0; i < 11; i += 1) await ok('encounters:undo', { id: encounter.id });
    expect(counts().encounter_snapshots).toBe(1);
  });

  it('answers each runner write with the encounter row exactly as a fresh read finds it', async () => {
    const { encounter } = await prepared();
    const writes = [
      () => append(encounter.id, { type: 'START' }),
      () => append(encounter.id, { type: 'END_TURN' }),
      () => ok('encounters:undo', { id: encounter.id }),
      () => ok('encounters:redo', { id: encounter.id }),
    ];
    for (const write of writes) {
      const reply = await write();
      expect(reply.encounter).toEqual((await ok('encounters:get', { id: encounter.id })).encounter);
    }
  });

  it('pushes a change notice after each committed write, none after a refusal', async () => {
    const notices: ChangeNotice[] = [];
    t.app.onChange((n) => notices.push(n));
    const { encounter } = await prepared();
    notices.length = 0;
    const started = await append(encounter.id, { type: 'START' });
    // The notices go out after the reply, in the next turn of the event loop.
    expect(notices).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    // The notice carries the version the writer already shows, so its screen need not fetch again.
    expect(notices).toContainEqual({ area: 'encounters', id: encounter.id, version: started.encounter.updatedAt });
    notices.length = 0;
    await refused('encounters:append', { id: encounter.id, event: { type: 'START' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(notices).toEqual([]);
  });
});

describe('long fights', () => {
  it('sends the newest events\' log lines with each write, and the whole log on request', async () => {
    const campaign = await t.ok('campaigns:create', { name: 'Long', rulesetId: 'enigma' });
    const berrik = await t.ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: {} });
    const goblin = await t.ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
    const encounter = await t.ok('encounters:create', { campaignId: campaign.id, name: 'Siege' });
    await t.ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    await t.ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    let detail = await t.ok('encounters:get', { id: encounter.id });
    for (let i = 0; detail.encounter.eventCount < LOG_TAIL_EVENTS + 10; i += 1) {
      detail = await t.ok('encounters:append', { id: encounter.id, event: { type: 'RAISE_ESCALATION', by: 1, source: `drum ${i}` } });
    }
    expect(detail.logComplete).toBe(false);
    expect(new Set(detail.log.map((l) => l.seq)).size).toBe(LOG_TAIL_EVENTS);
    expect(detail.log[0]!.seq).toBe(detail.encounter.eventCount - LOG_TAIL_EVENTS + 1);
    const whole = await t.ok('encounters:log', { id: encounter.id });
    expect(whole.after).toBe(0);
    expect(new Set(whole.entries.map((l) => l.seq)).size).toBe(detail.encounter.eventCount);
    expect(whole.entries.slice(-detail.log.length)).toEqual(detail.log);
  });

  it('sends the log screen only the lines after those it has, and the whole log again after an undo', async () => {
    const { encounter } = await prepared();
    const id = encounter.id;
    await append(id, { type: 'START' });
    const first = await ok('encounters:log', { id });
    expect(first.after).toBe(0);
    await append(id, { type: 'END_TURN' });
    await append(id, { type: 'RAISE_ESCALATION', by: 1, source: 'a drum' });
    const next = await ok('encounters:log', { id, after: { seq: first.eventCount, mark: first.mark } });
    expect(next.after).toBe(first.eventCount);
    expect(new Set(next.entries.map((l) => l.seq))).toEqual(new Set([first.eventCount + 1, first.eventCount + 2]));
    const whole = await ok('encounters:log', { id });
    expect([...first.entries, ...next.entries]).toEqual(whole.entries);
    // An undo takes a line the screen has: it gets the whole log, even once the count is back where it was.
    await ok('encounters:undo', { id });
    await append(id, { type: 'RAISE_ESCALATION', by: 2, source: 'two drums' });
    const afterUndo = await ok('encounters:log', { id, after: { seq: next.eventCount, mark: next.mark } });
    expect(afterUndo.after).toBe(0);
    expect(afterUndo.entries.at(-1)!.text).toContain('two drums');
    // A mark from another start of the app is not trusted either.
    t.reopen();
    expect((await ok('encounters:log', { id, after: { seq: afterUndo.eventCount, mark: afterUndo.mark } })).after).toBe(0);
    const current = await ok('encounters:log', { id });
    expect((await ok('encounters:log', { id, after: { seq: current.eventCount, mark: current.mark } })).entries).toEqual([]);
    expect((await ok('encounters:log', { id, after: { seq: current.eventCount + 5, mark: current.mark } })).after).toBe(0);
  });
});

describe('checkpoints', () => {
  it('moves the WAL into the database file after the reply, every few writes, so the file alone holds them', async () => {
    const campaign = await ok('campaigns:create', { name: 'Checkpointed', rulesetId: 'enigma' });
    for (let i = 1; i < CHECKPOINT_EVERY; i++) await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: `Hero ${i}`, sheet: {} });
    // The checkpoint runs once the event loop turns after the reply, as it does between two requests.
    await new Promise<void>((resolve) => setImmediate(resolve));
    // What a copy of the file without its -wal holds: only what has been checkpointed into it.
    const fileAlone = () => {
      const copy = t.dir.file('copy.sqlite');
      copyFileSync(t.dir.file(), copy);
      const db = new Database(copy, { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM characters').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    expect(fileAlone()).toBe(CHECKPOINT_EVERY - 1);
    await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'One more', sheet: {} });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(fileAlone(), 'one write since the checkpoint lives only in the WAL').toBe(CHECKPOINT_EVERY - 1);
  });

  it('starts the WAL over in the checkpoint\'s turn, so the next GM write does not pay for its new header', async () => {
    // The WAL header's checkpoint sequence (bytes 12-15) counts the times SQLite started the WAL over.
    const restarts = () => readFileSync(`${t.dir.file()}-wal`).readUInt32BE(12);
    const frames = () => (statSync(`${t.dir.file()}-wal`).size - 32) / (4096 + 24);
    const campaign = await ok('campaigns:create', { name: 'Checkpointed', rulesetId: 'enigma' });
    for (let i = 1; i < CHECKPOINT_EVERY; i++) await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: `Hero ${i}`, sheet: {} });
    const before = restarts();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(restarts(), 'started over once, before any further write').toBe(before + 1);
    const version = Number(t.rows('PRAGMA user_version')[0]!['user_version']);
    expect(version, 'the write that started it over changed nothing').toBe(0);
    await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'One more', sheet: {} });
    expect(restarts(), 'the next write appended to the new WAL').toBe(before + 1);
    expect(frames()).toBeGreaterThan(1);
  });
});
