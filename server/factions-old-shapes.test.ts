// A Factions fight stored before rules version 2 (a bare `id` for a combatant, a faction or a decision, a reaction
// packed in a string, `witRoll`) still opens on a real SQLite file: its stored payloads are rewritten into the old
// shapes behind the app's back, and the fight reads back to the same view, summary and undo as before.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';
import { expectSameAfterRestart, storeAsWritten } from './testing/stored-events.ts';

const t = useTestApp();
const { ok } = t;

/** Today's payload in its rules-version-1 shape. */
function oldShape(event: Record<string, unknown>): Record<string, unknown> {
  const { combatantId, faction, reaction, behindId, attackRoll, ...rest } = event;
  switch (event['type']) {
    case 'SET_INITIATIVE':
    case 'CHOOSE_FIRST_FACTION':
      return { ...rest, id: faction };
    case 'SELECT_CHARACTER':
    case 'SET_ZONE':
      return { ...rest, id: combatantId };
    case 'REACT':
      return { ...rest, id: behindId ? `${String(reaction)}:${String(behindId)}` : reaction };
    case 'ATTACK':
      return { ...event, attackRoll: undefined, witRoll: attackRoll };
    case 'RESOLVE_ATTACK':
      return { ...event, id: 'roll' };
    default:
      return event;
  }
}

describe('a Factions fight stored in the old shapes', () => {
  it('opens, summarizes and undoes as it did', async () => {
    const campaign = await ok('campaigns:create', { name: 'Murdham road', rulesetId: 'factions' });
    const hero = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Theobald', sheet: {} });
    const ally = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ysolde', sheet: {} });
    const bandit = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Bandit', sheet: {} });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Crossroads' });
    const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [hero.id, ally.id], npcs: [{ templateId: bandit.id, count: 1 }] });
    const ids = Object.fromEntries(added.view.order.map((c) => [c.name.replace(/ 1$/, ''), c.id])) as Record<string, string>;
    const send = (event: Record<string, unknown>) => ok('encounters:append', { id: encounter.id, event });
    await send({ type: 'SET_ZONE', combatantId: ids['Theobald']!, zone: 'yard' });
    await send({ type: 'SET_INITIATIVE', faction: 'gm' });
    await send({ type: 'START' });
    await send({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
    await send({ type: 'SELECT_CHARACTER', combatantId: ids['Bandit']! });
    await send({ type: 'ATTACK', attackerId: ids['Bandit']!, targetIds: [ids['Theobald']!], kind: 'ranged', range: 'beyondHalf', attackRoll: { faces: [2], source: 'manual' } });
    await send({ type: 'REACT', reaction: 'hideBehind', behindId: ids['Ysolde']! });
    await send({ type: 'REACT', reaction: 'none' });
    await send({ type: 'RESOLVE_ATTACK', damageRoll: { faces: [3], source: 'manual' } });
    const before = await ok('encounters:get', { id: encounter.id });
    const summary = await ok('encounters:summary', { id: encounter.id });

    const stored = storeAsWritten(t.dir.file(), encounter.id, oldShape);
    expect(stored.find((e) => e['type'] === 'REACT')).toEqual({ type: 'REACT', id: `hideBehind:${ids['Ysolde']!}` });
    expect(stored.find((e) => e['type'] === 'ATTACK')).toHaveProperty('witRoll');

    await expectSameAfterRestart(t, encounter.id, before, summary);
  });
});
