// The runner's writes from two screens on one fight, and from one screen pressed twice: each EncounterState here
// talks to a real app on a temporary SQLite file (only the transport is replaced: the app's dispatch stands in for
// the socket). Change notices are not delivered, so a second screen stays as it was drawn: a tab whose notice has
// not arrived yet.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOG_TAIL_EVENTS, STALE_SCREEN } from '../../../core/api/replies.ts';
import type { EncounterDetail } from '../../../core/api/contract.ts';
import { tempDir, type TempDir } from '../../../db/testing/temp-db.ts';
import { openApp, type AppService } from '../../../server/app.ts';
import { EncounterState } from './encounter.svelte.ts';
import { toasts } from './toasts.svelte.ts';

const real = vi.hoisted(() => ({ app: undefined as AppService | undefined }));
vi.mock('./api.ts', async () => {
  const { createClient } = await import('../../../core/api/client.ts');
  return { send: createClient((name, input) => real.app!.dispatch(name, input)), onChanged: () => () => {} };
});

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
  real.app = openApp({ databasePath: dir.file(), transport: 'cli', version: 'test' });
  for (const toast of toasts.items) toasts.dismiss(toast.id);
});
afterEach(() => {
  real.app!.close();
  dir.remove();
});

async function ok<T>(name: string, input: unknown): Promise<T> {
  const envelope = await real.app!.dispatch(name, input);
  if ('error' in envelope) throw new Error(envelope.error.message);
  return envelope.result as T;
}

