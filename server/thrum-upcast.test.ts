// Thrum's rules version 2 renamed every bare `id` in its events (core/rulesets/thrum/upcast.ts). A fight stored by
// version 1, with every payload in its old shape and no snapshot to resume from, replays to the same view. Real
// SQLite file.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';
import { expectSameAfterRestart, storeAsWritten } from './testing/stored-events.ts';

const t = useTestApp();
const { ok } = t;

const typed = (...faces: number[]) => ({ faces, source: 'manual' as const });

/** Ana against an orc: initiative, Round Zero, an attack the orc defends with Resilience, the contest rolled. */
async function fight(): Promise<string> {
  const campaign = await ok('campaigns:create', { name: 'Old shapes', rulesetId: 'thrum' });
  const ana = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ana', sheet: {} });
  const orc = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Orc', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Ford' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ana.id], npcs: [{ templateId: orc.id, count: 1 }] });
  const anaId = added.view.order.find((c) => c.side === 'party')!.id;
  const orcId = added.view.order.find((c) => c.side === 'foes')!.id;
  const send = (event: Record<string, unknown>) => ok('encounters:append', { id: encounter.id, event });
  await send({ type: 'START' });
  await send({ type: 'ROLL_INITIATIVE', combatantId: anaId, roll: typed(6, 5) });
  await send({ type: 'ROLL_INITIATIVE', combatantId: orcId, roll: typed(2, 1) });
  await send({ type: 'END_TURN' });
  await send({ type: 'END_TURN' });
  await send({ type: 'ATTACK', attackerId: anaId, ability: 'Strike', attackType: 'physical', targets: [{ targetId: orcId }], fatigue: 2, stress: 0 });
  await send({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
  await send({ type: 'DEFENSE_RESULT', outcome: 'roll' });
  await send({ type: 'END_TURN' });
  await send({ type: 'APPLY_STATUS', targetId: orcId, status: 'Slowed', stacks: 1, source: 'mud' });
  await send({ type: 'FORCED_MOVE', combatantId: orcId, squares: 1, source: 'a shove' });
  return encounter.id;
}

/** Version 1's field for each renamed one. */
const OLD_NAME: Record<string, string> = { combatantId: 'id', defence: 'id', outcome: 'id' };

/** Rewrites every stored payload into version 1's shape and drops the snapshots, as a database written then holds it. */
function storeVersionOne(id: string): Record<string, unknown>[] {
  return storeAsWritten(t.dir.file(), id, (event) => Object.fromEntries(Object.entries(event).map(([key, value]) => [event['type'] !== 'REMOVE_COMBATANT' && OLD_NAME[key] ? OLD_NAME[key] : key, value])));
}

describe('Thrum rules version 2', () => {
  it('replays a fight stored in version 1\'s shapes to the same view', async () => {
    const id = await fight();
    const before = await ok('encounters:get', { id });
    const summary = await ok('encounters:summary', { id });
    const stored = storeVersionOne(id);
    expect(stored.filter((e) => 'id' in e).map((e) => e['type'])).toEqual(['ROLL_INITIATIVE', 'ROLL_INITIATIVE', 'DEFENSE_CHOICE', 'DEFENSE_RESULT', 'FORCED_MOVE']);
    expect(stored.some((e) => 'combatantId' in e || 'defence' in e || 'outcome' in e)).toBe(false);

    await expectSameAfterRestart(t, id, before, summary);
  });
});
