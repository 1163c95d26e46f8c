// Attacking a concealed character (§ Sneaking in combat, §3.4 step 1–2). source: "Concealed characters are revealed
// when they make noise or become visible to the enemy": until then they are not visible to the enemy, so
// "Hitting a target who is not visible requires passing a WIT save or the attack misses" (melee) and "Targeting ...
// a character who is not visible, isn't possible" (ranged); indirect attacks "can be directed at targets which aren't
// directly visible".
import { describe, expect, it } from 'vitest';
import { app, fight, seed, texts } from './testing.ts';

function hidden() {
  const e = fight([seed('hero', 'party'), seed('foe', 'gm')]);
  e.apply({ type: 'SET_STATUS', combatantId: 'foe', status: 'concealed', on: true });
  return e;
}

describe('a concealed enemy is not visible to the attacker', () => {
  it('a ranged attack on a concealed enemy is refused, and nothing happens', () => {
    const e = hidden();
    const before = e.snapshot;
    expect(() => e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'ranged' }))
      .toThrow('Foe is concealed, so not visible to Hero: a ranged attack needs a visible target (an indirect attack can aim at unseen targets beyond half range).');
    expect(e.snapshot).toBe(before);
  });

  it('a melee attack on a concealed enemy needs a WIT save to hit, and misses on a fail', () => {
    const e = hidden();
    expect(() => e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'melee' })).toThrow("Hero's WIT save to hit needs a d20.");
    const lines = texts(e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'melee', attackRoll: app(15) }));
    expect(lines[0]).toBe('Hero makes a melee attack (d6) on Foe. WIT save to hit (the target is not visible): d20 [15] against WIT 10, miss.');
  });

  it('an indirect attack may aim at a concealed enemy beyond half range', () => {
    const lines = texts(hidden().apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'indirect', range: 'beyondHalf', attackRoll: app(3) }));
    expect(lines[0]).toBe('Hero makes an indirect attack (d6) on Foe. WIT save to hit (an indirect attack): d20 [3] against WIT 10, hit.');
  });

  it('once revealed, the same ranged attack hits automatically', () => {
    const e = hidden();
    e.apply({ type: 'SET_STATUS', combatantId: 'foe', status: 'concealed', on: false });
    expect(texts(e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'ranged' }))[0]).toBe('Hero makes a ranged attack (d6) on Foe. It hits automatically.');
  });
});
