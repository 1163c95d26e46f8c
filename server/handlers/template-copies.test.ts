// Each copy of an NPC template with its own name and main pool, set before it joins the fight
// (encounters:addFromCampaign's `names` and `pool`). Through the real handlers on a temporary SQLite file.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../testing/harness.ts';

const t = useTestApp();
const { ok } = t;

async function fightWith(rulesetId: string, template: Record<string, unknown>) {
  const campaign = await ok('campaigns:create', { name: 'Road', rulesetId });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: template });
  const fight = await ok('encounters:create', { campaignId: campaign.id, name: 'Ambush' });
  const add = (entry: Record<string, unknown>) => ({ id: fight.id, pcIds: [], npcs: [{ templateId: goblin.id, ...entry }] });
  const roster = async () => (await ok('encounters:get', { id: fight.id })).view.order.map((c) => [c.name, c.health?.current, c.health?.max]);
  return { campaign, fight, goblin, add, roster };
}

describe('copies of a template, each with its own name and pool', () => {
  it('Cairn-Errant (HP): a blank name keeps its number, a null pool keeps the template\'s', async () => {
    const { add, roster } = await fightWith('cairn-errant', { hpMax: 5, hp: 5 });
    await ok('encounters:addFromCampaign', add({ count: 3, names: ['', ' Snaga ', ''], pool: [null, null, 3] }));
    expect(await roster()).toEqual([['Goblin 1', 5, 5], ['Snaga', 5, 5], ['Goblin 3', 3, 3]]);
    // One number sets every copy's pool; numbering goes on after those already there.
    await ok('encounters:addFromCampaign', add({ count: 2, pool: 2 }));
    expect((await roster()).slice(3)).toEqual([['Goblin 2', 2, 2], ['Goblin 4', 2, 2]]);
  });

  it('Factions (health is STR under R-F20\'s default): a lowered pool lowers STR and health together', async () => {
    const { campaign, fight, add } = await fightWith('factions', { str: 12, healthMax: 12, health: 12 });
    const pc = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: {} });
    await ok('encounters:addFromCampaign', { id: fight.id, pcIds: [pc.id], npcs: [] });
    const reply = await ok('encounters:addFromCampaign', add({ count: 2, names: ['Goblin Boss', 'Goblin Runt'], pool: [null, 6] }));
    const [boss, runt] = reply.view.order.filter((c) => c.name !== 'Wren');
    expect([boss!.name, boss!.health]).toMatchObject(['Goblin Boss', { label: 'Health', current: 12, max: 12 }]);
    expect([runt!.name, runt!.health]).toMatchObject(['Goblin Runt', { label: 'Health', current: 6, max: 6 }]);
    // The fight runs on the copies' own sheets: after the start, the runt still has 6 of 6.
    const started = await ok('encounters:append', { id: fight.id, event: { type: 'START' } });
    expect(started.view.order.find((c) => c.name === 'Goblin Runt')!.health).toMatchObject({ current: 6, max: 6 });
  });

  it('Enigma (a die): a pool that is no die size is refused with a sentence', async () => {
    const { add, roster } = await fightWith('enigma', {});
    expect(await t.refused('encounters:addFromCampaign', add({ count: 2, pool: [null, 7] }))).toBe('Goblin 2: 7 is not a possible LP (Endure die): one of 4, 6, 8, 10 or 12.');
    await ok('encounters:addFromCampaign', add({ count: 2, pool: [null, 10] }));
    expect(await roster()).toEqual([['Goblin 1', 8, 8], ['Goblin 2', 10, 10]]);
  });

  it('refuses impossible names and pools with a sentence, and adds nothing', async () => {
    const { fight, add, roster } = await fightWith('cairn-errant', { hpMax: 5, hp: 5 });
    await ok('encounters:addFromCampaign', add({ count: 1, names: ['Snaga'] }));
    const before = (await ok('encounters:get', { id: fight.id })).encounter.eventCount;
    const refused = (entry: Record<string, unknown>) => t.refused('encounters:addFromCampaign', add(entry));
    expect(await refused({ count: 3, pool: [null, 30, null] })).toBe('Goblin 2: 30 is not a possible HP: from 0 to 20.');
    expect(await refused({ count: 2, pool: -1 })).toBe('Goblin 1: -1 is not a possible HP: from 0 to 20.');
    expect(await refused({ count: 2, names: ['Grub', 'Grub'] })).toBe('Two copies are named Grub: choose another name.');
    expect(await refused({ count: 2, names: ['Snaga', ''] })).toBe('Snaga is already in this encounter: choose another name.');
    expect(await refused({ count: 3, names: ['A', 'B'] })).toBe('Goblin: 2 names for 3 copies; give one for each (a blank one keeps its number).');
    expect(await refused({ count: 2, pool: [4] })).toBe('Goblin: 1 pool for 2 copies; give one for each.');
    expect(await refused({ count: 1, pool: 2.5 })).toBe('A pool is a whole number, or one whole number per copy.');
    expect(await refused({ count: 1, names: ['x'.repeat(81)] })).toBe('A name is at most 80 characters.');
    expect((await ok('encounters:get', { id: fight.id })).encounter.eventCount).toBe(before);
    expect(await roster()).toEqual([['Snaga', 5, 5]]);
  });
});
