// @vitest-environment jsdom
// Undo and redo across the end of a fight, as the runner offers them: an undo the app refuses (the campaign has moved
// on) is disabled with the reason as its tooltip and said as a toast on Ctrl+Z; a redo of an ending opens the same
// review as the first end, filled in with the adjustments it held, and writes only what the GM confirms.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CarryPreview, EncounterDetail } from '../../../core/api/contract.ts';
import { toasts } from '../lib/toasts.svelte.ts';
import EncounterScreen from './EncounterScreen.svelte';
import { loadRulesetUi } from '../rulesets/registry.ts';

const api = vi.hoisted(() => ({ replies: {} as Record<string, (input: Record<string, unknown>) => unknown>, calls: [] as [string, Record<string, unknown>][] }));
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string, input: Record<string, unknown>) => {
    api.calls.push([name, input]);
    const reply = api.replies[name];
    return reply ? reply(input) : name === 'app:info' ? { rulesets: [] } : null;
  }),
  onChanged: () => () => {},
}));

beforeAll(async () => {
  // The screen waits for its ruleset's additions, a module loaded on first use: loaded here once, so a slow first
  // load on a busy machine does not count against the first test's wait for the runner.
  await loadRulesetUi('enigma');
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) { this.setAttribute('open', ''); };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) { this.removeAttribute('open'); };
});
beforeEach(() => {
  api.replies = {};
  api.calls = [];
});
afterEach(cleanup);

const MOVED_ON = "This fight's end was written onto the campaign, and the campaign has moved on since (“Berrik rests: +5 LP (4 → 9 of 10).” on day 3). Undo the later ledger entries first, or leave the fight ended.";

function detail(over: Partial<EncounterDetail> & { phase: 'running' | 'ended' }): EncounterDetail {
  const { phase, ...rest } = over;
  return {
    encounter: { id: 'e1', campaignId: 'c1', campaignName: 'Vault', name: 'Bridge', phase, round: 2, eventCount: 7, updatedAt: 'v7', rulesetId: 'enigma' },
    view: {
      phase, round: 2, counters: [], activeId: null, prompt: null, allowed: phase === 'ended' ? [] : ['END_COMBAT'],
      order: [{ id: 'b', name: 'Berrik', side: 'party', sideLabel: 'Party', status: 'waiting', slot: 1, health: { label: 'LP', current: 4, max: 10 }, tags: [] }],
      ...(phase === 'ended' ? { outcome: 'Victory' } : {}),
    },
    conditionNames: [], log: [], logComplete: true,
    canUndo: true, canRedo: false, undoLabel: 'Berrik ends the turn.', redoLabel: null,
    ...rest,
  } as EncounterDetail;
}

const preview: CarryPreview = {
  characters: [{ characterId: 'berrik', name: 'Berrik', fields: [{ key: 'lp', label: 'LP', before: null, after: 4, editable: true }], newRecords: [] }],
  party: [],
};

describe('the runner’s undo and redo across the end of a fight', () => {
  it('does not offer an undo the campaign has moved past: disabled, the reason as its tooltip, and Ctrl+Z says it', async () => {
    api.replies['encounters:get'] = () => detail({ phase: 'ended', canUndo: false, undoLabel: MOVED_ON });
    render(EncounterScreen, { id: 'e1' });
    const undo = await screen.findByRole('button', { name: 'Undo' });
    expect((undo as HTMLButtonElement).disabled).toBe(true);
    expect(undo.getAttribute('title')).toBe(MOVED_ON);
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(api.calls.map(([name]) => name)).not.toContain('encounters:undo');
    expect(toasts.items.map((t) => t.text)).toContain(MOVED_ON);
  });

  it('redoes an ending only after the same review, filled in with the adjustments it held', async () => {
    api.replies['encounters:get'] = () => detail({ phase: 'running', canUndo: true, canRedo: true, redoLabel: 'End combat' });
    api.replies['encounters:redo'] = (input) => input['ask']
      ? { ...detail({ phase: 'running', canRedo: true, redoLabel: 'End combat' }), carryCheck: { event: { type: 'END_COMBAT', outcome: 'Victory' }, carry: preview, adjusted: { adjust: [{ characterId: 'berrik', key: 'lp', value: 6 }], reason: 'a draught' } } }
      : detail({ phase: 'ended', updatedAt: 'v8' } as never);
    render(EncounterScreen, { id: 'e1' });
    await screen.findByRole('button', { name: 'Redo: End combat' });
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true, shiftKey: true });
    // The review, as the first end showed it: nothing written yet.
    await screen.findByRole('heading', { name: 'Before the fight ends: what it writes onto the campaign' });
    expect(api.calls.filter(([name]) => name === 'encounters:redo')).toEqual([['encounters:redo', expect.objectContaining({ id: 'e1', ask: true })]]);
    const lp = screen.getByRole('spinbutton', { name: 'Berrik: LP to write instead of 4' }) as HTMLInputElement;
    expect(lp.value).toBe('6');
    expect((screen.getByLabelText('Reason for the change') as HTMLInputElement).value).toBe('a draught');
    await fireEvent.click(screen.getByRole('button', { name: 'Write with 1 change and end' }));
    await waitFor(() => expect(api.calls.filter(([name]) => name === 'encounters:redo')).toHaveLength(2));
    expect(api.calls.at(-1)).toEqual(['encounters:redo', expect.objectContaining({ id: 'e1', confirm: true, carryAdjust: [{ characterId: 'berrik', key: 'lp', value: 6 }], carryReason: 'a draught' })]);
  });

  it('writes nothing when the GM goes back to the fight from the review', async () => {
    api.replies['encounters:get'] = () => detail({ phase: 'running', canRedo: true, redoLabel: 'End combat' });
    api.replies['encounters:redo'] = () => ({ ...detail({ phase: 'running', canRedo: true, redoLabel: 'End combat' }), carryCheck: { event: { type: 'END_COMBAT', outcome: 'Victory' }, carry: preview } });
    render(EncounterScreen, { id: 'e1' });
    await fireEvent.click(await screen.findByRole('button', { name: 'Redo: End combat' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Back to the fight' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: /Before the fight ends/ })).toBeNull());
    expect(api.calls.filter(([name]) => name === 'encounters:redo')).toEqual([['encounters:redo', expect.objectContaining({ ask: true })]]);
  });
});
