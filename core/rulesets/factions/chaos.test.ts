// The chaos of combat (Murdham's optional rule). source: "Each Player has 15 seconds to declare what they intend to
// do on their turn, otherwise they do nothing." Only players are timed; at zero the countdown ends the turn itself
// unless the campaign turns `chaosTimeoutAtZero` off.
import { describe, expect, it } from 'vitest';
import { fight, seed } from './testing.ts';

const chaos = { chaosOfCombat: true };
const npcFirst = (options: Record<string, boolean>) => fight([seed('hero', 'party'), seed('foe', 'gm')], options, 'foe');

describe('the chaos of combat times players only', () => {
  it('an NPC\'s turn shows no countdown and cannot time out', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm')], chaos);
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
    expect(e.view().counters.find((c) => c.key === 'chaos')).toBeUndefined();
    expect(e.view().allowed).not.toContain('DECLARATION_TIMEOUT');
    expect(() => e.apply({ type: 'DECLARATION_TIMEOUT' })).toThrow('Only players have 15 seconds to declare: Foe is the GM\'s.');
  });

  it('a player\'s turn is timed, and at zero the countdown sends the timeout by default', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm')], chaos);
    expect(e.view().counters).toContainEqual({ key: 'chaos', label: 'Declare within', value: '15 s', countdown: 15, atZero: { type: 'DECLARATION_TIMEOUT' } });
  });

  it('with chaosTimeoutAtZero off, the countdown only shows time and the GM sends the timeout', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm')], { ...chaos, chaosTimeoutAtZero: false });
    expect(e.view().counters).toContainEqual({ key: 'chaos', label: 'Declare within', value: '15 s', countdown: 15 });
  });

  it('an NPC picked first still gets no countdown', () => {
    expect(npcFirst(chaos).view().counters.find((c) => c.key === 'chaos')).toBeUndefined();
  });
});
