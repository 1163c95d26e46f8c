// Reactions read against the source's grapple and sneaking rules (§3.4 steps 4 and 10, § Sneaking in combat).
import { describe, expect, it } from 'vitest';
import { app, fight, melee, seed, texts, who } from './testing.ts';

/** Hero holds Foe (a grapple that took), and still has this round's turn to react with; Foe2 attacks Hero. */
function holding() {
  const e = fight([seed('hero', 'party'), seed('ally', 'party'), seed('foe', 'gm'), seed('foe2', 'gm')]);
  e.apply(melee('hero', 'foe', { effect: 'grapple' }));
  e.apply({ type: 'REACT', reaction: 'none' });
  e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(20) });
  expect(who(e, 'foe').grabbedBy).toBe('hero');
  e.apply({ type: 'END_TURN' });
  e.apply({ type: 'OVERRIDE', targetId: 'hero', field: 'acted', value: false, note: 'test: Hero keeps a turn to react with' });
  e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe2' });
  e.apply(melee('foe2', 'hero'));
  return e;
}

// source: "Characters who are grabbing another character can move together with them and attack them while keeping
// hold, but doing anything else automatically frees the grabbed character."
describe('a grabber who reacts to anything but the one held lets go', () => {
  it('dodging frees the one held', () => {
    const e = holding();
    const lines = texts(e.apply({ type: 'REACT', reaction: 'dodge', roll: app(20) }));
    expect(lines).toContain('Hero lets go of Foe.');
    expect(who(e, 'foe').grabbedBy).toBe(null);
  });

  it('countering someone else frees the one held', () => {
    const e = holding();
    e.apply({ type: 'REACT', reaction: 'counter' });
    expect(who(e, 'foe').grabbedBy).toBe(null);
  });

  it('guarding another frees the one held', () => {
    const e = fight([seed('hero', 'party'), seed('ally', 'party'), seed('foe', 'gm'), seed('foe2', 'gm')]);
    e.apply(melee('hero', 'foe', { effect: 'grapple' }));
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(20) });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'OVERRIDE', targetId: 'hero', field: 'acted', value: false, note: 'test' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe2' });
    e.apply(melee('foe2', 'ally'));
    e.apply({ type: 'REACT', reaction: 'guard', guardId: 'hero' });
    expect(who(e, 'foe').grabbedBy).toBe(null);
  });

  it('hiding behind the one held keeps hold ("they can also hide behind the grabbed character")', () => {
    const e = holding();
    e.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'foe' });
    expect(who(e, 'foe').grabbedBy).toBe('hero');
  });
});

// source: "Actions which might reveal a character include: attacking, ..." A counter is an attack.
describe('a concealed character who counters is revealed', () => {
  it('the counter reveals the counterer', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm')]);
    e.apply({ type: 'SET_STATUS', combatantId: 'foe', status: 'concealed', on: true });
    e.apply(melee('hero', 'foe', { attackRoll: app(1) }));
    const lines = texts(e.apply({ type: 'REACT', reaction: 'counter' }));
    expect(lines).toContain('Foe is revealed (attacking).');
    expect(who(e, 'foe').concealed).toBe(false);
  });
});
