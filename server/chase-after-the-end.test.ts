// A Factions chase after the fight is an event of the encounter written after its end ("Chases over long distances
// can be resolved with the fleeing character making a group AGI save"). It carries nothing onto the campaign, so the
// fight's end keeps its place in the campaign's history: at the event that ended it, not at the encounter's newest.
// Through the real handlers on a real SQLite file.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused } = t;

/** Theobald and a bandit; the fight ends with the bandit standing; the GM then sets Theobald's health in the ledger. */
async function endedThenLedger() {
  const campaign = await ok('campaigns:create', { name: 'Murdham road', rulesetId: 'factions' });
  const hero = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Theobald', sheet: {} });
  const bandit = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Bandit', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Crossroads' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [hero.id], npcs: [{ templateId: bandit.id, count: 1 }] });
  const ids = Object.fromEntries(added.view.order.map((c) => [c.name.replace(/ 1$/, ''), c.id])) as Record<string, string>;
  const send = (event: Record<string, unknown>) => ok('encounters:append', { id: encounter.id, event });
  await send({ type: 'SET_INITIATIVE', faction: 'party' });
  await send({ type: 'START' });
  await send({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
  await send({ type: 'SELECT_CHARACTER', combatantId: ids['Theobald'] });
  await send({ type: 'APPLY_DAMAGE', targetId: ids['Theobald'], amount: 2, source: 'a club', byId: ids['Bandit'] });
  expect((await send({ type: 'END_COMBAT', outcome: 'the bandit runs' })).view.phase).toBe('ended');
  await ok('ledger:append', { campaignId: campaign.id, event: { type: 'SET_HEALTH', characterId: hero.id, health: 9 } });
  return { campaign, hero, encounter, ids, send };
}

describe('a chase after the fight keeps the fight\'s end where it was written', () => {
  it('the ledger entry written between the end and the chase can still be undone', async () => {
    const { campaign, hero, ids, send } = await endedThenLedger();
    await send({ type: 'CHASE', fleeingIds: [ids['Bandit']], edge: 'none', roll: { faces: [4], source: 'manual' } });
    const health = async () => (await ok('campaigns:get', { id: campaign.id })).characters.find((c) => c.id === hero.id)!.condition['health'];
    expect(await health()).toBe(9);
    await ok('ledger:undo', { campaignId: campaign.id });
    expect(await health()).toBe(8);
  });

  it('the character\'s history puts the carry-over before the ledger entry, as they happened', async () => {
    const { hero, ids, send } = await endedThenLedger();
    await send({ type: 'CHASE', fleeingIds: [ids['Bandit']], edge: 'none', roll: { faces: [4], source: 'manual' } });
    const kinds = (await ok('characters:history', { id: hero.id })).items.map((item) => item.kind).filter((kind) => kind === 'carried' || kind === 'recovery');
    expect(kinds).toEqual(['carried', 'recovery']);
  });

  it('the chase itself is undone freely (it wrote nothing onto the campaign); the end, with a ledger entry after it, is not', async () => {
    const { encounter, ids, send } = await endedThenLedger();
    await send({ type: 'CHASE', fleeingIds: [ids['Bandit']], edge: 'none', roll: { faces: [4], source: 'manual' } });
    expect((await ok('encounters:undo', { id: encounter.id })).view.phase).toBe('ended');
    expect(await refused('encounters:undo', { id: encounter.id })).toMatch(/the campaign has moved on since \(“Theobald's health is set/);
  });

  it('an exported campaign imports with the end in its place', async () => {
    const { campaign, ids, send } = await endedThenLedger();
    await send({ type: 'CHASE', fleeingIds: [ids['Bandit']], edge: 'none', roll: { faces: [4], source: 'manual' } });
    const imported = await ok('imports:campaign', { content: (await ok('exports:campaign', { id: campaign.id })).content });
    expect(await ok('ledger:undo', { campaignId: imported.id })).toBeDefined();
  });
});
