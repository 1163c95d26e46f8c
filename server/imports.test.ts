// Whole-campaign export and import, and importing one encounter, through the handler table on a real SQLite file:
// for every ruleset a campaign with a finished fight and a ledger exports, imports as a new campaign and exports
// again to the same bytes; every bad file is refused with one sentence and leaves every table as it was.
import { request } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { EncounterDetail } from '../core/api/contract.ts';
import { IMPORT_MAX_BYTES, IMPORT_MAX_DEPTH, IMPORT_MAX_MB } from '../core/export/campaign.ts';
import { CAMPAIGN_FORMAT, ENCOUNTER_FORMAT, EXPORT_VERSION, type EncounterExport } from '../core/export/types.ts';
import { useTestApp } from './testing/harness.ts';
import { startWebServer } from './web.ts';

const t = useTestApp();
const { ok, refused, rows } = t;

/** A clock that moves one second per reading, so every stored time is distinct and the test repeatable. */
beforeEach(() => {
  let tick = 0;
  t.reopen({ now: () => new Date(Date.UTC(2026, 10, 20, 10, 0, tick++)).toISOString() });
});

/** Every row of every table, to show a refused import changed nothing. */
function everything(): Record<string, unknown[]> {
  const tables = rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((r) => String(r['name']));
  return Object.fromEntries(tables.map((table) => [table, rows(`SELECT * FROM "${table}" ORDER BY 1, 2`)]));
}

const append = (id: string, event: unknown, extra: Record<string, unknown> = {}) => ok('encounters:append', { id, event, ...extra });
type Ids = Record<string, string>;
type Step = (ids: Ids) => Record<string, unknown>;

