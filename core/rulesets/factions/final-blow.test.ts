// The final blow (§ Attacking) and the durability roll after the fight (§ Combat gear degradation). source: "After a
// fight, make a durability roll for all weapons and armour which were used at least once."
import { describe, expect, it } from 'vitest';
import { fight, seed, who } from './testing.ts';

describe('a final blow uses the weapon only if it is in hand', () => {
  function helpless(disarmed: boolean) {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm')]);
    if (disarmed) e.apply({ type: 'OVERRIDE', targetId: 'hero', field: 'disarmed', value: true, note: 'dropped it' });
    e.apply({ type: 'OVERRIDE', targetId: 'foe', field: 'incapacitated', value: true, note: 'down' });
    e.apply({ type: 'FINAL_BLOW', attackerId: 'hero', targetId: 'foe' });
    return e;
  }

  it('a disarmed character\'s final blow leaves the weapon on the floor unused: no durability roll for it', () => {
    const e = helpless(true);
    expect(who(e, 'hero').used.weapon).toBe(false);
    expect(e.view().prompt).toBe(null); // the fight is over and nothing was used
  });

  it('with the weapon in hand the final blow uses it', () => {
    expect(who(helpless(false), 'hero').used.weapon).toBe(true);
  });
});
