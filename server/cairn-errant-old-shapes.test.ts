// A Cairn-Errant fight stored before its events named their fields (a bare `id` for the combatant, the target or the
// decision; a defence packed in a string, 'fightBack:<attacker>') still opens on a real SQLite file: its stored
// payloads are rewritten into the old shapes behind the app's back, its snapshots dropped so every event is read
// again, and the fight reads back to the same view, summary and undo as before.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';
import { expectSameAfterRestart, storeAsWritten } from './testing/stored-events.ts';

const t = useTestApp();
const { ok } = t;

/** Today's payload in its old shape. */
function oldShape(event: Record<string, unknown>): Record<string, unknown> {
  const { combatantId, targetId, defence, attackerId, result, ...rest } = event;
  switch (event['type']) {
    case 'STRIKE': return { ...rest, id: targetId };
    case 'DEFENSE': return { ...rest, id: attackerId ? `${String(defence)}:${String(attackerId)}` : defence };
    case 'NPC_CRITICAL': return { ...rest, id: result };
    default: return combatantId === undefined ? event : { ...rest, id: combatantId, ...(targetId === undefined ? {} : { targetId }) };
  }
}

const manual = (face: number) => ({ faces: [face], source: 'manual' });

describe('a Cairn-Errant fight stored in the old shapes', () => {
  it('opens, summarizes and undoes as it did', async () => {
    const campaign = await ok('campaigns:create', { name: 'Blackwood', rulesetId: 'cairn-errant' });
    const wren = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: { hpMax: 5, hp: 5, dexMax: 14, dex: 14, weaponDie: 8, armor: 1 } });
    const hollis = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Hollis', sheet: { hpMax: 4, hp: 4, dexMax: 11, dex: 11, weaponDie: 6, shield: true, armor: 1 } });
    const ghoul = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Ghoul', sheet: { hpMax: 4, hp: 4, strMax: 11, str: 11, weaponDie: 6 } });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'The barrow' });
    const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [wren.id, hollis.id], npcs: [{ templateId: ghoul.id, count: 1 }] });
    const ids = Object.fromEntries(added.view.order.map((c) => [c.name.replace(/ 1$/, ''), c.id])) as Record<string, string>;
    const send = (event: Record<string, unknown>) => ok('encounters:append', { id: encounter.id, event });
    await send({ type: 'START' });
    await send({ type: 'SET_BAND', combatantId: ids['Ghoul']!, band: 'close' });
    await send({ type: 'GAIN_WOUND', combatantId: ids['Hollis']!, woundType: 'burns', severity: 'light', source: 'a brazier trap' });
    await send({ type: 'DECLARE_INTENT', combatantId: ids['Wren']!, action: 'melee', targetId: ids['Ghoul']! });
    await send({ type: 'DECLARE_INTENT', combatantId: ids['Hollis']!, action: 'melee', targetId: ids['Ghoul']! });
    await send({ type: 'SET_NPC_INTENT', combatantId: ids['Ghoul']!, action: 'melee', targetId: ids['Hollis']! });
    await send({ type: 'LOCK_INTENTS' });
    await send({ type: 'DEX_SAVE', combatantId: ids['Wren']!, roll: manual(6) });
    await send({ type: 'DEX_SAVE', combatantId: ids['Hollis']!, roll: manual(15) });
    await send({ type: 'STRIKE', targetId: ids['Ghoul']!, roll: manual(3) });
    await send({ type: 'DEFENSE', defence: 'block' });
    await send({ type: 'STRIKE', targetId: ids['Hollis']!, roll: manual(4) });
    const before = await ok('encounters:get', { id: encounter.id });
    const summary = await ok('encounters:summary', { id: encounter.id });

    const stored = storeAsWritten(t.dir.file(), encounter.id, oldShape);
    expect(stored.find((e) => e['type'] === 'DEFENSE')).toEqual({ type: 'DEFENSE', id: 'block' });
    expect(stored.find((e) => e['type'] === 'DEX_SAVE')).toMatchObject({ id: ids['Wren']! });
    expect(stored.filter((e) => 'id' in e)).toHaveLength(10);

    await expectSameAfterRestart(t, encounter.id, before, summary);
  });
});