/** A short fight per ruleset that ends, with harm (and lasting records where the ruleset keeps them). */
const FIGHTS: Record<string, { steps: Step[]; ending: Step; adjust?: { key: string; value: number } }> = {
  enigma: {
    steps: [
      () => ({ type: 'START' }),
      (i) => ({ type: 'APPLY_DAMAGE', targetId: i['Ash']!, amount: 20, source: 'trap' }),
      (i) => ({ type: 'RESOLVE_PERIL', combatantId: i['Ash']!, choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 2 } }),
      (i) => ({ type: 'ATTACK', attackerId: i['Ash']!, targetId: i['Goblin']!, mode: 'melee', sight: 'clear', damage: 'full' }),
      () => ({ type: 'RAISE_ESCALATION', by: 1, source: 'drums' }),
      () => ({ type: 'END_TURN' }),
    ],
    ending: () => ({ type: 'END_COMBAT', outcome: 'Victory' }),
    adjust: { key: 'lp', value: 3 },
  },
  teams: {
    steps: [
      () => ({ type: 'START' }),
      (i) => ({ type: 'SELECT_MEMBER', combatantId: i['Ash']! }),
      (i) => ({ type: 'APPLY_DAMAGE', targetId: i['Ash']!, amount: 8, source: 'arrow' }),
    ],
    ending: () => ({ type: 'END_COMBAT', outcome: 'Victory' }),
  },
  factions: {
    steps: [
      () => ({ type: 'START' }),
      () => ({ type: 'SET_INITIATIVE', faction: 'party' }),
      () => ({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' }),
      (i) => ({ type: 'SELECT_CHARACTER', combatantId: i['Ash']! }),
      (i) => ({ type: 'APPLY_DAMAGE', targetId: i['Ash']!, amount: 3, source: 'club' }),
    ],
    ending: () => ({ type: 'END_COMBAT', outcome: 'Victory' }),
  },
  'cairn-errant': {
    steps: [
      () => ({ type: 'START' }),
      (i) => ({ type: 'GAIN_WOUND', combatantId: i['Ash']!, woundType: 'frostbite', severity: 'severe', source: 'the pass' }),
      (i) => ({ type: 'APPLY_DAMAGE', targetId: i['Ash']!, amount: 2, source: 'claw' }),
    ],
    ending: () => ({ type: 'END_COMBAT', outcome: 'Victory' }),
  },
  thrum: {
    steps: [
      () => ({ type: 'START' }),
      (i) => ({ type: 'ROLL_INITIATIVE', combatantId: i['Ash']!, roll: { faces: [6, 5], source: 'manual' } }),
      (i) => ({ type: 'ROLL_INITIATIVE', combatantId: i['Goblin']!, roll: { faces: [1, 2], source: 'manual' } }),
      () => ({ type: 'END_TURN' }),
      () => ({ type: 'END_TURN' }),
      (i) => ({ type: 'APPLY_LOAD', targetId: i['Ash']!, load: 'fatigue', amount: 3, source: 'the climb' }),
      (i) => ({ type: 'OVERRIDE', targetId: i['Ash']!, field: 'fatigueTolerance', value: 2, note: 'a cold night' }),
    ],
    ending: () => ({ type: 'END_COMBAT', outcome: 'Victory' }),
  },
};

/** Recovery after the fight, per ruleset (`record`: the running record the fight left, if any). */
const RECOVERY: Record<string, (ash: string, record: string | null) => Record<string, unknown>[]> = {
  enigma: (ash, record) => [
    { type: 'STITCHER_TREAT', characterId: ash, recordId: record, stitcherId: ash, healingKind: 'natural' },
    { type: 'BREATHER', characterId: ash },
  ],
  teams: (ash) => [{ type: 'REST', characterId: ash }],
  factions: (ash) => [{ type: 'SET_HEALTH', characterId: ash, health: 6, note: 'a week abed' }],
  'cairn-errant': (ash, record) => [{ type: 'BEGIN_CARE', characterId: ash, recordId: record }, { type: 'CATCH_BREATH', characterId: ash }],
  thrum: (ash) => [{ type: 'PARTY', action: { type: 'DOWNTIME', days: 1 }, characterIds: [ash] }],
};

/** A campaign of `rulesetId` with a party member, an NPC, two sessions, a finished fight, a fight in progress and a ledger. */
async function campaignWithHistory(rulesetId: string, name = 'Vault') {
  const campaign = await ok('campaigns:create', { name, rulesetId });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const retired = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Old Bren', sheet: {} });
  await ok('characters:archive', { id: retired.id, archived: true });
  const ledger = (event: unknown) => ok('ledger:append', { campaignId: campaign.id, event });
  await ledger({ type: 'SESSION_START', title: 'The vault door', date: '2026-11-20' });

  const fight = FIGHTS[rulesetId]!;
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  const ids = Object.fromEntries(added.view.order.map((c) => [c.name, c.id])) as Ids;
  for (const step of fight.steps) await append(encounter.id, step(ids));
  await append(encounter.id, fight.ending(ids), fight.adjust ? { carryAdjust: [{ characterId: ash.id, ...fight.adjust }], carryReason: 'the table agreed' } : {});
  // A second fight left running, with an undone action on its redo stack.
  const second = await ok('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
  await ok('encounters:addFromCampaign', { id: second.id, pcIds: [], npcs: [{ templateId: goblin.id, count: 2 }] });
  await ok('encounters:addFromCampaign', { id: second.id, pcIds: [], npcs: [{ templateId: goblin.id, count: 1 }] });
  await ok('encounters:undo', { id: second.id });

  await ledger({ type: 'SESSION_END', notes: 'They crossed.' });
  await ledger({ type: 'ADVANCE_DAYS', days: 1 });
  await ledger({ type: 'SESSION_START' });
  const record = (rows('SELECT id FROM injuries WHERE character_id = ? ORDER BY rowid', ash.id)[0]?.['id'] as string | undefined) ?? null;
  for (const event of RECOVERY[rulesetId]!(ash.id, record)) await ledger(event);
  await ledger({ type: 'ADVANCE_DAYS', days: 2 });
  await ok('ledger:undo', { campaignId: campaign.id });
  return { campaign, ash, goblin, encounter, second };
}

const withoutExportedAt = (content: string) => content.replace(/\n {2}"exportedAt": "[^"]*",/, '');
const exported = async (id: string) => (await ok('exports:campaign', { id })).content;

describe.each(Object.keys(FIGHTS))('%s campaign file', (rulesetId) => {
  it('exports, imports as a new campaign, and exports again to the same bytes', async () => {
    const { campaign, encounter } = await campaignWithHistory(rulesetId);
    const first = await ok('exports:campaign', { id: campaign.id });
    expect(first).toMatchObject({ filename: 'vault.campaign.json', mime: 'application/json' });
    const imported = await ok('imports:campaign', { content: first.content });
    expect(imported).toMatchObject({ name: 'Vault', rulesetId, characterCount: 2, encounterCount: 2, archived: false });
    expect(imported.id).not.toBe(campaign.id);
    expect(withoutExportedAt(await exported(imported.id))).toBe(withoutExportedAt(first.content));

    // No database id of the original is left in the file: everything is a reference.
    for (const row of rows('SELECT id FROM characters UNION ALL SELECT id FROM encounters UNION ALL SELECT id FROM sessions UNION ALL SELECT id FROM injuries')) {
      expect(first.content).not.toContain(String(row['id']));
    }

    // The imported fight replays to the same view, with the same log, and the clock and ledger carry on.
    const [copy] = (await ok('campaigns:get', { id: imported.id })).encounters.filter((e) => e.phase === 'ended');
    const original = await ok('encounters:get', { id: encounter.id });
    const importedFight: EncounterDetail = await ok('encounters:get', { id: copy!.id });
    expect(importedFight.view).toEqual(original.view);
    expect(importedFight.log.map(({ seq, text }) => ({ seq, text }))).toEqual(original.log.map(({ seq, text }) => ({ seq, text })));
    const [ledgerBefore, ledgerAfter] = [await ok('ledger:get', { campaignId: campaign.id }), await ok('ledger:get', { campaignId: imported.id })];
    expect(ledgerAfter.entries.map((e) => [e.seq, e.type, e.state, e.log])).toEqual(ledgerBefore.entries.map((e) => [e.seq, e.type, e.state, e.log]));
    // Cards match except for the record ids, which are new.
    const cards = (detail: typeof ledgerBefore) => detail.characters.map((c) => ({ ...c.card, records: c.card.records.map(({ id: _id, ...r }) => r) }));
    expect(cards(ledgerAfter)).toEqual(cards(ledgerBefore));
    expect({ day: ledgerAfter.day, session: ledgerAfter.session?.number, canUndo: ledgerAfter.canUndo, redo: ledgerAfter.redoLabel })
      .toEqual({ day: ledgerBefore.day, session: ledgerBefore.session?.number, canUndo: ledgerBefore.canUndo, redo: ledgerBefore.redoLabel });
    // Every injury keeps the first log line of the event that caused it, taken from the replayed fight.
    const causes = (campaignId: string) => rows(`SELECT i.name, i.source_text FROM injuries i WHERE i.campaign_id = '${campaignId}' ORDER BY i.created_at, i.name`);
    expect(causes(imported.id)).toEqual(causes(campaign.id));
  });

  it('keeps the imported ledger working: redo and undo apply to the new campaign only', async () => {
    const { campaign } = await campaignWithHistory(rulesetId);
    const imported = await ok('imports:campaign', { content: await exported(campaign.id) });
    const before = rows('SELECT * FROM campaigns WHERE id = ?', campaign.id);
    const redone = await ok('ledger:redo', { campaignId: imported.id });
    expect(redone.day).toBe((await ok('ledger:get', { campaignId: campaign.id })).day + 2);
    await ok('ledger:undo', { campaignId: imported.id });
    await ok('ledger:undo', { campaignId: imported.id });
    expect(rows('SELECT * FROM campaigns WHERE id = ?', campaign.id)).toEqual(before);
  });
});

describe('what an imported campaign holds', () => {
  it('rewrites every link to fresh ids: seeds, ledger payloads, image keys, record ids and conditions', async () => {
    const { campaign, ash } = await campaignWithHistory('cairn-errant');
    const file = JSON.parse(await exported(campaign.id));
    // Care for the wound names the record in the character's condition and in the ledger entry.
    expect(file.characters[0].condition.medicalCare).toEqual([{ recordId: 'r1', since: 2, days: 0 }]);
    expect(file.ledger.find((e: { type: string }) => e.type === 'BEGIN_CARE')).toMatchObject({ payload: { characterId: 'c1', recordId: 'r1' }, subjects: ['c1'] });
    expect(file.encounters[0].events[0].event.combatants[0]).toMatchObject({ characterId: 'c1', name: 'Ash' });
    expect(file.records[0]).toMatchObject({ ref: 'r1', character: 'c1', source: { encounter: 'e1', seq: 3 }, sessionGained: 's1' });

    const imported = await ok('imports:campaign', { content: JSON.stringify(file) });
    const [newAsh] = rows("SELECT id, state_json FROM characters WHERE campaign_id = ? AND name = 'Ash'", imported.id);
    const [record] = rows('SELECT id, source_encounter_id FROM injuries WHERE campaign_id = ?', imported.id);
    expect(record!['id']).toMatch(new RegExp(`^${String(record!['source_encounter_id'])}:`));
    expect(JSON.parse(String(newAsh!['state_json'])).medicalCare).toEqual([{ recordId: record!['id'], since: 2, days: 0 }]);
    const entry = rows("SELECT payload_json, before_json FROM ledger_entries WHERE campaign_id = ? AND type = 'BEGIN_CARE'", imported.id)[0]!;
    expect(JSON.parse(String(entry['payload_json']))).toEqual({ type: 'BEGIN_CARE', characterId: newAsh!['id'], recordId: record!['id'] });
    expect(Object.keys(JSON.parse(String(entry['before_json'])))).toEqual([`character:${String(newAsh!['id'])}`]);
    expect(rows('SELECT count(*) AS n FROM injuries WHERE campaign_id = ?', campaign.id)).toEqual([{ n: 1 }]);
    expect(ash.id).not.toBe(newAsh!['id']);
  });

  it('keeps history that names a session or a record that is gone, and leaves the redo stacks of fights behind', async () => {
    const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
    const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
    const ledger = (event: unknown) => ok('ledger:append', { campaignId: campaign.id, event });
    await ledger({ type: 'SESSION_START', title: 'Never played' });
    await ok('ledger:undo', { campaignId: campaign.id });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
    const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const hero = added.view.order.find((c) => c.name === 'Ash')!.id;
    await append(encounter.id, { type: 'START' });
    await append(encounter.id, { type: 'APPLY_DAMAGE', targetId: hero, amount: 20, source: 'trap' });
    await append(encounter.id, { type: 'RESOLVE_PERIL', combatantId: hero, choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 2 } });
    const record = String(rows('SELECT id FROM injuries')[0]!['id']);
    await ledger({ type: 'STITCHER_TREAT', characterId: ash.id, recordId: record, stitcherId: ash.id, healingKind: 'natural' });
    await ok('ledger:undo', { campaignId: campaign.id });
    await ok('encounters:undo', { id: encounter.id });
    await ledger({ type: 'ADVANCE_DAYS', days: 1 });
    expect(rows('SELECT count(*) AS n FROM injuries')).toEqual([{ n: 0 }]);

    const first = await exported(campaign.id);
    const file = JSON.parse(first);
    expect(file.sessions.map((s: { ref: string; title: string }) => [s.ref, s.title])).toEqual([['s1', 'Session 1']]);
    expect(file.records).toEqual([]);
    expect(Object.keys(file.ledger[0].after)).toEqual(['clock', 'session:s2']);
    expect(file.ledger[2]).toMatchObject({ type: 'STITCHER_TREAT', state: 'dropped', payload: { recordId: 'r1' } });
    expect(Object.keys(file.ledger[2].after)).toContain('record:r1');
    const imported = await ok('imports:campaign', { content: first });
    expect(withoutExportedAt(await exported(imported.id))).toBe(withoutExportedAt(first));
    const [copy] = (await ok('campaigns:get', { id: imported.id })).encounters;
    const detail = await ok('encounters:get', { id: copy!.id });
    expect(detail).toMatchObject({ canUndo: true, canRedo: false });
    expect(detail.view).toEqual((await ok('encounters:get', { id: encounter.id })).view);
  });

  it('escapes texts that look like references, so a character called “c1” stays “c1”', async () => {
    const campaign = await ok('campaigns:create', { name: 'Odd names', rulesetId: 'enigma' });
    const pc = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'c1', sheet: {} });
    const npc = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: '~r2', sheet: {} });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Names' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [pc.id], npcs: [{ templateId: npc.id, count: 1 }] });
    await append(encounter.id, { type: 'START' });
    await append(encounter.id, { type: 'RAISE_ESCALATION', by: 1, source: 's1' });
    const first = await exported(campaign.id);
    const file = JSON.parse(first);
    expect(file.characters.map((c: { name: string }) => c.name)).toEqual(['c1', '~r2']);
    expect(file.encounters[0].events[0].event.combatants.map((c: { name: string }) => c.name)).toEqual(['~c1', '~~r2']);
    expect(file.encounters[0].events[2].event.source).toBe('~s1');
    const imported = await ok('imports:campaign', { content: first });
    const [copy] = (await ok('campaigns:get', { id: imported.id })).encounters;
    const view = (await ok('encounters:get', { id: copy!.id })).view;
    expect(view.order.map((c) => c.name)).toEqual(['c1', '~r2']);
    expect(withoutExportedAt(await exported(imported.id))).toBe(withoutExportedAt(first));
  });

  it('rebuilds snapshots every 50 events and the heads from the replay, not from the file', async () => {
    const campaign = await ok('campaigns:create', { name: 'Long fight', rulesetId: 'enigma' });
    const pc = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
    const npc = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Rat', sheet: {} });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Siege' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [pc.id], npcs: [{ templateId: npc.id, count: 1 }] });
    await append(encounter.id, { type: 'START' });
    for (let i = 0; i < 120; i += 1) await append(encounter.id, { type: 'END_TURN' });
    const original = await ok('encounters:get', { id: encounter.id });
    const imported = await ok('imports:campaign', { content: await exported(campaign.id) });
    const [copy] = rows('SELECT id, phase, round, event_count FROM encounters WHERE campaign_id = ?', imported.id);
    expect(copy).toMatchObject({ phase: 'running', round: original.view.round, event_count: 122 });
    expect(rows('SELECT seq FROM encounter_snapshots WHERE encounter_id = ? ORDER BY seq', copy!['id'])).toEqual([{ seq: 50 }, { seq: 100 }]);
    t.reopen();
    expect((await ok('encounters:get', { id: String(copy!['id']) })).view).toEqual(original.view);
    expect((await ok('encounters:undo', { id: String(copy!['id']) })).encounter.eventCount).toBe(121);
  });

  it('keeps the name even when a campaign already has it, and keeps the archived mark', async () => {
    const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'teams' });
    await ok('campaigns:archive', { id: campaign.id, archived: true });
    const imported = await ok('imports:campaign', { content: await exported(campaign.id) });
    expect(imported).toMatchObject({ name: 'Vault', archived: true, characterCount: 0, encounterCount: 0 });
    expect(rows('SELECT name FROM campaigns')).toEqual([{ name: 'Vault' }, { name: 'Vault' }]);
  });

  it('skips a UTF-8 byte-order mark', async () => {
    const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'thrum' });
    expect(await ok('imports:campaign', { content: `\uFEFF${await exported(campaign.id)}` })).toMatchObject({ name: 'Vault', rulesetId: 'thrum' });
  });
});

