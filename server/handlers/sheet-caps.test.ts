// A current value above its maximum (HP 15 of Maximum HP 4, STR 18 of STR maximum 10) is refused by
// characters:create and characters:update with a sentence, and nothing is written (issue 28, point 8). Through the
// real handlers on a temporary SQLite file.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../testing/harness.ts';

const t = useTestApp();
const { ok, refused, rows } = t;
const sheets = () => rows('SELECT name, sheet_json FROM characters ORDER BY name');

describe('characters: a current value is at most its maximum', () => {
  it('Cairn-Errant: HP above Maximum HP and STR above STR maximum are refused on create and update', async () => {
    const campaign = await ok('campaigns:create', { name: 'Hollow', rulesetId: 'cairn-errant' });
    expect(await refused('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: { hpMax: 4, hp: 15 } }))
      .toBe('HP 15 is above Maximum HP 4: lower HP or raise Maximum HP.');
    expect(sheets()).toEqual([]);
    const wren = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: { hpMax: 4, hp: 4 } });
    const before = sheets();
    expect(await refused('characters:update', { id: wren.id, name: 'Wren', sheet: { ...wren.sheet, strMax: 10, str: 18 } }))
      .toBe('STR 18 is above STR maximum 10: lower STR or raise STR maximum.');
    expect(sheets()).toEqual(before);
    // At the maximum is fine.
    await ok('characters:update', { id: wren.id, name: 'Wren', sheet: { ...wren.sheet, strMax: 12, str: 12 } });
  });

  it.each([
    ['teams', { healthMax: 5, health: 9 }, 'Health 9 is above Health maximum 5: lower Health or raise Health maximum.'],
    ['factions', { healthMax: 6, health: 7 }, 'Health 7 is above Maximum health 6: lower Health or raise Maximum health.'],
  ])('%s: a pool above its maximum is refused', async (rulesetId, sheet, sentence) => {
    const campaign = await ok('campaigns:create', { name: 'Pools', rulesetId });
    expect(await refused('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Brute', sheet })).toBe(sentence);
    expect(sheets()).toEqual([]);
  });
});
