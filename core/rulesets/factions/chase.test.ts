// Long chases (§3.6). source: "Chases over long distances can be resolved with the fleeing character making a group
// AGI save: those who pass escape, those who fail are reached by the pursuers." Those who escape are gone (R-F10).
import { describe, expect, it } from 'vitest';
import { app, fight, seed, texts, who } from './testkit.ts';

describe('a long chase during the fight', () => {
  it('the last enemy escaping ends the fight: at most one faction is still in (R-F10)', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { agi: 14 })]);
    e.apply({ type: 'END_TURN' });
    const lines = texts(e.apply({ type: 'CHASE', fleeingIds: ['foe'], edge: 'none', roll: app(9) }));
    expect(lines[0]).toBe('Chase: group AGI save d20 [9]: Foe (AGI 14) escapes.');
    expect(e.view().phase).toBe('ended');
    expect(e.view().order.find((c) => c.id === 'foe')?.removedReason).toBe('escaped');
  });

  it('one who is caught stays in the fight', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { agi: 6 })]);
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'CHASE', fleeingIds: ['foe'], edge: 'none', roll: app(9) });
    expect(who(e, 'foe').chase).toBe('caught');
    expect(e.view().phase).toBe('running');
  });
});

describe('a long chase after the fight', () => {
  it('is taken once the fight has ended with no durability roll open, and nothing else is', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { agi: 6 }), seed('imp', 'gm', { agi: 14 })]);
    e.apply({ type: 'END_COMBAT', outcome: 'The bandits run.' });
    expect(e.view().phase).toBe('ended');
    expect(e.view().allowed).toEqual(['CHASE']);
    const lines = texts(e.apply({ type: 'CHASE', fleeingIds: ['foe', 'imp'], edge: 'none', roll: app(9) }));
    expect(lines[0]).toBe('Chase: group AGI save d20 [9]: Foe (AGI 6) is caught, Imp (AGI 14) escapes.');
    expect(e.view().phase).toBe('ended');
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('This encounter has ended.');
  });
});
