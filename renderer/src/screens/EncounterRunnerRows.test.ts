// @vitest-environment jsdom
// A question raised or answered (Mortal Peril after a damage, its answer, the undo of either) keeps each row's ± and ✕
// buttons and only hides them: with 200 combatants, taking them out and building them again cost two buttons a row
// inside the frame that shows the question. Hidden, they are as good as absent: out of sight, out of the Tab order,
// unnamed to a screen reader; back when the question is answered.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EncounterDetail } from '../../../core/api/contract.ts';
import EncounterScreen from './EncounterScreen.svelte';
import { loadRulesetUi } from '../rulesets/registry.ts';

const api = vi.hoisted(() => ({ eventCount: 7 }));
vi.mock('../lib/api.ts', () => ({
  send: vi.fn(async (name: string) => {
    if (name === 'encounters:get') return detail(false, api.eventCount);
    if (name === 'encounters:append') return detail(true, (api.eventCount += 1));
    if (name === 'encounters:undo') return detail(false, (api.eventCount += 1));
    return name === 'app:info' ? { rulesets: [] } : null;
  }),
  onChanged: () => () => {},
}));

const peril = {
  kind: 'mortalPeril', text: 'Goblin 1 is at 0 LP: Mortal Peril. Sacrifice or Survive?', answer: 'RESOLVE_PERIL', subjectId: 'gob',
  choices: [{ id: 'sacrifice', label: 'Sacrifice', answer: { combatantId: 'gob', choice: 'sacrifice' } }, { id: 'survive', label: 'Survive', answer: { combatantId: 'gob', choice: 'survive' } }],
  details: { npc: true, survivalNumber: 1, extendable: [] },
};

/** The fight as the server sends it: with the question waiting, nothing but its answer is allowed. */
function detail(asking: boolean, eventCount: number): EncounterDetail {
  return {
    encounter: { id: 'e1', campaignId: 'c1', campaignName: 'Vault', name: 'Bridge', phase: 'running', round: 5, eventCount, updatedAt: `v${eventCount}`, rulesetId: 'enigma' },
    view: {
      phase: 'running', round: 5, counters: [], activeId: 'ash', prompt: asking ? peril : null,
      allowed: asking ? ['RESOLVE_PERIL'] : ['END_TURN', 'APPLY_DAMAGE', 'REMOVE_COMBATANT', 'END_COMBAT'],
      order: [
        { id: 'ash', name: 'Ash', side: 'party', sideLabel: 'Party', status: 'active', slot: 1, health: { label: 'LP', current: 9, max: 9 }, tags: [] },
        { id: 'gob', name: 'Goblin 1', side: 'gm', sideLabel: 'GM', status: 'waiting', slot: 2, health: { label: 'LP', current: asking ? 0 : 4, max: 10 }, tags: [] },
      ],
    },
    conditionNames: [], log: [], logComplete: true,
    canUndo: true, canRedo: false, undoLabel: 'Ash ends the turn.', redoLabel: null,
  } as EncounterDetail;
}

const rowButtons = () => ['Damage or heal Ash', 'Remove Ash from the fight', 'Damage or heal Goblin 1', 'Remove Goblin 1 from the fight'];

beforeAll(async () => {
  await loadRulesetUi('enigma');
});
beforeEach(() => {
  api.eventCount = 7;
});
afterEach(cleanup);

describe('the rows’ buttons while a question waits', () => {
  it('are hidden from sight, keyboard and screen reader, and come back as the same buttons', async () => {
    render(EncounterScreen, { id: 'e1' });
    await screen.findByRole('button', { name: 'Next turn' });
    const before = rowButtons().map((name) => screen.getByRole('button', { name }));

    await fireEvent.keyDown(window, { key: 'n' });
    await screen.findByRole('alertdialog', { name: peril.text });
    for (const name of rowButtons()) expect(screen.queryByRole('button', { name })).toBeNull();
    for (const button of before) {
      expect(button.isConnected).toBe(true);
      expect(button.hidden).toBe(true);
    }

    await fireEvent.click(screen.getByRole('button', { name: 'Undo: Ash ends the turn.' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    // The very same elements, shown again: nothing was taken out or built again.
    expect(rowButtons().map((name) => screen.getByRole('button', { name }))).toEqual(before);
    for (const button of before) expect(button.hidden).toBe(false);
  });
});
