// @vitest-environment jsdom
// Mortal Peril's words: a PC's player chooses and may leave a heroic legacy; an NPC has no player, so the GM chooses
// for it, and its end is not called heroic. The prompt is the engine's, so the NPC flag comes from the real view.
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { fight, seed } from '../../../../core/rulesets/enigma/testing.ts';
import PerilPrompt from './PerilPrompt.svelte';
import type { EncounterState } from '../../lib/encounter.svelte.ts';

afterEach(cleanup);

/** The prompt for `target` at 0 LP, drawn as the runner draws it (the encounter state is only read for names). */
function perilOf(target: 'boss' | 'hero') {
  const e = fight([seed('hero', 'party'), seed('boss', 'gm', { endure: 4, namedNpc: true })]);
  e.apply({ type: 'APPLY_DAMAGE', targetId: target, amount: 12, source: 'cave-in' });
  const view = e.view();
  expect(view.prompt?.kind).toBe('mortalPeril');
  const encounter = { detail: { view }, act: () => Promise.resolve() } as unknown as EncounterState;
  render(PerilPrompt, { encounter, prompt: view.prompt! });
  return document.body.textContent ?? '';
}

describe('Mortal Peril prompt', () => {
  it('asks the GM, not a player, to choose for a named NPC, and does not call its end heroic', () => {
    const text = perilOf('boss');
    expect(text).toContain('Nothing else happens until the GM chooses for Boss.');
    expect(text).not.toContain("player");
    expect(text).not.toContain('heroic');
    expect(text).toContain('Boss dies; its last act and what it leaves behind are written in the log.');
  });

  it("asks a PC's player, with the final heroic act", () => {
    const text = perilOf('hero');
    expect(text).toContain("Nothing else happens until Hero's player chooses.");
    expect(text).toContain('Hero dies in a final heroic act');
  });
});