/** A started Enigma fight: Berrik against two goblins. */
async function fight(): Promise<string> {
  const campaign = await ok<{ id: string }>('campaigns:create', { name: 'Bridge', rulesetId: 'enigma' });
  const berrik = await ok<{ id: string }>('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: {} });
  const goblin = await ok<{ id: string }>('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok<{ id: string }>('encounters:create', { campaignId: campaign.id, name: 'At the ford' });
  const added = await ok<EncounterDetail>('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  return encounter.id;
}

async function screenOn(id: string): Promise<EncounterState> {
  const state = new EncounterState(id);
  await vi.waitFor(() => expect(state.detail).toBeDefined());
  return state;
}

const stored = async (id: string) => (await ok<EncounterDetail>('encounters:get', { id })).encounter.eventCount;
const active = (state: EncounterState) => state.detail!.view.order.find((c) => c.id === state.detail!.view.activeId)?.name;
const notices = () => toasts.items.filter((toast) => toast.text === STALE_SCREEN);

describe('writes from a stale screen', () => {
  it('two tabs on the same turn both press N: one turn passes, the stale tab shows the new state with a calm notice', async () => {
    const id = await fight();
    const [tabA, tabB] = [await screenOn(id), await screenOn(id)];
    const before = tabA.detail!.encounter.eventCount;
    expect(active(tabA)).toBe('Berrik');
    await Promise.all([tabA.act({ type: 'END_TURN' }), tabB.act({ type: 'END_TURN' })]);
    expect(await stored(id)).toBe(before + 1);
    expect(active(tabA)).toBe('Goblin 1');
    expect(active(tabB)).toBe('Goblin 1');
    expect(tabB.detail!.encounter.eventCount).toBe(before + 1);
    expect(notices()).toHaveLength(1);
    expect(notices()[0]!.tone).toBe('info');
    tabA.dispose();
    tabB.dispose();
  });

  it('the same press twice on one screen is one write, and says nothing', async () => {
    const id = await fight();
    const tab = await screenOn(id);
    const before = tab.detail!.encounter.eventCount;
    await Promise.all([tab.act({ type: 'END_TURN' }), tab.act({ type: 'END_TURN' })]);
    expect(await stored(id)).toBe(before + 1);
    expect(active(tab)).toBe('Goblin 1');
    expect(toasts.items).toEqual([]);
    tab.dispose();
  });

  it('another press while the first is on its way goes through after it: N, a damage and an undo pressed at once', async () => {
    const id = await fight();
    const tab = await screenOn(id);
    const before = tab.detail!.encounter.eventCount;
    const goblin = tab.detail!.view.order.find((c) => c.name === 'Goblin 2')!;
    const health = goblin.health;
    await Promise.all([tab.act({ type: 'END_TURN' }), tab.act({ type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 2, source: 'a rock' })]);
    expect(await stored(id)).toBe(before + 2);
    expect(active(tab)).toBe('Goblin 1');
    expect(tab.detail!.view.order.find((c) => c.id === goblin.id)!.health).not.toEqual(health);
    expect(toasts.items).toEqual([]);
    // Next turn and an undo at once: the undo takes back that turn, as the GM meant.
    await Promise.all([tab.act({ type: 'END_TURN' }), tab.undo()]);
    expect(await stored(id)).toBe(before + 2);
    expect(active(tab)).toBe('Goblin 1');
    expect(toasts.items).toEqual([]);
    tab.dispose();
  });

  it('a burst from a stale tab is refused whole: its second press does not follow the other tab\'s write', async () => {
    const id = await fight();
    const [tabA, tabB] = [await screenOn(id), await screenOn(id)];
    const before = tabA.detail!.encounter.eventCount;
    const goblin = tabA.detail!.view.order.find((c) => c.name === 'Goblin 2')!;
    await Promise.all([tabA.act({ type: 'END_TURN' }), tabB.act({ type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 2, source: 'a rock' }), tabB.act({ type: 'END_TURN' })]);
    expect(await stored(id)).toBe(before + 1);
    expect(active(tabB)).toBe('Goblin 1');
    expect(tabB.detail!.view.order.find((c) => c.id === goblin.id)!.health).toEqual(goblin.health);
    expect(notices()).toHaveLength(1);
    tabA.dispose();
    tabB.dispose();
  });

  it('a long burst of presses on one screen goes through whole, each after the one before', async () => {
    const id = await fight();
    const tab = await screenOn(id);
    const before = tab.detail!.encounter.eventCount;
    const targets = tab.detail!.view.order.map((c) => c.id);
    const presses = Array.from({ length: 20 }, (_, i) => tab.act({ type: 'APPLY_DAMAGE', targetId: targets[i % targets.length]!, amount: 1, source: `stone ${i + 1}` }));
    await Promise.all(presses);
    expect(await stored(id)).toBe(before + 20);
    expect(toasts.items).toEqual([]);
    tab.dispose();
  });

  it('a press long after the screen\'s own write settled goes with what the screen shows, not along that write', async () => {
    // A clock that stands still (writes within one millisecond): an undo from elsewhere brings back the very screen
    // this tab's own write left from. A step of that write still kept would carry the next press along it, onto a
    // screen the fight no longer shows, and the press would be refused as stale.
    real.app!.close();
    real.app = openApp({ databasePath: dir.file(), transport: 'cli', version: 'test', now: () => '2026-11-28T12:00:00.000Z' });
    const id = await fight();
    const tab = await screenOn(id);
    const shown = { ...tab.detail!.encounter };
    const goblin = tab.detail!.view.order.find((c) => c.name === 'Goblin 2')!;
    await tab.act({ type: 'END_TURN' });
    await ok('encounters:undo', { id });
    await tab.refresh();
    expect(tab.detail!.encounter).toMatchObject({ eventCount: shown.eventCount, updatedAt: shown.updatedAt });
    await tab.act({ type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 2, source: 'a rock' });
    expect(await stored(id)).toBe(shown.eventCount + 1);
    expect(tab.detail!.view.order.find((c) => c.id === goblin.id)!.health).not.toEqual(goblin.health);
    expect(toasts.items).toEqual([]);
    tab.dispose();
  });

  it('an undo from a stale tab is refused and the other tab\'s event survives', async () => {
    const id = await fight();
    const [tabA, tabB] = [await screenOn(id), await screenOn(id)];
    const goblin = tabA.detail!.view.order.find((c) => c.name === 'Goblin 2')!;
    await tabA.act({ type: 'APPLY_DAMAGE', targetId: goblin.id, amount: 2, source: 'a rock' });
    const damaged = tabA.detail!.view.order.find((c) => c.id === goblin.id)!.health;
    await tabB.undo();
    expect(await stored(id)).toBe(tabA.detail!.encounter.eventCount);
    expect(tabB.detail!.view.order.find((c) => c.id === goblin.id)!.health).toEqual(damaged);
    expect(notices()).toHaveLength(1);
    tabA.dispose();
    tabB.dispose();
  });
});

describe('the log a write extends', () => {
  it('keeps every line the screen held as the same object once the fight is longer than the runner\'s log', async () => {
    // Past LOG_TAIL_EVENTS events each write's reply drops the oldest event's lines and adds the newest: the lines
    // between are the screen's own. Copied, each of them was drawn again by the runner's log on every key.
    const id = await fight();
    for (let i = 0; i < LOG_TAIL_EVENTS + 5; i++) await ok('encounters:append', { id, event: { type: 'END_TURN' } });
    const screen = await screenOn(id);
    for (const write of [() => screen.act({ type: 'END_TURN' }), () => screen.undo(), () => screen.act({ type: 'END_TURN' })]) {
      const before = screen.detail!.log;
      await write();
      const after = screen.detail!.log;
      const held = new Set(before);
      const kept = after.filter((line) => line.seq <= before.at(-1)!.seq);
      expect(kept.length).toBeGreaterThan(LOG_TAIL_EVENTS);
      expect(kept.filter((line) => !held.has(line))).toEqual([]);
    }
    expect(screen.detail!.encounter.eventCount).toBe(await stored(id));
    screen.dispose();
  });
});
