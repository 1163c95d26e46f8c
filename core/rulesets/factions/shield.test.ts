// A shield that was put down (§3.3 bonus actions). source: "Pick up or put down something." / "Equip or unequip an
// item." A shield on the floor neither protects nor strikes until it is picked up again.
import { describe, expect, it } from 'vitest';
import { damage, fight, melee, seed, texts, who } from './testing.ts';

function shieldDown() {
  const e = fight([seed('hero', 'party', { hasShield: true }), seed('foe', 'gm')]);
  e.apply({ type: 'BONUS_ACTION', kind: 'drop', item: 'shield' });
  return e;
}

describe('a shield put down gives no armour and cannot strike', () => {
  it('the wearer attacked after putting the shield down takes the whole hit', () => {
    const e = shieldDown();
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
    e.apply(melee('foe', 'hero'));
    expect(texts(e.apply(damage(3)))).toContain('Foe hits Hero: 3 damage. Hero 10 → 7 health.');
    expect(who(e, 'hero').used.shield).toBe(false); // R-F21: it was not carried, so it rolls no durability
  });

  it('striking with a shield put down is refused; picking it up gives it back', () => {
    const e = shieldDown();
    expect(() => e.apply(melee('hero', 'foe', { weapon: 'shield', die: 4 }))).toThrow('Hero has put the shield down: pick it up (a bonus action) to strike with it.');
    expect(e.view().order.find((c) => c.id === 'hero')!.tags).toContain('shield down');
    const up = fight([seed('hero', 'party', { hasShield: true }), seed('foe', 'gm')]);
    up.apply({ type: 'BONUS_ACTION', kind: 'drop', item: 'shield' });
    up.apply({ type: 'BONUS_ACTION', kind: 'pickUp', item: 'shield' });
    expect(who(up, 'hero').shieldDown).toBe(false);
  });
});

// source: "Armour can't be changed during a fight."
describe('worn armour stays on', () => {
  it('putting the armour down is refused like taking it off', () => {
    const e = fight([seed('hero', 'party', { armour: 2 }), seed('foe', 'gm')]);
    expect(() => e.apply({ type: 'BONUS_ACTION', kind: 'drop', item: 'armour' })).toThrow('Armour cannot be put on, taken off or swapped during a fight.');
  });
});
