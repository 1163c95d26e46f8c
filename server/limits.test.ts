// Limits: the text limits the UI states are the ones the handlers hold; a 200-combatant fight runs through the
// handler table; a long fight (2,000 events written through EncounterStore in one transaction) resumes, undoes
// and exports; web mode cannot be reached from a non-loopback address.
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { HandlerResults } from '../core/api/contract.ts';
import { NAME_MAX } from '../core/encounter/schemas.ts';
import { IMPORT_MAX_BYTES, IMPORT_MAX_DEPTH, IMPORT_MAX_MB } from '../core/export/campaign.ts';
import { openDatabase, writeTransaction } from '../db/connection.ts';
import { getEncounter } from '../db/encounters.ts';
import { EncounterStore } from './encounter-store.ts';
import { useTestApp } from './testing/harness.ts';
import { startWebServer } from './web.ts';

const t = useTestApp();
const { ok, refused } = t;
type Detail = HandlerResults['encounters:get'];
const activeName = (d: Detail) => d.view.order.find((c) => c.id === d.view.activeId)?.name ?? null;

describe('text and file limits (the numbers the UI shows beside each field)', () => {
  it('names are 1–80 characters after trimming, everywhere a name is given', async () => {
    expect(NAME_MAX).toBe(80);
    const campaign = await ok('campaigns:create', { name: ` ${'a'.repeat(80)} `, rulesetId: 'enigma' });
    expect(campaign.name).toHaveLength(80);
    expect(await refused('campaigns:create', { name: 'a'.repeat(81), rulesetId: 'enigma' })).toBe('A name is at most 80 characters.');
    expect(await refused('campaigns:rename', { id: campaign.id, name: 'b'.repeat(81) })).toBe('A name is at most 80 characters.');
    expect(await refused('characters:create', { campaignId: campaign.id, role: 'pc', name: 'c'.repeat(81), sheet: {} })).toBe('A name is at most 80 characters.');
    expect(await refused('encounters:create', { campaignId: campaign.id, name: 'd'.repeat(81) })).toBe('A name is at most 80 characters.');
    expect(await refused('encounters:create', { campaignId: campaign.id, name: '   ' })).toBe('A name cannot be empty.');
  });

  it('session titles 120, session notes 10,000, a carry-over reason 200 characters', async () => {
    const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'SESSION_START' } });
    const session = (await ok('campaigns:get', { id: campaign.id })).session!;
    await ok('sessions:update', { id: session.id, title: 't'.repeat(120), notes: 'n'.repeat(10_000) });
    expect(await refused('sessions:update', { id: session.id, title: 't'.repeat(121) })).toBe('A session title has at most 120 characters.');
    expect(await refused('sessions:update', { id: session.id, notes: 'n'.repeat(10_001) })).toBe('Session notes have at most 10,000 characters.');
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
    expect(await refused('encounters:append', { id: encounter.id, event: { type: 'START' }, carryReason: 'r'.repeat(201) })).toBe('A reason has at most 200 characters.');
  });

  it(`imports: at most ${IMPORT_MAX_MB} MB and ${IMPORT_MAX_DEPTH} levels of nesting, refused before anything is read further`, async () => {
    expect(await refused('imports:campaign', { content: ' '.repeat(IMPORT_MAX_BYTES + 1) })).toBe(`The file is larger than ${IMPORT_MAX_MB} MB, the most this app imports.`);
    const deep = `${'['.repeat(IMPORT_MAX_DEPTH + 1)}${']'.repeat(IMPORT_MAX_DEPTH + 1)}`;
    expect(await refused('imports:campaign', { content: deep })).toBe(`The file nests data more than ${IMPORT_MAX_DEPTH} levels deep, which no export of this app does.`);
    expect(t.rows('SELECT count(*) AS n FROM campaigns')[0]!['n']).toBe(0);
  });
});

describe('an encounter with 200 combatants', () => {
  it('adds them, starts, runs a whole round in order, undoes and redoes through the handler table', async () => {
    const campaign = await ok('campaigns:create', { name: 'The Horde', rulesetId: 'enigma' });
    const pcIds: string[] = [];
    for (const name of ['Ash', 'Berrik']) pcIds.push((await ok('characters:create', { campaignId: campaign.id, role: 'pc', name, sheet: {} })).id);
    const templates: string[] = [];
    for (const name of ['Goblin', 'Orc', 'Kobold', 'Rat']) templates.push((await ok('characters:create', { campaignId: campaign.id, role: 'npc', name, sheet: {} })).id);
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'The Siege' });
    // 50 copies at once is the per-template limit (the prep screen says so); 2 + 50 + 50 + 50 + 48 = 200.
    let d = await ok('encounters:addFromCampaign', {
      id: encounter.id, pcIds,
      npcs: [{ templateId: templates[0]!, count: 50 }, { templateId: templates[1]!, count: 50 }, { templateId: templates[2]!, count: 50 }, { templateId: templates[3]!, count: 48 }],
    });
    expect(d.view.order).toHaveLength(200);
    expect(new Set(d.view.order.map((c) => c.name)).size).toBe(200);
    expect(d.view.order.filter((c) => c.name.startsWith('Rat ')).map((c) => c.name).at(-1)).toBe('Rat 48');
    expect(await refused('encounters:addFromCampaign', { id: encounter.id, pcIds: [], npcs: [{ templateId: templates[0]!, count: 51 }] })).toBe('Add at most 50 copies of a template at once.');

    const gmIds = d.view.order.filter((c) => c.side === 'gm').map((c) => c.id);
    await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: [...gmIds].reverse() } });
    d = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    expect([d.view.phase, d.view.round]).toEqual(['running', 1]);

    // R-E1: party and GM alternate; when the party runs out the GM's order runs on.
    const gmNames = [...gmIds].reverse().map((id) => d.view.order.find((c) => c.id === id)!.name);
    const expected = ['Ash', gmNames[0], 'Berrik', gmNames[1], ...gmNames.slice(2)];
    const seen: string[] = [];
    while (d.view.round === 1) {
      seen.push(activeName(d)!);
      d = await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } });
    }
    expect(seen).toEqual(expected);
    expect([d.view.round, activeName(d)]).toEqual([2, 'Ash']);
    // Adding the combatants, the GM order and START are events too (prep is in the log).
    expect(d.encounter.eventCount).toBe(3 + 200);

    d = await ok('encounters:undo', { id: encounter.id });
    expect([d.view.round, activeName(d)]).toEqual([1, gmNames.at(-1)]);
    d = await ok('encounters:redo', { id: encounter.id });
    expect([d.view.round, activeName(d)]).toEqual([2, 'Ash']);
    t.reopen();
    const resumed = await ok('encounters:get', { id: encounter.id });
    expect(resumed.view).toEqual(d.view);
  });
});

