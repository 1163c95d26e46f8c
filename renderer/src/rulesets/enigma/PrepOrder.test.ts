// @vitest-environment jsdom
// "Fixed order" on the prepare screen lists the GM side as it stands when its write runs. Clicked while an NPC's
// adding was still on its way, it listed the side without that NPC, and the engine refused the order (every GM
// creature exactly once): the fight then started with the GM picking at each slot.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EncounterEngine } from '../../../../core/encounter/kernel.ts';
import { defaultOptions } from '../../../../core/rulesets/options.ts';
import { enigmaEncounter } from '../../../../core/rulesets/enigma/encounter.ts';
import { enigmaOptions } from '../../../../core/rulesets/enigma/options.ts';
import { seed } from '../../../../core/rulesets/enigma/testing.ts';
import type { EncounterState } from '../../lib/encounter.svelte.ts';
import PrepOrder from './PrepOrder.svelte';

afterEach(cleanup);

/** The preparation view with these combatants added, as the engine gives it. */
function prepared(...ids: string[]) {
  const e = EncounterEngine.create(enigmaEncounter, { options: defaultOptions(enigmaOptions), carried: { escalation: null } });
  e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('mira', 'party'), ...ids.map((id) => seed(id, 'gm'))] });
  return e.view();
}

describe('the GM order on the prepare screen', () => {
  it('fixes the order of the GM side as it stands once the writes before it are answered', async () => {
    let answered!: () => void;
    const act = vi.fn(() => Promise.resolve());
    const encounter = {
      detail: { view: prepared('goblin1', 'goblin2') },
      writing: true,
      // The Ogre's adding is on its way: once answered, the screen shows it.
      settled: () => new Promise<void>((resolve) => (answered = () => {
        encounter.detail = { view: prepared('goblin1', 'goblin2', 'ogre') };
        resolve();
      })),
      act,
    };
    render(PrepOrder, { encounter: encounter as unknown as EncounterState });

    await fireEvent.click(screen.getByRole('radio', { name: 'Fixed order' }));
    expect(act).not.toHaveBeenCalled();
    answered();
    await vi.waitFor(() => expect(act).toHaveBeenCalledTimes(1));
    expect(act).toHaveBeenCalledWith({ type: 'SET_GM_ORDER', ids: ['goblin1', 'goblin2', 'ogre'] });
  });

  it('goes back to picking at each GM slot at once', async () => {
    const act = vi.fn(() => Promise.resolve());
    const view = prepared('goblin1');
    const fixed = { ...view, setup: { ...view.setup!, gmOrder: ['goblin1'] } };
    const encounter = { detail: { view: fixed }, writing: false, settled: () => new Promise<void>(() => undefined), act };
    render(PrepOrder, { encounter: encounter as unknown as EncounterState });

    await fireEvent.click(screen.getByRole('radio', { name: 'Pick an enemy at each GM slot' }));
    expect(act).toHaveBeenCalledWith({ type: 'SET_GM_ORDER', ids: null });
  });
});
