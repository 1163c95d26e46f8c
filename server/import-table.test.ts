// Another tracker's file into a campaign (`imports:table`), through the real handlers on a temporary SQLite file:
// what each reader's sample file adds, what a second import of the same file keeps, and that a refused file — at
// the reader or at the sheet's own checks halfway through the writes — leaves the campaign exactly as it was.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../core/rulesets/registry.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused } = t;

/** The ruleset whose campaigns read other trackers' files (the tests name no id: the registry says which). */
const importing = RULESETS.find((r) => r.imports?.readers.length);
const plain = RULESETS.find((r) => !r.imports);
const samples = join(import.meta.dirname, '../core/rulesets', importing?.id ?? '', 'import/samples');
const sample = (name: string) => readFileSync(join(samples, name), 'utf8');

/** Every row the campaign owns, to prove a refusal wrote nothing. */
const everything = (campaignId: string) => ({
  characters: t.rows('SELECT id, role, name, sheet_json FROM characters WHERE campaign_id = ? ORDER BY id', campaignId),
  encounters: t.rows('SELECT id, name FROM encounters WHERE campaign_id = ? ORDER BY id', campaignId),
  events: t.rows('SELECT e.encounter_id, e.seq FROM encounter_events e JOIN encounters n ON n.id = e.encounter_id WHERE n.campaign_id = ?', campaignId),
});

async function campaign() {
  expect(importing, 'a registered ruleset reads other trackers\' files').toBeDefined();
  return ok('campaigns:create', { name: 'Imported table', rulesetId: importing!.id });
}

describe('imports:table', () => {
  it('rulesets:get lists the readers of the ruleset that has them, and none for the others', async () => {
    expect((await ok('rulesets:get', { id: importing!.id })).readers.map((r) => r.key)).toEqual(['improved-initiative', 'obsidian-initiative-tracker', 'csv']);
    expect((await ok('rulesets:get', { id: plain!.id })).readers).toEqual([]);
  });

  it("Improved Initiative's export: the party, the templates and a prepared encounter with its copies", async () => {
    const c = await campaign();
    const result = await ok('imports:table', { campaignId: c.id, reader: 'improved-initiative', content: sample('improved-initiative-export.json') });
    expect(result).toMatchObject({ source: 'Improved Initiative', party: { added: ['Ada the Bold'], kept: [] }, templates: { added: ['Goblin Boss', 'Wolf'], kept: [] }, warnings: [] });
    expect(result.encounters.map((e) => e.name)).toEqual(['Ambush at the ford']);
    const detail = await ok('campaigns:get', { id: c.id });
    const ada = detail.characters.find((ch) => ch.name === 'Ada the Bold')!;
    expect(ada.role).toBe('pc');
    const fight = await ok('encounters:get', { id: result.encounters[0]!.id });
    expect(fight.view.order.map((row) => row.name)).toEqual(['Wolf 1', 'Wolf 2', 'Grikk']);
    expect(fight.view.order.map((row) => row.health?.max)).toEqual([11, 11, 21]);

    // The same file again: the party and templates are kept (matched by name), the encounter is prepared again.
    const again = await ok('imports:table', { campaignId: c.id, reader: 'improved-initiative', content: sample('improved-initiative-export.json') });
    expect(again.party).toEqual({ added: [], kept: ['Ada the Bold'] });
    expect(again.templates).toEqual({ added: [], kept: ['Goblin Boss', 'Wolf'] });
    expect((await ok('campaigns:get', { id: c.id })).characters).toHaveLength(3);
  });

  it('an Obsidian note: every encounter block, the named players, and the warnings to check', async () => {
    const c = await campaign();
    const result = await ok('imports:table', { campaignId: c.id, reader: 'obsidian-initiative-tracker', content: sample('obsidian-note.md') });
    expect(result.party.added).toEqual(['Ada', 'Bo']);
    expect(result.encounters.map((e) => e.name)).toEqual(['Bridge toll', 'Old mill', 'Mill cellar']);
    expect(result.warnings).toHaveLength(4);
    const bridge = await ok('encounters:get', { id: result.encounters[0]!.id });
    expect(bridge.view.order.map((row) => row.name)).toEqual(['Bandit 1', 'Bandit 2', 'Bandit 3', 'Bandit Captain', 'Wolf']);
  });

  it('a CSV roster: player rows become the party, the others templates', async () => {
    const c = await campaign();
    const result = await ok('imports:table', { campaignId: c.id, reader: 'csv', content: sample('roster.csv') });
    expect(result.party.added).toEqual(['Ada the Bold']);
    expect(result.templates.added).toEqual(['Bandit', 'Bandit Captain']);
    expect(result.encounters).toEqual([]);
  });

  it('a refused file writes nothing: at the reader, at an unknown reader, and at the sheet halfway through', async () => {
    const c = await campaign();
    await ok('imports:table', { campaignId: c.id, reader: 'csv', content: 'Name,HP\nOld Ogre,30\n' });
    const before = everything(c.id);
    expect(await refused('imports:table', { campaignId: c.id, reader: 'csv', content: `Name,HP\n${'N'.repeat(10_000)},7\n` })).toMatch(/^Row 2 has a name of 10,000 characters/);
    expect(await refused('imports:table', { campaignId: c.id, reader: 'improved-initiative', content: sample('roster.csv') })).toBe('The file is not valid JSON, so it is not an Improved Initiative export.');
    expect(await refused('imports:table', { campaignId: c.id, reader: 'word', content: 'x' })).toMatch(/^There is no reader called “word”/);
    // The first rows are fine; the third has more HP than any sheet allows: the two before it are not kept either.
    expect(await refused('imports:table', { campaignId: c.id, reader: 'csv', content: 'Name,HP\nA,5\nB,6\nC,99999\n' })).toMatch(/^C: /);
    expect(await refused('imports:table', { campaignId: c.id, reader: 'csv', content: 42 })).toBe('Choose a file to import.');
    expect(everything(c.id)).toEqual(before);
  });

  it('a campaign of a ruleset with no readers is told so', async () => {
    const c = await ok('campaigns:create', { name: 'Other', rulesetId: plain!.id });
    expect(await refused('imports:table', { campaignId: c.id, reader: 'csv', content: 'Name\nA\n' })).toBe(`A ${plain!.name} campaign does not read other trackers' files.`);
  });
});
