// "Add the whole party" on the encounter prep screen: the living join, the dead are skipped and named. Through the
// real handlers on a temporary SQLite file.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../testing/harness.ts';

const t = useTestApp();
const { ok } = t;

/** An Enigma campaign of Ash, Berrik and Cato where Berrik died (a Sacrifice) in a first fight. */
async function partyWithTheDead() {
  const campaign = await ok('campaigns:create', { name: 'Bridge', rulesetId: 'enigma' });
  const pc = (name: string) => ok('characters:create', { campaignId: campaign.id, role: 'pc', name, sheet: {} });
  const ash = await pc('Ash');
  const berrik = await pc('Berrik');
  const cato = await pc('Cato');
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const first = await ok('encounters:create', { campaignId: campaign.id, name: 'At the ford' });
  await ok('encounters:addFromCampaign', { id: first.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  const started = await ok('encounters:append', { id: first.id, event: { type: 'START' } });
  const berrikId = started.view.order.find((c) => c.name === 'Berrik')!.id;
  await ok('encounters:append', { id: first.id, event: { type: 'APPLY_DAMAGE', targetId: berrikId, amount: 20, source: 'trap' } });
  await ok('encounters:append', { id: first.id, event: { type: 'RESOLVE_PERIL', combatantId: berrikId, choice: 'sacrifice', costText: 'holds the gate' } });
  await ok('encounters:append', { id: first.id, event: { type: 'END_COMBAT', outcome: 'Pyrrhic' } });
  return { campaign, ash, berrik, cato, goblin };
}

describe('encounters:addFromCampaign with wholeParty', () => {
  it('adds the living party members and names the dead it skipped', async () => {
    const { campaign } = await partyWithTheDead();
    const later = await ok('encounters:create', { campaignId: campaign.id, name: 'Later' });
    const reply = await ok('encounters:addFromCampaign', { id: later.id, pcIds: [], wholeParty: true, npcs: [] });
    expect(reply.view.order.map((c) => c.name)).toEqual(['Ash', 'Cato']);
    expect(reply.skipped).toEqual([{ name: 'Berrik', reason: 'dead' }]);
  });

  it('leaves out those already in the fight, and says so when nobody is left to add', async () => {
    const { campaign, ash } = await partyWithTheDead();
    const later = await ok('encounters:create', { campaignId: campaign.id, name: 'Later' });
    await ok('encounters:addFromCampaign', { id: later.id, pcIds: [ash.id], npcs: [] });
    const reply = await ok('encounters:addFromCampaign', { id: later.id, pcIds: [], wholeParty: true, npcs: [] });
    expect(reply.view.order.map((c) => c.name)).toEqual(['Ash', 'Cato']);
    expect(await t.refused('encounters:addFromCampaign', { id: later.id, pcIds: [], wholeParty: true, npcs: [] })).toBe('Nobody to add: Berrik is dead.');
  });

  it('without wholeParty, a dead party member asked for by name is still refused', async () => {
    const { campaign, berrik } = await partyWithTheDead();
    const later = await ok('encounters:create', { campaignId: campaign.id, name: 'Later' });
    expect(await t.refused('encounters:addFromCampaign', { id: later.id, pcIds: [berrik.id], npcs: [] })).toBe('Berrik is dead and cannot join a fight.');
    expect((await ok('encounters:get', { id: later.id })).skipped).toBeUndefined();
  });
});

describe('the names of NPC copies', () => {
  async function prep() {
    const campaign = await ok('campaigns:create', { name: 'Hill', rulesetId: 'enigma' });
    const ogre = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Ogre Chief', sheet: {} });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'The hall' });
    const add = async (count: number) =>
      (await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [], npcs: [{ templateId: ogre.id, count }] })).view.order.map((c) => c.name);
    return { add };
  }

  it('keeps a single copy unnumbered, and a second added later is number 2', async () => {
    const { add } = await prep();
    expect(await add(1)).toEqual(['Ogre Chief']);
    expect(await add(1)).toEqual(['Ogre Chief', 'Ogre Chief 2']);
    expect(await add(2)).toEqual(['Ogre Chief', 'Ogre Chief 2', 'Ogre Chief 3', 'Ogre Chief 4']);
  });

  it('numbers copies added together, and continues the numbering for later ones', async () => {
    const { add } = await prep();
    expect(await add(2)).toEqual(['Ogre Chief 1', 'Ogre Chief 2']);
    expect(await add(1)).toEqual(['Ogre Chief 1', 'Ogre Chief 2', 'Ogre Chief 3']);
  });
});

describe('an NPC typed in place, without a template', () => {
  const pools: [string, number, string, number][] = [
    // ruleset, pool typed, the runner's pool label, its maximum there
    ['enigma', 10, 'LP', 10],
    ['cairn-errant', 6, 'HP', 6],
    ['teams', 20, 'Health', 20],
    ['factions', 7, 'Health', 7],
    ['thrum', 8, 'Fatigue', 8],
  ];
  it.each(pools)('%s: joins with its name, side and main pool, and belongs to no character', async (rulesetId, pool, label, max) => {
    const campaign = await ok('campaigns:create', { name: 'Road', rulesetId });
    const fight = await ok('encounters:create', { campaignId: campaign.id, name: 'Ambush' });
    const gmSide = (await ok('encounters:get', { id: fight.id })).view.setup!.sides[1]!.key;
    const reply = await ok('encounters:addFromCampaign', { id: fight.id, pcIds: [], npcs: [], typed: [{ name: '  Bandit Captain ', side: gmSide, pool }] });
    const captain = reply.view.order.find((c) => c.name === 'Bandit Captain')!;
    expect(captain.side).toBe(gmSide);
    expect(captain.health).toMatchObject({ label, max });
  });

  it('is refused with a sentence for an empty name, a taken name or an impossible pool, and nothing is added', async () => {
    const campaign = await ok('campaigns:create', { name: 'Road', rulesetId: 'enigma' });
    const fight = await ok('encounters:create', { campaignId: campaign.id, name: 'Ambush' });
    const add = (name: string, pool: number) => t.refused('encounters:addFromCampaign', { id: fight.id, pcIds: [], npcs: [], typed: [{ name, side: 'gm', pool }] });
    expect(await add('  ', 8)).toBe('Give the NPC a name.');
    expect(await add('Bandit', 7)).toBe('Bandit: 7 is not a possible LP (Endure die): one of 4, 6, 8, 10 or 12.');
    expect(await add('Bandit', 0)).toBe('Bandit: 0 is not a possible LP (Endure die): one of 4, 6, 8, 10 or 12.');
    await ok('encounters:addFromCampaign', { id: fight.id, pcIds: [], npcs: [], typed: [{ name: 'Bandit', side: 'gm', pool: 8 }] });
    expect(await add('Bandit', 8)).toBe('Bandit is already in this encounter: choose another name.');
    expect((await ok('encounters:get', { id: fight.id })).view.order.map((c) => c.name)).toEqual(['Bandit']);
  });
});
