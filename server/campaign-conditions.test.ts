// A campaign's own condition list (`campaigns:setConditions`, core/encounter/condition-list.ts), through the real
// handlers on a temporary SQLite file: every campaign starts from its ruleset's list, the GM's list is what the
// campaign's and its encounters' details suggest, bad input is refused with a sentence and changes nothing, a reset
// goes back to the ruleset's list, and the list travels with the campaign's export and import (an older file,
// without it, still imports).
import { describe, expect, it } from 'vitest';
import { CONDITION_LIST_MAX } from '../core/encounter/condition-list.ts';
import { RULESETS } from '../core/rulesets/registry.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused } = t;

/** Every playable ruleset has its own list to start from. */
const playable = RULESETS.filter((r) => r.encounter?.conditionNames?.length);

async function campaign(rulesetId = playable[0]!.id) {
  return ok('campaigns:create', { name: 'The table', rulesetId });
}

const stored = (id: string) => t.rows('SELECT conditions_json, updated_at FROM campaigns WHERE id = ?', id)[0];

describe('campaigns:setConditions', () => {
  it.each(playable.map((r) => [r.name, r] as const))('a new %s campaign and its encounters suggest the ruleset\'s list', async (_name, ruleset) => {
    const c = await campaign(ruleset.id);
    expect(await ok('campaigns:get', { id: c.id })).toMatchObject({ conditionNames: ruleset.encounter!.conditionNames, conditionNamesOwn: false });
    const fight = await ok('encounters:create', { campaignId: c.id, name: 'First fight' });
    expect((await ok('encounters:get', { id: fight.id })).conditionNames).toEqual(ruleset.encounter!.conditionNames);
  });

  it('the GM\'s list, trimmed, is what the campaign and its encounters suggest; a reset goes back to the ruleset\'s', async () => {
    const c = await campaign();
    const fight = await ok('encounters:create', { campaignId: c.id, name: 'First fight' });
    const set = await ok('campaigns:setConditions', { id: c.id, names: ['  Soaked ', 'Hexed', 'Prone'] });
    expect(set).toMatchObject({ id: c.id, conditionNames: ['Soaked', 'Hexed', 'Prone'], conditionNamesOwn: true });
    expect(JSON.parse(String(stored(c.id)!['conditions_json']))).toEqual(['Soaked', 'Hexed', 'Prone']);
    expect((await ok('encounters:get', { id: fight.id })).conditionNames).toEqual(['Soaked', 'Hexed', 'Prone']);

    // An empty list is a choice too: nothing suggested, free text as ever.
    expect(await ok('campaigns:setConditions', { id: c.id, names: [] })).toMatchObject({ conditionNames: [], conditionNamesOwn: true });

    const reset = await ok('campaigns:setConditions', { id: c.id, names: null });
    expect(reset).toMatchObject({ conditionNames: playable[0]!.encounter!.conditionNames, conditionNamesOwn: false });
    expect(stored(c.id)!['conditions_json']).toBeNull();
  });

  it('refuses a bad list with a sentence and changes nothing', async () => {
    const c = await campaign();
    await ok('campaigns:setConditions', { id: c.id, names: ['Soaked'] });
    const before = stored(c.id);
    const tooMany = Array.from({ length: CONDITION_LIST_MAX + 1 }, (_, i) => `Condition ${i + 1}`);
    const cases: [unknown, string][] = [
      [tooMany, `A campaign's list holds at most ${CONDITION_LIST_MAX} conditions.`],
      [['Soaked', '   '], 'A condition name cannot be empty: remove the blank entry.'],
      [['Soaked', 'x'.repeat(41)], `A condition name has at most 40 characters; “${'x'.repeat(41)}” has 41.`],
      [['Prone', 'Soaked', 'prone '], '“prone” is in the list twice (names are compared without regard to case).'],
      ['Prone, Soaked', 'The conditions must be a list of names.'],
      [[3], 'A condition name must be text.'],
    ];
    for (const [names, sentence] of cases) {
      expect(await refused('campaigns:setConditions', { id: c.id, names })).toBe(sentence);
      expect(stored(c.id)).toEqual(before);
    }
    expect(await refused('campaigns:setConditions', { id: 'no-such-campaign', names: ['Soaked'] })).toBe('That campaign does not exist (it may have been removed).');
  });

  it('travels with the campaign\'s export and import; an older file without it imports with the ruleset\'s list', async () => {
    const c = await campaign();
    await ok('campaigns:setConditions', { id: c.id, names: ['Soaked', 'Hexed'] });
    const file = await ok('exports:campaign', { id: c.id });
    const json = JSON.parse(file.content) as { campaign: Record<string, unknown> };
    expect(json.campaign['conditions']).toEqual(['Soaked', 'Hexed']);

    const imported = await ok('imports:campaign', { content: file.content });
    expect(await ok('campaigns:get', { id: imported.id })).toMatchObject({ conditionNames: ['Soaked', 'Hexed'], conditionNamesOwn: true });
    // Exported again, the same bytes (apart from the time of export).
    const again = await ok('exports:campaign', { id: imported.id });
    const withoutTime = (text: string) => text.replace(/"exportedAt": "[^"]+"/, '');
    expect(withoutTime(again.content)).toBe(withoutTime(file.content));

    // A campaign on its ruleset's list writes no list: its file is as files were before the list existed.
    const plain = await campaign();
    const plainFile = JSON.parse((await ok('exports:campaign', { id: plain.id })).content) as { campaign: Record<string, unknown> };
    expect('conditions' in plainFile.campaign).toBe(false);

    // An older file: the list left out.
    delete json.campaign['conditions'];
    const older = await ok('imports:campaign', { content: JSON.stringify(json) });
    expect(await ok('campaigns:get', { id: older.id })).toMatchObject({ conditionNames: playable[0]!.encounter!.conditionNames, conditionNamesOwn: false });

    // A file whose list breaks the rules is refused like the handler's input, and writes nothing.
    const count = t.rows('SELECT count(*) AS n FROM campaigns')[0];
    json.campaign['conditions'] = ['Soaked', 'SOAKED'];
    expect(await refused('imports:campaign', { content: JSON.stringify(json) })).toBe('The file does not fit the format at campaign.conditions: “SOAKED” is in the list twice (names are compared without regard to case).');
    expect(t.rows('SELECT count(*) AS n FROM campaigns')[0]).toEqual(count);
  });
});
