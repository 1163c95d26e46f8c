// @vitest-environment jsdom
// A runner key changes nothing on the page until its write answers: the buttons that write are not disabled at the
// press (that was a whole frame drawn while the write was on its way, before the frame of its result). Only a write
// still on its way after SLOW_WRITE_MS shows that they wait; a second press meanwhile acts once.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { EncounterDetail } from '../../../core/api/contract.ts';
import { SLOW_WRITE_MS } from '../lib/encounter.svelte.ts';
import { loadRulesetUi } from '../rulesets/registry.ts';
import EncounterScreen from './EncounterScreen.svelte';

const api = vi.hoisted(() => ({ active: 'ash', count: 7, appends: 0, answer: null as null | (() => void) }));
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string, input: Record<string, unknown>) => {
    if (name === 'encounters:get') return detail();
    if (name === 'encounters:append') {
      api.appends += 1;
      const since = input['since'] as { eventCount: number };
      // The app refuses a write from a screen the fight has moved past (a second press of the same key).
      if (since.eventCount !== api.count) {
        const { GmError, STALE_SCREEN } = await import('../../../core/api/replies.ts');
        throw new GmError(STALE_SCREEN, 'stale');
      }
      await new Promise<void>((resolve) => (api.answer = resolve));
      api.active = api.active === 'ash' ? 'gob' : 'ash';
      api.count += 1;
      return detail();
    }
    return name === 'app:info' ? { rulesets: [] } : null;
  }),
  onChanged: () => () => {},
}));

function detail(): EncounterDetail {
  return {
    encounter: { id: 'e1', campaignId: 'c1', campaignName: 'Vault', name: 'Bridge', phase: 'running', round: 5, eventCount: api.count, updatedAt: `v${api.count}`, rulesetId: 'enigma' },
    view: {
      phase: 'running', round: 5, counters: [], activeId: api.active, prompt: null, allowed: ['END_TURN', 'APPLY_DAMAGE', 'END_COMBAT'],
      order: [
        { id: 'ash', name: 'Ash', side: 'party', sideLabel: 'Party', status: api.active === 'ash' ? 'active' : 'waiting', slot: 1, health: { label: 'LP', current: 9, max: 9 }, tags: [] },
        { id: 'gob', name: 'Goblin 1', side: 'gm', sideLabel: 'GM', status: api.active === 'gob' ? 'active' : 'waiting', slot: 2, health: { label: 'LP', current: 10, max: 10 }, tags: [] },
      ],
    },
    conditionNames: [], log: [], logComplete: true,
    canUndo: true, canRedo: false, undoLabel: 'Ash ends the turn.', redoLabel: null,
  } as EncounterDetail;
}

beforeAll(async () => {
  await loadRulesetUi('enigma');
});
beforeEach(() => {
  Object.assign(api, { active: 'ash', count: 7, appends: 0, answer: null });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

it('N changes nothing on the page until the write answers; a write still on its way after a while disables Next turn', async () => {
  render(EncounterScreen, { id: 'e1' });
  const next = (await screen.findByRole('button', { name: 'Next turn' })) as HTMLButtonElement;
  const page = document.body.innerHTML;
  vi.useFakeTimers();
  await fireEvent.keyDown(window, { key: 'n' });
  // (Not vi.waitFor: under fake timers it moves the clock.)
  for (let i = 0; i < 100 && api.answer === null; i++) await Promise.resolve();
  expect(api.answer).not.toBeNull();
  // The press is on its way: the page is as it was drawn, Next turn still enabled.
  expect(document.body.innerHTML).toBe(page);
  expect(next.disabled).toBe(false);
  // A second N meanwhile is sent after the first, from the screen as it was: refused as a double press.
  await fireEvent.keyDown(window, { key: 'n' });
  await vi.advanceTimersByTimeAsync(SLOW_WRITE_MS - 1);
  expect(next.disabled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(next.disabled).toBe(true);
  api.answer!();
  vi.useRealTimers();
  await waitFor(() => expect(screen.getByTestId('active-name').textContent).toBe('Goblin 1'));
  await waitFor(() => expect(next.disabled).toBe(false));
  expect(api.count).toBe(8);
  expect(api.appends).toBe(2);
});
