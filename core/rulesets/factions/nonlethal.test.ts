// Non-lethal attacks (§3.4 step 10). source: "Non-lethal attacks don't inflict damage but instead force the target to
// pass a save or suffer negative consequences." No weapon is swung: a disarmed character may still grapple or
// disarm, and the weapon is not "used" for the after-fight durability roll.
import { describe, expect, it } from 'vitest';
import { app, ctx, fight, melee, seed, texts, who } from './testing.ts';

describe('non-lethal attacks swing no weapon', () => {
  it('a disarmed character may still grapple, even when the form says "with the weapon"', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { str: 5 })]);
    e.apply({ type: 'OVERRIDE', field: 'disarmed', targetId: 'hero', value: 'on', note: '' });
    e.apply(melee('hero', 'foe', { effect: 'grapple', weapon: 'weapon' }));
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(15) });
    expect(who(e, 'foe').grabbedBy).toBe('hero');
  });

  it('a disarmed character may try to disarm in turn (the default "With")', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { str: 5 })]);
    e.apply({ type: 'OVERRIDE', field: 'disarmed', targetId: 'hero', value: 'on', note: '' });
    e.apply(melee('hero', 'foe', { effect: 'disarm' }));
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(15) });
    expect(who(e, 'foe').disarmed).toBe(true);
  });

  it('a grapple does not make the grabber\'s weapon roll durability after the fight', () => {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm', { str: 5 })]);
    e.apply(melee('hero', 'foe', { effect: 'grapple', weapon: 'weapon' }));
    e.apply({ type: 'REACT', reaction: 'none' });
    e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(15) });
    expect(who(e, 'hero').used.weapon).toBeFalsy();
    e.apply({ type: 'END_COMBAT', outcome: 'Foe is held.' });
    expect(texts(ctx(e).log).join('\n')).not.toMatch(/durability roll for Hero's weapon/);
  });
});
