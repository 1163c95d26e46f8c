// An "Any system" campaign end to end through the real handlers on a temporary SQLite file: campaign, characters,
// an encounter prepared from the campaign, initiative, turns, damage, the end, the carry-over, the export summary
// and a long rest.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../server/testing/harness.ts';
import { typed } from './testing.ts';

const t = useTestApp();
const { ok } = t;

describe('an Any system campaign through the handlers', () => {
  it('plays a fight from the campaign to the export summary, and rests afterwards', async () => {
    const campaign = await ok('campaigns:create', { name: 'Saltmarsh', rulesetId: 'any-system' });
    const pc = (name: string, sheet: Record<string, unknown>) => ok('characters:create', { campaignId: campaign.id, role: 'pc', name, sheet });
    const ana = await pc('Ana', { hpMax: 20, hp: 20, tempHp: 0, ac: 15, initiativeModifier: 3, notes: '' });
    await pc('Bo', { hpMax: 12, hp: 12, tempHp: 0, ac: 13, initiativeModifier: 0, notes: '' });
    const bandit = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Bandit', sheet: { hpMax: 11, hp: 11, tempHp: 0, ac: 12, initiativeModifier: 1, notes: '' } });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'On the coast road' });
    const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [], wholeParty: true, npcs: [{ templateId: bandit.id, count: 2 }] });
    expect(added.view.order.map((c) => c.name)).toEqual(['Ana', 'Bo', 'Bandit 1', 'Bandit 2']);
    const id = (name: string) => added.view.order.find((c) => c.name === name)!.id;
    const act = (event: Record<string, unknown>) => ok('encounters:append', { id: encounter.id, event });

    await act({ type: 'START' });
    await act({ type: 'ROLL_INITIATIVE', combatantId: id('Ana'), roll: typed(15) });
    await act({ type: 'SET_INITIATIVE', combatantId: id('Bo'), total: 4 });
    // The app rolls the bandits' dice: the reply carries them inside the stored event.
    const rolled = await act({ type: 'ROLL_ALL_INITIATIVE' });
    expect(rolled.view.order.filter((c) => c.stats?.[0]?.value === '—')).toEqual([]);
    const started = await act({ type: 'START_COMBAT' });
    expect(started.view.activeId).toBe(started.view.order[0]!.id);
    await act({ type: 'SET_TEMP_HP', targetId: id('Ana'), amount: 5 });
    await act({ type: 'BATCH', events: [{ type: 'APPLY_DAMAGE', targetId: id('Ana'), amount: 8 }, { type: 'APPLY_DAMAGE', targetId: id('Bandit 1'), amount: 11 }] });
    await act({ type: 'END_TURN' });
    await act({ type: 'INJURY', targetId: id('Ana'), name: 'Twisted ankle', untilLongRest: true });
    const ended = await act({ type: 'END_COMBAT', outcome: 'The bandits flee' });
    expect(ended.view.phase).toBe('ended');
    const anaRow = ended.view.order.find((c) => c.name === 'Ana')!;
    expect(anaRow.health).toEqual({ label: 'HP', current: 17, max: 20 });
    expect(ended.view.order.find((c) => c.name === 'Bandit 1')!.dead).toBe(true);

    const summary = await ok('encounters:summary', { id: encounter.id });
    const round1 = summary.find((r) => r.round === 1)!;
    expect(round1.measure).toBe('damage');
    expect(round1.combatants.find((c) => c.name === 'Ana')).toMatchObject({ taken: 3 });
    expect(round1.combatants.find((c) => c.name === 'Bandit 1')).toMatchObject({ taken: 11, down: true });

    // The fight's HP and injury are on the character; a long rest restores HP and ends the injury.
    const before = await ok('ledger:get', { campaignId: campaign.id });
    const card = before.characters.find((c) => c.id === ana.id)!.card;
    expect(card.stats[0]).toMatchObject({ label: 'HP', value: '17/20' });
    expect(card.records.map((r) => [r.name, r.status])).toEqual([['Twisted ankle', 'until a long rest']]);
    const rested = await ok('ledger:append', { campaignId: campaign.id, event: { type: 'LONG_REST', characterId: ana.id } });
    const after = rested.characters.find((c) => c.id === ana.id)!.card;
    expect(after.stats[0]).toMatchObject({ value: '20/20' });
    expect(after.records).toEqual([]);
    expect(await t.refused('ledger:append', { campaignId: campaign.id, event: { type: 'LONG_REST', characterId: ana.id } }))
      .toBe('Ana has already had a long rest today (day 1): move the campaign clock on first.');
  });

  it('a late arrival joins at the initiative the GM types, or rolls one when none is typed; another ruleset refuses a typed one', async () => {
    const campaign = await ok('campaigns:create', { name: 'Saltmarsh', rulesetId: 'any-system' });
    const npc = (name: string, initiativeModifier: number) => ok('characters:create', { campaignId: campaign.id, role: 'npc', name, sheet: { hpMax: 7, hp: 7, tempHp: 0, ac: 12, initiativeModifier, notes: '' } });
    await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ana', sheet: { hpMax: 20, hp: 20, tempHp: 0, ac: 15, initiativeModifier: 3, notes: '' } });
    const goblin = await npc('Goblin', 2);
    const wolf = await npc('Wolf', 2);
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Ambush' });
    const add = (input: Record<string, unknown>) => ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [], npcs: [], ...input });
    // Before the start an initiative has nowhere to go.
    expect(await t.refused('encounters:addFromCampaign', { id: encounter.id, pcIds: [], wholeParty: true, npcs: [], initiative: 12 }))
      .toBe('An initiative is typed for a late arrival: the fight has not started yet.');
    const added = await add({ wholeParty: true, npcs: [{ templateId: goblin.id, count: 1 }] });
    const id = (name: string) => added.view.order.find((c) => c.name === name)!.id;
    const act = (event: Record<string, unknown>) => ok('encounters:append', { id: encounter.id, event });
    await act({ type: 'START' });
    await act({ type: 'SET_INITIATIVE', combatantId: id('Ana'), total: 15 });
    await act({ type: 'SET_INITIATIVE', combatantId: id('Goblin'), total: 8 });
    await act({ type: 'START_COMBAT' });

    const typed = await add({ npcs: [{ templateId: wolf.id, count: 1 }], initiative: 17 });
    expect(typed.log.at(-1)!.text).toBe('Wolf joins the fight late at initiative 17.');
    expect(typed.view.order.map((c) => c.name)).toEqual(['Wolf', 'Ana', 'Goblin']);
    const rolled = await add({ npcs: [{ templateId: wolf.id, count: 1 }] });
    expect(rolled.log.at(-1)!.text).toMatch(/^Wolf 2 joins the fight late at initiative \d+ \(\d+ \+ 2\)\.$/);
    expect(await t.refused('encounters:addFromCampaign', { id: encounter.id, pcIds: [], npcs: [{ templateId: wolf.id, count: 1 }], initiative: 500 })).toBe('An initiative is at most 99.');

    const vault = await ok('campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
    const fight = await ok('encounters:create', { campaignId: vault.id, name: 'Ford' });
    expect(await t.refused('encounters:addFromCampaign', { id: fight.id, pcIds: [], npcs: [], initiative: 12 })).toBe('Choose at least one party member or NPC template to add.');
    const ghoul = await ok('characters:create', { campaignId: vault.id, role: 'npc', name: 'Ghoul', sheet: {} });
    expect(await t.refused('encounters:addFromCampaign', { id: fight.id, pcIds: [], npcs: [{ templateId: ghoul.id, count: 1 }], initiative: 12 })).toBe('Enigma late arrivals take no typed initiative.');
  });
});
