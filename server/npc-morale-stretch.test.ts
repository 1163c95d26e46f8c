// Factions (R-F8) through the real handlers on a real SQLite file: "those who pass aren't subject to morale for the
// remainder of the stretch", NPCs too. A fight's end keeps, in the campaign's party values, the NPC templates whose
// NPCs ended immune; the next fight's NPCs of that template start immune; END_STRETCH clears it; undoing either
// the fight's end or the END_STRETCH puts back what was there.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused } = t;

const IMMUNE = 'morale immune (stretch)';

async function campaignWithBandits() {
  const campaign = await ok('campaigns:create', { name: 'Murdham road', rulesetId: 'factions' });
  const hero = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Theobald', sheet: { wit: 15 } });
  const bandit = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Bandit', sheet: { wit: 10 } });
  const key = bandit.id;
  const party = async () => (await ok('campaigns:get', { id: campaign.id })).party as Record<string, unknown>;
  /** A new fight in the campaign with Theobald and two bandits; the bandits' rows as the runner shows them. */
  const newFight = async (name: string) => {
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name });
    const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [hero.id], npcs: [{ templateId: bandit.id, count: 2 }] });
    const bandits = added.view.order.filter((c) => c.name.startsWith('Bandit'));
    return { encounter, bandits, ids: Object.fromEntries(added.view.order.map((c) => [c.name, c.id])) as Record<string, string> };
  };
  return { campaign, hero, bandit, key, party, newFight };
}

/** Theobald kills one bandit; the round ends; the other passes its morale check (d20 = 2 against WIT 10); the GM ends the fight. */
async function banditPassesAndFightEnds(newFight: Awaited<ReturnType<typeof campaignWithBandits>>['newFight'], templateId: string) {
  const { encounter, ids } = await newFight('Crossroads');
  const send = (event: Record<string, unknown>) => ok('encounters:append', { id: encounter.id, event });
  await send({ type: 'SET_INITIATIVE', faction: 'party' });
  await send({ type: 'START' });
  await send({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
  await send({ type: 'SELECT_CHARACTER', combatantId: ids['Theobald'] });
  await send({ type: 'APPLY_DAMAGE', targetId: ids['Bandit 2'], amount: 10, source: 'a spear', byId: ids['Theobald'] });
  let view = (await send({ type: 'END_TURN' })).view;
  while (view.prompt?.answer !== 'MORALE_ROLL') view = (await send({ type: 'PASS' })).view;
  view = (await send({ type: 'MORALE_ROLL', roll: { faces: [2], source: 'manual' } })).view;
  expect(view.order.find((c) => c.name === 'Bandit 1')!.tags).toContain(IMMUNE);
  // The runner's carry check names what the end keeps for the template, before anything is written.
  const asked = await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'the bandit yields the road' }, ask: true });
  expect(asked.carryCheck?.carry.party).toEqual([{ key: `${templateId}.moraleImmune`, label: 'Bandit: morale immune', before: null, after: 'Bandit 1' }]);
  view = (await send({ type: 'END_COMBAT', outcome: 'the bandit yields the road' })).view;
  expect(view.phase).toBe('ended');
  return encounter;
}

describe('an NPC template keeps its morale immunity for the rest of the stretch (R-F8)', () => {
  it('the fight\'s end writes it, the next fight starts that template\'s NPCs immune, and undoing the end takes it back', async () => {
    const { key, party, newFight } = await campaignWithBandits();
    expect((await newFight('Before')).bandits.map((b) => b.tags.includes(IMMUNE))).toEqual([false, false]);

    const first = await banditPassesAndFightEnds(newFight, key);
    expect((await party())[key]).toEqual({ moraleImmune: 'Bandit 1' });
    const next = await newFight('Ford');
    expect(next.bandits.map((b) => b.tags.includes(IMMUNE))).toEqual([true, true]);

    // Undoing the end of the fight (nothing was written onto the campaign since) takes the immunity back.
    await ok('encounters:undo', { id: first.id });
    expect((await party())[key]).toBeUndefined();
    expect((await newFight('Mill')).bandits.map((b) => b.tags.includes(IMMUNE))).toEqual([false, false]);
    await ok('encounters:redo', { id: first.id, confirm: true });
    expect((await party())[key]).toEqual({ moraleImmune: 'Bandit 1' });
  });

  it('a campaign export keeps it with the template: the imported copy\'s bandits start immune', async () => {
    const { campaign, newFight } = await campaignWithBandits();
    await banditPassesAndFightEnds(newFight, (await ok('campaigns:get', { id: campaign.id })).characters.find((c) => c.role === 'npc')!.id);
    const imported = await ok('imports:campaign', { content: (await ok('exports:campaign', { id: campaign.id })).content });
    const copy = await ok('campaigns:get', { id: imported.id });
    const template = copy.characters.find((c) => c.role === 'npc')!;
    expect(copy.party).toEqual({ [template.id]: { moraleImmune: 'Bandit 1' } });
    const encounter = await ok('encounters:create', { campaignId: copy.id, name: 'After the import' });
    const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [], npcs: [{ templateId: template.id, count: 1 }] });
    expect(added.view.order[0]!.tags).toContain(IMMUNE);
  });

  it('END_STRETCH clears it (the recovery screen lists it until then); undoing END_STRETCH puts it back', async () => {
    const { campaign, hero, key, party, newFight } = await campaignWithBandits();
    await banditPassesAndFightEnds(newFight, key);
    expect((await ok('ledger:get', { campaignId: campaign.id })).party).toEqual([{ label: 'NPCs immune to morale (stretch)', value: 'Bandit 1' }]);

    const ended = await ok('ledger:append', { campaignId: campaign.id, event: { type: 'PARTY', action: { type: 'END_STRETCH' }, characterIds: [hero.id] } });
    expect(ended.entries[0]!.log).toContain('The stretch ends for the NPCs (R-F8): immunity from the passed morale check lapses for Bandit 1.');
    expect((await party())[key]).toBeUndefined();
    expect(ended.party).toEqual([]);
    expect((await newFight('Next stretch')).bandits.map((b) => b.tags.includes(IMMUNE))).toEqual([false, false]);
    // Nothing left to end: refused with the sentence it always had.
    expect(await refused('ledger:append', { campaignId: campaign.id, event: { type: 'END_STRETCH', characterId: hero.id } })).toBe(
      'Theobald has no morale flag to clear: no morale check was passed or failed this stretch.',
    );

    await ok('ledger:undo', { campaignId: campaign.id });
    expect((await party())[key]).toEqual({ moraleImmune: 'Bandit 1' });
    expect((await newFight('Same stretch')).bandits.map((b) => b.tags.includes(IMMUNE))).toEqual([true, true]);
  });
});
