// Issue 28, point 10: the timeline lists a session's events in the order they happened. A fight prepared on day 1
// and fought on day 2, after a day passed, is listed where it was fought, on day 2, with what it left after it.
// Through the handler table on a real temporary SQLite file.
import { expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

it('lists a fight where it was fought, not where it was prepared, with the day it was fought on', async () => {
  const c = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
  const berrik = await ok('characters:create', { campaignId: c.id, role: 'pc', name: 'Berrik', sheet: { endure: 10 } });
  const goblin = await ok('characters:create', { campaignId: c.id, role: 'npc', name: 'Goblin', sheet: {} });
  await ok('ledger:append', { campaignId: c.id, event: { type: 'SESSION_START' } });
  const encounter = await ok('encounters:create', { campaignId: c.id, name: 'Bridge' });
  await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  await ok('ledger:append', { campaignId: c.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
  const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  const id = started.view.order.find((x) => x.name === 'Berrik')!.id;
  await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: id, amount: 20, source: 'trap' } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', id, choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 1 } } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 6 }], carryReason: 'a draught' });
  await ok('ledger:append', { campaignId: c.id, event: { type: 'ADVANCE_DAYS', days: 1 } });

  const timeline = await ok('campaigns:timeline', { id: c.id });
  expect(timeline.groups[0]!.items.map((i) => [i.kind, i.day, i.text])).toEqual([
    ['clock', 1, expect.stringMatching(/^Session 1 starts .* on day 1\.$/)],
    ['clock', 1, 'A day passes: day 1 → day 2.'],
    ['encounter', 2, 'Encounter “Bridge” (ended after round 1).'],
    ['gained', 2, 'Berrik gained Sprained Ankle in “Bridge”.'],
    ['override', 2, "GM override: Berrik's LP is carried as 6 instead of 5 (a draught)."],
    ['carried', 2, "Berrik's condition after “Bridge” carried onto the campaign."],
    ['clock', 2, 'A day passes: day 2 → day 3.'],
  ]);
});
