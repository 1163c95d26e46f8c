// Writes from a stale screen: each runner write carries the event count and version its screen showed, and a write
// the encounter has moved past (another tab wrote, or a second press) is refused and changes nothing. Through the
// handler table, on a real temporary SQLite file.
import { describe, expect, it } from 'vitest';
import { STALE_SCREEN, type EncounterDetail } from '../../core/api/contract.ts';
import { useTestApp } from '../testing/harness.ts';

const t = useTestApp();
const { ok, rows } = t;

async function fight() {
  const campaign = await ok('campaigns:create', { name: 'Bridge', rulesetId: 'enigma' });
  const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'At the ford' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  const prepared = await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  return { campaign, berrik, goblin, encounter, prepared };
}

const eventCount = () => Number(rows('SELECT count(*) AS n FROM encounter_events')[0]!['n']);
const since = (d: EncounterDetail) => ({ eventCount: d.encounter.eventCount, version: d.encounter.updatedAt });
const activeName = (d: EncounterDetail) => d.view.order.find((c) => c.id === d.view.activeId)?.name;

describe('a write from a screen the encounter has moved past', () => {
  it('two tabs on the same turn both press N: the turn advances once, the second is refused with a sentence', async () => {
    const { encounter, prepared } = await fight();
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' }, since: since(prepared) });
    // Both tabs show the same screen.
    const tabA = started;
    const tabB = started;
    const first = await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' }, ask: true, since: since(tabA) });
    expect(first.encounter.eventCount).toBe(started.encounter.eventCount + 1);
    expect(await t.refused('encounters:append', { id: encounter.id, event: { type: 'END_TURN' }, ask: true, since: since(tabB) })).toBe(STALE_SCREEN);
    expect(eventCount()).toBe(started.encounter.eventCount + 1);
    // The next combatant's turn was not skipped.
    expect(activeName(await ok('encounters:get', { id: encounter.id }))).toBe(activeName(first));
  });

  it('an undo from a stale tab is refused and the other tab\'s event is kept', async () => {
    const { encounter, prepared } = await fight();
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' }, since: since(prepared) });
    const tabB = started;
    const goblin = started.view.order.find((c) => c.name === 'Goblin 2')!;
    const damaged = await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 2, source: 'a rock' }, since: since(started) });
    expect(await t.refused('encounters:undo', { id: encounter.id, since: since(tabB) })).toBe(STALE_SCREEN);
    // The page knows this refusal by its kind, not by its words.
    expect(await t.app.dispatch('encounters:undo', { id: encounter.id, since: since(tabB) })).toEqual({ error: { message: STALE_SCREEN, kind: 'stale' } });
    expect(eventCount()).toBe(damaged.encounter.eventCount);
    const now = await ok('encounters:get', { id: encounter.id });
    expect(now.view.order.find((c) => c.id === goblin.id)!.health).toEqual(damaged.view.order.find((c) => c.id === goblin.id)!.health);
    expect(now.canRedo).toBe(false);
    // The tab that made it may undo it.
    expect((await ok('encounters:undo', { id: encounter.id, since: since(damaged) })).encounter.eventCount).toBe(started.encounter.eventCount);
  });

  it('a redo from a stale tab is refused: the other tab\'s undo is not put back behind its back', async () => {
    const { encounter, prepared } = await fight();
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' }, since: since(prepared) });
    const turned = await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' }, since: since(started) });
    const undone = await ok('encounters:undo', { id: encounter.id, since: since(turned) });
    expect(await t.refused('encounters:redo', { id: encounter.id, since: since(turned) })).toBe(STALE_SCREEN);
    expect(eventCount()).toBe(undone.encounter.eventCount);
  });

  it('a count that matches after an undo and a new event is still stale: the version tells them apart', async () => {
    const { encounter, prepared } = await fight();
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' }, since: since(prepared) });
    const tabB = await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' }, since: since(started) });
    const undone = await ok('encounters:undo', { id: encounter.id, since: since(tabB) });
    const goblin = started.view.order.find((c) => c.name === 'Goblin 1')!;
    const other = await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 1, source: 'a rock' }, since: since(undone) });
    expect(other.encounter.eventCount).toBe(tabB.encounter.eventCount);
    expect(await t.refused('encounters:undo', { id: encounter.id, since: since(tabB) })).toBe(STALE_SCREEN);
    expect(eventCount()).toBe(other.encounter.eventCount);
  });

  it('a double press of Start combat starts the fight once, and the second is the calm refusal, not a rules error', async () => {
    const { encounter, prepared } = await fight();
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' }, since: since(prepared) });
    expect(started.view.phase).toBe('running');
    expect(await t.refused('encounters:append', { id: encounter.id, event: { type: 'START' }, since: since(prepared) })).toBe(STALE_SCREEN);
    expect(eventCount()).toBe(started.encounter.eventCount);
  });

  it('a double press of Add in prep adds the copies once', async () => {
    const { encounter, goblin, prepared } = await fight();
    const added = await ok('encounters:addFromCampaign', { id: encounter.id, since: since(prepared), pcIds: [], npcs: [{ templateId: goblin.id, count: 1 }] });
    expect(await t.refused('encounters:addFromCampaign', { id: encounter.id, since: since(prepared), pcIds: [], npcs: [{ templateId: goblin.id, count: 1 }] })).toBe(STALE_SCREEN);
    const now = await ok('encounters:get', { id: encounter.id });
    expect(now.view.order.map((c) => c.name)).toEqual(added.view.order.map((c) => c.name));
    expect(now.view.order.filter((c) => c.name.startsWith('Goblin'))).toHaveLength(3);
  });

  it('a write without since (a script) applies to the encounter as it stands', async () => {
    const { encounter, prepared } = await fight();
    await ok('encounters:append', { id: encounter.id, event: { type: 'START' }, since: since(prepared) });
    const before = eventCount();
    await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } });
    await ok('encounters:undo', { id: encounter.id });
    await ok('encounters:redo', { id: encounter.id });
    expect(eventCount()).toBe(before + 1);
  });
});