describe('refusing a bad campaign file', () => {
  let valid: string;
  beforeEach(async () => {
    const { campaign } = await campaignWithHistory('enigma');
    valid = await exported(campaign.id);
  });
  /** The file with a change made to its parsed form. */
  const changed = (change: (file: Record<string, any>) => void) => {
    const file = JSON.parse(valid);
    change(file);
    return JSON.stringify(file);
  };
  async function refusedUnchanged(content: string): Promise<string> {
    const before = everything();
    const envelope = await t.app.dispatch('imports:campaign', { content });
    expect(envelope).toEqual({ error: { message: expect.any(String), kind: 'invalid' } });
    expect(everything()).toEqual(before);
    return (envelope as { error: { message: string } }).error.message;
  }

  it('refuses a file over the size limit, counted in UTF-8 bytes', async () => {
    expect(await refusedUnchanged(' '.repeat(IMPORT_MAX_BYTES + 1))).toBe(`The file is larger than ${IMPORT_MAX_MB} MB, the most this app imports.`);
    expect(await refusedUnchanged('é'.repeat(IMPORT_MAX_BYTES / 2 + 1))).toBe(`The file is larger than ${IMPORT_MAX_MB} MB, the most this app imports.`);
  });

  it('refuses nesting deeper than the limit before parsing, even far beyond what JSON.parse survives', async () => {
    const sentence = `The file nests data more than ${IMPORT_MAX_DEPTH} levels deep, which no export of this app does.`;
    expect(await refusedUnchanged(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`)).toBe(sentence);
    expect(await refusedUnchanged(changed((f) => { f['campaign'].party = { deep: JSON.parse(`${'['.repeat(IMPORT_MAX_DEPTH)}${']'.repeat(IMPORT_MAX_DEPTH)}`) }; }))).toBe(sentence);
    // Brackets inside strings do not count.
    expect(await ok('imports:campaign', { content: changed((f) => { f['campaign'].party = { note: '['.repeat(500) }; }) })).toMatchObject({ name: 'Vault' });
  });

  it('refuses what is not JSON, empty, or not this app\'s campaign format', async () => {
    expect(await refusedUnchanged('{"format": "gm-workstation/campaign",')).toBe('The file is not valid JSON: it is damaged, or it is not an export of this app.');
    expect(await refusedUnchanged('  \n')).toBe('The file is empty.');
    expect(await refusedUnchanged('[1, 2]')).toBe('This is not a GM Workstation campaign file.');
    expect(await refusedUnchanged('"gm-workstation/campaign"')).toBe('This is not a GM Workstation campaign file.');
    expect(await refusedUnchanged(changed((f) => { f['format'] = 'other-app/campaign'; }))).toBe('This is not a GM Workstation campaign file.');
    expect(await refusedUnchanged(changed((f) => { f['format'] = ENCOUNTER_FORMAT; }))).toBe('This is an encounter file: import it into a campaign, not as a campaign.');
  });

  it('refuses a file from a newer version, and one without a version', async () => {
    expect(await refusedUnchanged(changed((f) => { f['version'] = EXPORT_VERSION + 1; }))).toBe('This file was made by a newer GM Workstation (format version 2); update the app to import it.');
    expect(await refusedUnchanged(changed((f) => { delete f['version']; }))).toBe('The file has no valid format version.');
    expect(await refusedUnchanged(changed((f) => { f['version'] = '1'; }))).toBe('The file has no valid format version.');
  });

  it('refuses unknown keys and wrong types, saying where', async () => {
    expect(await refusedUnchanged(changed((f) => { f['extra'] = true; }))).toBe('The file has fields this app does not know at its top level: extra.');
    expect(await refusedUnchanged(changed((f) => { f['characters'][0].nickname = 'Ashy'; }))).toBe('The file has fields this app does not know at characters.0: nickname.');
    expect(await refusedUnchanged(changed((f) => { f['campaign'].day = '2'; }))).toBe('The file does not fit the format at campaign.day: A day must be a number.');
    expect(await refusedUnchanged(changed((f) => { f['campaign'].day = 2_000_000; }))).toBe('The file does not fit the format at campaign.day: A day is at most 1000000.');
    expect(await refusedUnchanged(changed((f) => { f['campaign'].day = 1e300; }))).toBe('The file does not fit the format at campaign.day: A day must be a whole number.');
    expect(await refusedUnchanged(changed((f) => { f['encounters'][0].events = {}; }))).toBe('The file does not fit the format at encounters.0.events: Events must be a list.');
    expect(await refusedUnchanged(changed((f) => { f['ledger'][0].after = { 'session:x': null }; }))).toBe('The file does not fit the format at ledger.0.after.session:x: “session:x” is not a ledger image key.');
    expect(await refusedUnchanged(changed((f) => { f['characters'][0].ref = 'hero'; }))).toBe('The file does not fit the format at characters.0.ref: A character reference looks like c1.');
  });

  it('refuses __proto__, constructor and prototype keys anywhere', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const content = valid.replace('"condition": {', `"condition": {"${key}": {"polluted": true},`);
      expect(await refusedUnchanged(content)).toBe(`The file contains a key named “${key}”, which no export of this app has.`);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses duplicate references and references to things not in the file', async () => {
    expect(await refusedUnchanged(changed((f) => { f['characters'][1].ref = 'c1'; }))).toBe('The file names c1 twice.');
    expect(await refusedUnchanged(changed((f) => { f['sessions'][1].number = 1; }))).toBe('The file has two sessions numbered 1.');
    expect(await refusedUnchanged(changed((f) => { f['ledger'][1].seq = 1; }))).toBe('The file has two ledger entries numbered 1.');
    expect(await refusedUnchanged(changed((f) => { f['records'][0].character = 'c9'; }))).toBe('Record r1 (Sprained Ankle) refers to c9, which is not in the file.');
    expect(await refusedUnchanged(changed((f) => { f['encounters'][0].events[0].event.combatants[0].characterId = 'c9'; })))
      .toBe('Encounter “Bridge”, event 1, refers to c9, which is not in the file.');
    expect(await refusedUnchanged(changed((f) => { f['encounters'][0].events[0].event.combatants[0].characterId = 'a-character-elsewhere'; })))
      .toBe('Encounter “Bridge”, event 1 (ADD_COMBATANTS), links a combatant to a character that is not in the file.');
    expect(await refusedUnchanged(changed((f) => { f['encounters'][0].session = 's9'; }))).toBe('Encounter “Bridge” refers to s9, which is not in the file.');
    expect(await refusedUnchanged(changed((f) => { f['records'][0].source.seq = 99; }))).toBe('Record r1 (Sprained Ankle) comes from event 99 of “Bridge”, which has 8 events.');
    expect(await refusedUnchanged(changed((f) => { f['ledger'][4].payload.characterId = 'c7'; }))).toBe('Ledger entry 5 refers to c7, which is not in the file.');
  });

  it('refuses names over the limits', async () => {
    expect(await refusedUnchanged(changed((f) => { f['campaign'].name = 'V'.repeat(81); }))).toBe('The file does not fit the format at campaign.name: A name is at most 80 characters.');
    expect(await refusedUnchanged(changed((f) => { f['characters'][0].name = ' '; }))).toBe('The file does not fit the format at characters.0.name: A name cannot be empty.');
    expect(await refusedUnchanged(changed((f) => { f['sessions'][0].title = 'T'.repeat(121); }))).toBe('The file does not fit the format at sessions.0.title: A session title has at most 120 characters.');
    expect(await refusedUnchanged(changed((f) => { f['encounters'][0].name = 'E'.repeat(81); }))).toBe('The file does not fit the format at encounters.0.name: A name is at most 80 characters.');
  });

  it('refuses a sheet, a ruling or a ledger entry the ruleset does not accept', async () => {
    expect(await refusedUnchanged(changed((f) => { f['characters'][0].sheet.endure = 7; }))).toBe('Ash\'s sheet is not valid: Endure must be one of d4, d6, d8, d10, d12.');
    expect(await refusedUnchanged(changed((f) => { f['characters'][0].sheet.charm = 3; }))).toBe('Ash\'s sheet has a field Enigma sheets do not have: “charm”.');
    expect(await refusedUnchanged(changed((f) => { f['campaign'].options.houseRule = true; }))).toBe('The campaign has rulings Enigma does not know: houseRule.');
    // Entries: 1 session start, 2 session end, 3 a day passes, 4 session start, 5 Stitcher, 6 Breather, 7 two days (undone).
    expect(await refusedUnchanged(changed((f) => { f['ledger'][2].payload.days = 0; }))).toBe('Ledger entry 3 (ADVANCE_DAYS) is not valid: At least one day must pass.');
    expect(await refusedUnchanged(changed((f) => { f['ledger'][5].payload.type = 'NAP'; f['ledger'][5].type = 'NAP'; })))
      .toBe('Ledger entry 6 (NAP) is not valid: "NAP" is not a recovery action this ruleset knows.');
    expect(await refusedUnchanged(changed((f) => { f['ledger'][5].payload.raise = 'charm'; })))
      .toBe('Ledger entry 6 (BREATHER) is not valid: Raise the most diminished die, a named capacity die, or none.');
    expect(await refusedUnchanged(changed((f) => { f['ledger'][5].type = 'REST'; }))).toBe('Ledger entry 6 is marked REST but holds a different action.');
    expect(await refusedUnchanged(changed((f) => { f['ledger'][4].state = 'undone'; }))).toBe('Ledger entry 6 is done after an undone entry, which cannot happen.');
  });

  it('refuses an event the ruleset refuses on replay, naming the encounter and the event', async () => {
    expect(await refusedUnchanged(changed((f) => { f['encounters'][0].events.splice(1, 1); })))
      .toBe('Encounter “Bridge”, event 2 (APPLY_DAMAGE), is refused: Start combat first.');
    expect(await refusedUnchanged(changed((f) => { f['encounters'][0].events[2].event.type = 'NAP'; })))
      .toBe('Encounter “Bridge”, event 3 (NAP), is not valid: "NAP" is not an action this ruleset knows.');
    expect(await refusedUnchanged(changed((f) => { delete f['encounters'][0].events[4].event.attackRoll; })))
      .toBe('Encounter “Bridge”, event 5 (ATTACK), is missing its dice (Ash: Attack).');
    expect(await refusedUnchanged(changed((f) => { f['encounters'][0].events[7].event.carryAdjust[0].key = 'charm'; })))
      .toBe('Encounter “Bridge”, event 8 (END_COMBAT), adjusts “charm”, which is not a number the fight carries.');
  });
});

/** An encounter file as core/export/types.ts describes it, built from what the app stores. */
async function encounterFile(encounterId: string): Promise<EncounterExport> {
  const detail = await ok('encounters:get', { id: encounterId });
  const [row] = rows('SELECT input_json, created_at FROM encounters WHERE id = ?', encounterId);
  return {
    format: ENCOUNTER_FORMAT, version: EXPORT_VERSION, exportedAt: '2026-11-21T09:00:00.000Z', rulesetId: detail.encounter.rulesetId,
    encounter: {
      id: encounterId, name: detail.encounter.name, campaignName: detail.encounter.campaignName, createdAt: String(row!['created_at']),
      phase: detail.encounter.phase, round: detail.encounter.round, input: JSON.parse(String(row!['input_json'])),
    },
    events: rows('SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', encounterId).map((r) => JSON.parse(String(r['payload_json']))),
    log: detail.log,
    summary: [{ round: 1, measure: 'damage', combatants: detail.view.order.map((c) => ({ id: c.id, name: c.name, side: c.side, dealt: 0, taken: 0, healed: 0, statuses: [], down: false })) }],
  };
}

describe('importing one encounter into a campaign', () => {
  it('replays it as a new encounter with every character link cut, writing nothing onto the characters', async () => {
    const { encounter, ash } = await campaignWithHistory('enigma');
    const file = await encounterFile(encounter.id);
    const target = await ok('campaigns:create', { name: 'Elsewhere', rulesetId: 'enigma' });
    const hero = await ok('characters:create', { campaignId: target.id, role: 'pc', name: 'Ash', sheet: {} });
    const summary = await ok('imports:encounter', { campaignId: target.id, content: JSON.stringify(file) });
    expect(summary).toMatchObject({ campaignId: target.id, name: 'Bridge', phase: 'ended', eventCount: 8 });
    const copy = await ok('encounters:get', { id: summary.id });
    const original = await ok('encounters:get', { id: encounter.id });
    expect(copy.view).toEqual(original.view);
    // The GM override rode on the linked character; cut loose, it is gone from the event and the log.
    expect(copy.log.map((l) => l.text)).toEqual(original.log.map((l) => l.text).filter((text) => !text.startsWith('GM override:')));
    const stored = rows('SELECT payload_json FROM encounter_events WHERE encounter_id = ?', summary.id).map((r) => String(r['payload_json']));
    expect(stored.join()).not.toContain(ash.id);
    expect(stored.join()).not.toContain('carryAdjust');
    expect(JSON.parse(stored[0]!).combatants.map((c: { characterId: unknown }) => c.characterId)).toEqual([null, null]);
    expect(rows('SELECT * FROM injuries WHERE campaign_id = ?', target.id)).toEqual([]);
    expect(rows('SELECT state_json FROM characters WHERE id = ?', hero.id)).toEqual([{ state_json: '{}' }]);
    expect(rows('SELECT party_json FROM campaigns WHERE id = ?', target.id)).toEqual([{ party_json: '{}' }]);
  });

  it.each(Object.keys(FIGHTS))('takes the app\'s own %s encounter export and replays it to the same view', async (rulesetId) => {
    const { encounter } = await campaignWithHistory(rulesetId);
    const file = await ok('exports:encounter', { id: encounter.id, format: 'json' });
    const target = await ok('campaigns:create', { name: 'Elsewhere', rulesetId });
    const summary = await ok('imports:encounter', { campaignId: target.id, content: file.content });
    expect((await ok('encounters:get', { id: summary.id })).view).toEqual((await ok('encounters:get', { id: encounter.id })).view);
  });

  it('joins the session being played on the current day', async () => {
    const { encounter } = await campaignWithHistory('thrum');
    const target = await ok('campaigns:create', { name: 'Elsewhere', rulesetId: 'thrum' });
    const { session } = await ok('ledger:append', { campaignId: target.id, event: { type: 'SESSION_START' } });
    const summary = await ok('imports:encounter', { campaignId: target.id, content: JSON.stringify(await encounterFile(encounter.id)) });
    expect(rows('SELECT session_id, day FROM encounters WHERE id = ?', summary.id)).toEqual([{ session_id: session!.id, day: 1 }]);
  });

  it('refuses another ruleset, a changed file and every bad file the campaign import refuses, changing nothing', async () => {
    const { encounter } = await campaignWithHistory('enigma');
    const file = await encounterFile(encounter.id);
    const teams = await ok('campaigns:create', { name: 'Iron Pact', rulesetId: 'teams' });
    const enigma = await ok('campaigns:create', { name: 'Elsewhere', rulesetId: 'enigma' });
    const before = everything();
    const refusal = (campaignId: string, content: string) => refused('imports:encounter', { campaignId, content });
    expect(await refusal(teams.id, JSON.stringify(file))).toBe('This encounter was fought under Enigma, but “Iron Pact” plays Teams.');
    expect(await refusal(enigma.id, JSON.stringify({ ...file, encounter: { ...file.encounter, round: 4 } })))
      .toBe('The file says “Bridge” is ended in round 4, but its events replay to ended in round 1: the file has been changed.');
    expect(await refusal(enigma.id, JSON.stringify({ ...file, events: file.events.slice(1) })))
      .toBe('Encounter “Bridge”, event 1 (START), is refused: Add at least one party member before starting.');
    expect(await refusal(enigma.id, JSON.stringify({ ...file, version: 3 }))).toBe('This file was made by a newer GM Workstation (format version 3); update the app to import it.');
    expect(await refusal(enigma.id, JSON.stringify({ ...file, format: CAMPAIGN_FORMAT }))).toBe('This is a whole-campaign file: import it as a campaign, not as an encounter.');
    expect(await refusal(enigma.id, JSON.stringify({ ...file, notes: 'x' }))).toBe('The file has fields this app does not know at its top level: notes.');
    expect(await refusal(enigma.id, JSON.stringify(file).replace('"events":[{', '"events":[{"__proto__":1,'))).toBe('The file contains a key named “__proto__”, which no export of this app has.');
    expect(await refusal(enigma.id, JSON.stringify({ ...file, encounter: { ...file.encounter, name: 'B'.repeat(81) } }))).toBe('The file does not fit the format at encounter.name: A name is at most 80 characters.');
    expect(await refusal(enigma.id, '{')).toBe('The file is not valid JSON: it is damaged, or it is not an export of this app.');
    expect(await refusal(enigma.id, `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`)).toBe(`The file nests data more than ${IMPORT_MAX_DEPTH} levels deep, which no export of this app does.`);
    expect(await refusal('no-such-campaign', JSON.stringify(file))).toBe('That campaign does not exist (it may have been removed).');
    expect(everything()).toEqual(before);
  });
});

describe('imports in web mode', () => {
  it('accepts a file far over the 1 MB every other request is held to', async () => {
    const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
    const file = JSON.parse(await exported(campaign.id));
    file.campaign.party = { chronicle: 'The long tale. '.repeat(200_000) };
    const staticDir = join(t.dir.path, 'renderer');
    mkdirSync(staticDir);
    const web = await startWebServer({ service: t.app, staticDir });
    const post = (name: string, body: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: web.port, path: `/api/${name}`, method: 'POST', headers: {
        Host: `127.0.0.1:${web.port}`, Authorization: `Bearer ${web.token}`, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)),
      } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    try {
      const content = JSON.stringify(file);
      expect(content.length).toBeGreaterThan(2_000_000);
      const imported = await post('imports:campaign', JSON.stringify({ content }));
      expect(imported.status).toBe(200);
      expect(JSON.parse(imported.body).result).toMatchObject({ name: 'Vault' });
      const other = await post('campaigns:create', JSON.stringify({ name: 'x'.repeat(2_000_000), rulesetId: 'enigma' }));
      expect(other).toEqual({ status: 413, body: JSON.stringify({ error: { message: 'The request is larger than 1 MB.', kind: 'invalid' } }) });
    } finally {
      await web.close();
    }
  });
});