/** Writes `count` END_TURN events through EncounterStore on its own connection, in one transaction. */
function longFight(databasePath: string, encounterId: string, count: number): void {
  const db = openDatabase(databasePath);
  try {
    const store = new EncounterStore(db);
    writeTransaction(db, () => {
      for (let i = 0; i < count; i++) store.append(getEncounter(db, encounterId)!, { type: 'END_TURN' }, new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString());
    });
  } finally {
    db.close();
  }
}

describe('a long fight', () => {
  it('2,000 events: resume after a restart, undo past a snapshot, export', async () => {
    const campaign = await ok('campaigns:create', { name: 'Endless', rulesetId: 'enigma' });
    const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'The Long Night' });
    let d = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 3 }] });
    await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: d.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });

    longFight(t.dir.file(), encounter.id, 2000);
    t.reopen();
    d = await ok('encounters:get', { id: encounter.id });
    // 4 combatants, 4 turns a round: 2,000 turns end round 500. Prep (adding, GM order, START) is 3 events.
    expect(d.encounter.eventCount).toBe(2003);
    expect([d.view.round, activeName(d)]).toEqual([501, 'Ash']);
    expect(Number(t.rows('SELECT count(*) AS n FROM encounter_snapshots WHERE encounter_id = ?', encounter.id)[0]!['n'])).toBe(40);

    // Undo across the snapshot at 2,000 (it is dropped with the events after it), then resume from the one before.
    for (let i = 0; i < 4; i++) d = await ok('encounters:undo', { id: encounter.id });
    expect(d.encounter.eventCount).toBe(1999);
    expect(Number(t.rows('SELECT max(seq) AS n FROM encounter_snapshots WHERE encounter_id = ?', encounter.id)[0]!['n'])).toBe(1950);
    expect([d.view.round, activeName(d)]).toEqual([500, 'Ash']);
    t.reopen();
    expect((await ok('encounters:get', { id: encounter.id })).view).toEqual(d.view);

    const json = await ok('exports:encounter', { id: encounter.id, format: 'json' });
    expect((JSON.parse(json.content) as { events: unknown[] }).events).toHaveLength(1999);
    const markdown = await ok('exports:encounter', { id: encounter.id, format: 'md' });
    expect(markdown.content).toContain('Round 500');
  });
});

describe('a campaign of more than 100,000 events', () => {
  it('imports whole: one fight of 100,004 events (more than the old limit of 100,000), replayed and checked', { timeout: 120_000 }, async () => {
    const campaign = await ok('campaigns:create', { name: 'Endless', rulesetId: 'enigma' });
    const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'The Long Night' });
    const d = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 3 }] });
    await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: d.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    // The file the exporter writes for that fight after 100,001 more turns (writing them through the store first
    // takes half a minute here; the exporter lists stored rows as they are).
    const file = JSON.parse((await ok('exports:campaign', { id: campaign.id })).content) as { encounters: { events: { recordedAt: string; event: object }[] }[] };
    const events = file.encounters[0]!.events;
    for (let i = 0; i < 100_001; i++) events.push({ recordedAt: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(), event: { type: 'END_TURN' } });
    const content = JSON.stringify(file, null, 2);
    expect(Buffer.byteLength(content)).toBeLessThan(IMPORT_MAX_BYTES);

    const copy = await ok('imports:campaign', { content });
    const home = await ok('campaigns:get', { id: copy.id });
    const imported = await ok('encounters:get', { id: home.encounters[0]!.id });
    expect(imported.encounter.eventCount).toBe(100_004);
    expect(imported.view.round).toBe(25_001);
  });
});

describe('web mode', () => {
  it('cannot be reached on any of this machine\'s non-loopback addresses', async () => {
    const web = await startWebServer({ service: t.app, staticDir: t.dir.path, port: 0 });
    try {
      expect(web.server.address()).toMatchObject({ address: '127.0.0.1' });
      const outside = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal && a.family === 'IPv4').map((a) => a!.address);
      for (const address of outside) {
        const outcome = await new Promise<string>((resolve) => {
          const socket = connect({ host: address, port: web.port, timeout: 2000 });
          socket.once('connect', () => (socket.destroy(), resolve('connected')));
          socket.once('timeout', () => (socket.destroy(), resolve('timeout')));
          socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        });
        expect(outcome, `web mode answered on ${address}`).not.toBe('connected');
      }
      // The loopback address itself answers (so the check above is not vacuous for lack of a server).
      const local = await new Promise<string>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: web.port });
        socket.once('connect', () => (socket.destroy(), resolve('connected')));
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(local).toBe('connected');
    } finally {
      await web.close();
    }
  });
});
