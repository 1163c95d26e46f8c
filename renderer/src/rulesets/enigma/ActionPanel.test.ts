// @vitest-environment jsdom
// The damage form sent by Enter is hidden with the rows its damage changed, and taken out once they are drawn, focus
// given back first: a focused field removed with the form (its 200-option target list) made the browser recompute
// style and layout at once, inside the frame that shows the damage, and moving focus in that frame still laid the page
// out. Focus still ends where it did: where it was before the form opened.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EncounterDetail } from '../../../../core/api/contract.ts';
import EncounterScreen from '../../screens/EncounterScreen.svelte';
import { loadRulesetUi } from '../registry.ts';

const api = vi.hoisted(() => ({ lp: 10, appended: [] as Record<string, unknown>[], asking: false, changed: null as null | ((notice: Record<string, unknown>) => void) }));
vi.mock('../../lib/api.ts', () => ({
  send: vi.fn(async (name: string, input: Record<string, unknown>) => {
    if (name === 'encounters:get') return detail(api.lp, 7);
    if (name === 'encounters:append') {
      api.appended.push(input['event'] as Record<string, unknown>);
      api.lp -= Number((input['event'] as { amount: number }).amount);
      return detail(api.lp, 8);
    }
    return name === 'app:info' ? { rulesets: [] } : null;
  }),
  onChanged: (listener: (notice: Record<string, unknown>) => void) => {
    api.changed = listener;
    return () => {};
  },
}));

function detail(gobLp: number, eventCount: number): EncounterDetail {
  return {
    encounter: { id: 'e1', campaignId: 'c1', campaignName: 'Vault', name: 'Bridge', phase: 'running', round: 5, eventCount, updatedAt: `v${eventCount}`, rulesetId: 'enigma' },
    view: {
      phase: 'running', round: 5, counters: [], activeId: 'ash', allowed: api.asking ? ['ANSWER'] : ['END_TURN', 'APPLY_DAMAGE', 'END_COMBAT'],
      prompt: api.asking ? { kind: 'question', text: 'Does the bridge hold?', answer: 'ANSWER', choices: [{ id: 'yes', label: 'Yes', answer: {} }] } : null,
      order: [
        { id: 'ash', name: 'Ash', side: 'party', sideLabel: 'Party', status: 'active', slot: 1, health: { label: 'LP', current: 9, max: 9 }, tags: [] },
        { id: 'gob', name: 'Goblin 1', side: 'gm', sideLabel: 'GM', status: 'waiting', slot: 2, health: { label: 'LP', current: gobLp, max: 10 }, tags: [] },
      ],
    },
    conditionNames: [], log: [], logComplete: true,
    canUndo: true, canRedo: false, undoLabel: 'Ash ends the turn.', redoLabel: null,
  } as EncounterDetail;
}

/** For each form taken out of the page: whether it still held the focus then. */
let removedHoldingFocus: boolean[] = [];

beforeAll(async () => {
  await loadRulesetUi('enigma');
});
beforeEach(() => {
  api.lp = 10;
  api.appended = [];
  api.asking = false;
  removedHoldingFocus = [];
  const remove = Element.prototype.remove;
  vi.spyOn(Element.prototype, 'remove').mockImplementation(function (this: Element) {
    if (this instanceof HTMLFormElement) removedHoldingFocus.push(this.contains(document.activeElement));
    remove.call(this);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** What the page was when the damage first showed: the form's display and the element that held focus. */
let whenShown: { formDisplay: string; focused: Element | null } | null = null;

/** Opens the damage form (`open` presses its key or its button), types 3 and presses Enter in the amount field. */
async function damageByEnter(open: () => void) {
  render(EncounterScreen, { id: 'e1' });
  await screen.findByRole('button', { name: 'Next turn' });
  open();
  const form = await screen.findByRole('form', { name: 'damage form' });
  await waitFor(() => expect(form.contains(document.activeElement)).toBe(true));
  const amount = screen.getByLabelText('Amount') as HTMLInputElement;
  await fireEvent.input(amount, { target: { value: '3' } });
  amount.focus();
  whenShown = null;
  const shown = new MutationObserver(() => {
    if (whenShown === null && document.body.textContent?.includes('LP 7/10')) whenShown = { formDisplay: form.style.display, focused: document.activeElement };
  });
  shown.observe(document.body, { subtree: true, childList: true, characterData: true });
  await fireEvent.keyDown(amount, { key: 'Enter' });
  await waitFor(() => expect(form.isConnected).toBe(false));
  shown.disconnect();
  // The damage showed with the form hidden and focus where it was: nothing moved it inside that update.
  expect(whenShown).toEqual({ formDisplay: 'none', focused: amount });
  expect(api.appended).toEqual([{ type: 'APPLY_DAMAGE', targetId: 'gob', amount: 3, source: '' }]);
  expect(document.body.textContent).toContain('LP 7/10');
}

describe('the damage form sent by Enter', () => {
  it('opened by its key: gives focus back to the page before it is taken out, and the page keeps it', async () => {
    await damageByEnter(() => fireEvent.keyDown(window, { key: 'd' }));
    expect(removedHoldingFocus).toEqual([false]);
    expect(document.activeElement).toBe(document.body);
  });

  it('opened by its button: gives focus back to the button before it is taken out', async () => {
    await damageByEnter(() => {
      const button = screen.getByRole('button', { name: 'Damage / heal' });
      button.focus();
      button.click();
    });
    expect(removedHoldingFocus).toEqual([false]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Damage / heal' }));
  });
});

describe('a question asked while a form is open', () => {
  it('closes the form: the panel is hidden while it is asked, and shows no form again once it is answered', async () => {
    render(EncounterScreen, { id: 'e1' });
    await screen.findByRole('button', { name: 'Next turn' });
    await fireEvent.keyDown(window, { key: 'd' });
    await screen.findByRole('form', { name: 'damage form' });
    api.asking = true;
    api.changed!({ area: 'encounters', id: 'e1', version: 'v-asked' });
    await screen.findByRole('heading', { name: 'Does the bridge hold?' });
    await waitFor(() => expect(document.querySelector('form[aria-label="damage form"]')).toBeNull());
    api.asking = false;
    api.changed!({ area: 'encounters', id: 'e1', version: 'v-answered' });
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Does the bridge hold?' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Damage / heal' })).toBeTruthy();
    expect(document.querySelector('form[aria-label="damage form"]')).toBeNull();
  });
});
