// The runner's hot path: one round trip per GM action (`ask`), and write replies that carry only the log lines
// the screen lacks (`since`). Against a real temporary SQLite file.
import { describe, expect, it } from 'vitest';
import type { EncounterDetail, LogEntry } from '../../core/api/contract.ts';
import { useTestApp } from '../testing/harness.ts';

const t = useTestApp();
const { ok, rows } = t;

async function fight() {
  const campaign = await ok('campaigns:create', { name: 'Bridge', rulesetId: 'enigma' });
  const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'At the ford' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  const ids = Object.fromEntries(started.view.order.map((c) => [c.name, c.id])) as Record<string, string>;
  return { campaign, berrik, encounter, ids, started };
}

const eventCount = () => Number(rows('SELECT count(*) AS n FROM encounter_events')[0]!['n']);
const since = (d: EncounterDetail) => ({ eventCount: d.encounter.eventCount, version: d.encounter.updatedAt });
/** What the renderer does with a delta: keep its lines up to `logAfter` (and still in the tail), add the new ones. */
const joined = (shown: LogEntry[], reply: EncounterDetail) =>
  reply.logAfter === undefined ? reply.log : [...shown.filter((l) => l.seq <= reply.logAfter! && l.seq > reply.encounter.eventCount - 200), ...reply.log];

describe('encounters:append with ask', () => {
  it('commits an event that does not end the fight, in one call', async () => {
    const { encounter, started } = await fight();
    const reply = await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' }, ask: true });
    expect(reply.carryCheck).toBeUndefined();
    expect(reply.encounter.eventCount).toBe(started.encounter.eventCount + 1);
    expect(eventCount()).toBe(started.encounter.eventCount + 1);
  });

  it('commits nothing when the event would end the fight with a carry-over, and replies with the filled event and the preview', async () => {
    const { encounter, berrik, started } = await fight();
    const before = eventCount();
    const preview = await ok('encounters:carryPreview', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
    const reply = await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, ask: true });
    expect(eventCount()).toBe(before);
    expect(reply.encounter.eventCount).toBe(started.encounter.eventCount);
    expect(reply.view.phase).toBe('running');
    expect(reply.carryCheck).toEqual({ event: preview.event, carry: preview.carry });
    expect(reply.carryCheck!.carry.characters.map((c) => c.characterId)).toEqual([berrik.id]);
    // The GM confirms: the same filled event, sent again without ask, ends the fight.
    const ended = await ok('encounters:append', { id: encounter.id, event: reply.carryCheck!.event });
    expect(ended.view.phase).toBe('ended');
    expect(eventCount()).toBe(before + 1);
  });

  it('rolls the dice once: the event it replies with carries the rolls the app made', async () => {
    const { encounter, ids } = await fight();
    const reply = await ok('encounters:append', {
      id: encounter.id, ask: true,
      event: { type: 'ATTACK', attackerId: ids['Berrik'], targetId: ids['Goblin 1'], mode: 'melee', sight: 'clear', damage: 'full' },
    });
    const stored = JSON.parse(String(rows('SELECT payload_json FROM encounter_events ORDER BY seq DESC LIMIT 1')[0]!['payload_json'])) as Record<string, unknown>;
    expect(stored['type']).toBe('ATTACK');
    expect(Object.keys(stored).some((key) => /roll/i.test(key))).toBe(true);
    expect(reply.carryCheck).toBeUndefined();
  });
});

describe('write replies with since', () => {
  it('send only the new lines, which joined to the shown ones give the same log as a full read', async () => {
    const { encounter, started } = await fight();
    let shown = started;
    let log = started.log;
    for (const event of [{ type: 'END_TURN' }, { type: 'RAISE_ESCALATION', by: 1, source: 'drums' }, { type: 'END_TURN' }]) {
      const reply = await ok('encounters:append', { id: encounter.id, event, since: since(shown) });
      expect(reply.logAfter).toBe(shown.encounter.eventCount);
      expect(reply.log.every((l) => l.seq > shown.encounter.eventCount)).toBe(true);
      expect(reply.log.length).toBeGreaterThan(0);
      log = joined(log, reply);
      shown = reply;
    }
    expect(log).toEqual((await ok('encounters:get', { id: encounter.id })).log);

    const undone = await ok('encounters:undo', { id: encounter.id, since: since(shown) });
    expect(undone.log).toEqual([]);
    log = joined(log, undone);
    expect(log).toEqual((await ok('encounters:get', { id: encounter.id })).log);

    const redone = await ok('encounters:redo', { id: encounter.id, since: since(undone) });
    log = joined(log, redone);
    expect(log).toEqual((await ok('encounters:get', { id: encounter.id })).log);
  });

  it('send only the combatants that changed, which joined to the shown ones give the same view as a full read', async () => {
    const { encounter, started, ids } = await fight();
    let view = started.view;
    const steps: { name: string; run: (d: EncounterDetail) => Promise<EncounterDetail> }[] = [
      { name: 'damage', run: (d) => ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids['Goblin 2'], amount: 2, source: 'a rock' }, since: since(d) }) },
      { name: 'end turn', run: (d) => ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' }, since: since(d) }) },
      { name: 'undo', run: (d) => ok('encounters:undo', { id: encounter.id, since: since(d) }) },
      { name: 'redo', run: (d) => ok('encounters:redo', { id: encounter.id, since: since(d) }) },
    ];
    let shown: EncounterDetail = started;
    for (const step of steps) {
      const reply = await step.run(shown);
      expect(reply.orderIds, step.name).toEqual((await ok('encounters:get', { id: encounter.id })).view.order.map((c) => c.id));
      expect(reply.view.order.length, step.name).toBeLessThan(reply.orderIds!.length);
      const held = new Map(view.order.map((c) => [c.id, c]));
      const sent = new Map(reply.view.order.map((c) => [c.id, c]));
      view = { ...reply.view, order: reply.orderIds!.map((id) => sent.get(id) ?? held.get(id)!) };
      expect(view, step.name).toEqual((await ok('encounters:get', { id: encounter.id })).view);
      shown = reply;
    }
    // The damage changed Goblin 2's row only.
    const damaged = await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids['Goblin 2'], amount: 1, source: 'a rock' }, since: since(shown) });
    expect(damaged.view.order.map((c) => c.name)).toEqual(['Goblin 2']);
    // Without since, the whole order as before.
    expect((await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } })).orderIds).toBeUndefined();
  });

  it('refuse a write from a screen something else wrote past (server/handlers/stale-writes.test.ts), and send a script the whole tail', async () => {
    const { encounter, started } = await fight();
    await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } });
    expect(await t.refused('encounters:append', { id: encounter.id, event: { type: 'END_TURN' }, since: since(started) })).toMatch(/moved on/);
    const reply = await ok('encounters:append', { id: encounter.id, event: { type: 'END_TURN' } });
    expect(reply.logAfter).toBeUndefined();
    expect(reply.log).toEqual((await ok('encounters:get', { id: encounter.id })).log);
  });

  it('refuse a malformed since with a sentence', async () => {
    const { encounter } = await fight();
    expect(await t.refused('encounters:append', { id: encounter.id, event: { type: 'END_TURN' }, since: { eventCount: -1, version: 'x' } })).toBeTruthy();
    expect(await t.refused('encounters:undo', { id: encounter.id, since: { eventCount: 1 } })).toBeTruthy();
  });
});
