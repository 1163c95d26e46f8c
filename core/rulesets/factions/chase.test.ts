// Long chases (§3.6). source: "Chases over long distances can be resolved with the fleeing character making a group
// AGI save: those who pass escape, those who fail are reached by the pursuers." Those who escape are gone (R-F10).
import { describe, expect, it } from 'vitest';
import { factionsEncounter } from './encounter.ts';
import { app, fight, seed, texts, who } from './testing.ts';

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

describe('what a chase after the fight leaves on the campaign', () => {
  // "those who pass escape, those who fail are reached by the pursuers": an escaper is alive and away, with the
  // condition the fight's end carried (not dead, not captured: the chapter has no captured state); one who is caught
  // is reached, which is whatever the GM runs next. So the chase changes the encounter's log and tags only; what the
  // end carried onto the campaign (the PCs' condition, the NPC templates' stretch immunity) stays as it was written.
  it('changes nothing the end carries, for the PC who escapes or the NPC who is caught', () => {
    const e = fight([seed('hero', 'party', { agi: 14 }, { characterId: 'pc-hero' }), seed('foe', 'gm', { agi: 6 }, { characterId: 'tpl-foe' })]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 2, source: 'a knife', byId: 'foe' });
    e.apply({ type: 'END_COMBAT', outcome: 'Both sides run.' });
    const atTheEnd = factionsEncounter.consequences!(e.snapshot);
    e.apply({ type: 'CHASE', fleeingIds: ['hero', 'foe'], edge: 'none', roll: app(9) });
    expect([who(e, 'hero').chase, who(e, 'foe').chase]).toEqual(['escaped', 'caught']);
    expect(factionsEncounter.consequences!(e.snapshot)).toEqual(atTheEnd);
    expect(atTheEnd.carry).toEqual([{ characterId: 'pc-hero', state: expect.objectContaining({ health: 8, incapacitated: false, dying: false }) }]);
  });
});
