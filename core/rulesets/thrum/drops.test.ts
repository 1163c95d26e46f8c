// Drop rolls (§5.3): "Characters can descend to an adjacent square which is 2 or more elevations below without
// expending extra movement by making an Endurance or Reflex roll (their choice), contested by the environment, which
// has an opposition level equal to the difference in elevation." Rolled by the app or typed, like every roll (R-H11).
import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../encounter/types.ts';
import { thrumEncounter } from './encounter.ts';
import { app, ctx, fight, seed, who } from './testing.ts';

const ledge = (options = {}) => {
  const map: GmEvent = { type: 'SET_MAP', map: { width: 6, height: 6, elevation: { '0,0': 3 }, difficult: [], startingArea: [] } };
  const e = fight([seed('ana', 'party', { speed: 4, resilience: 2, evasion: -1 }), seed('orc', 'foes')], options, [map]);
  e.apply({ type: 'SET_POSITION', combatantId: 'ana', square: { x: 0, y: 0 }, note: '' });
  e.apply({ type: 'SET_POSITION', combatantId: 'orc', square: { x: 5, y: 5 }, note: '' });
  return e;
};
const down = (drop: unknown): GmEvent => ({ type: 'MOVE', path: [{ x: 0, y: 1 }], drops: [drop] } as unknown as GmEvent);

describe('a drop of two or more levels is rolled: the mover against the environment', () => {
  it('Endurance (Resilience) or Reflex (Evasion), the mover\'s choice, against 2d6 + the height; the app rolls what is not typed', () => {
    const e = ledge();
    expect(thrumEncounter.rollsFor!(e.snapshot, down({ roll: 'endurance' }))).toEqual([
      { path: ['drops', 0, 'dice'], label: 'Ana: drop 1, Endurance, 2d6 + 2', notation: '2d6', count: 2, sides: 6 },
      { path: ['drops', 0, 'environment'], label: 'The environment: drop 1, 2d6 + its height', notation: '2d6', count: 2, sides: 6 },
    ]);
    // Endurance 3 + 4 + 2 = 9 against 3 + 2 + 3 = 8: lands with no adverse effect, base cost only.
    const lines = e.apply(down({ roll: 'endurance', dice: app(3, 4), environment: app(3, 2) }));
    expect(lines[0]!.text).toContain('drops 3 levels into (0,1): Endurance [3, 4] + 2 = 9 against the environment [3, 2] + 3 = 8: succeeds, base cost only');
    expect([ctx(e).turn.moved, who(e, 'ana').statuses]).toEqual([1, {}]);
    // The same faces for Reflex (Evasion − 1): 6 against 8, "On a fail they are +1 Slowed".
    const f = ledge();
    f.apply(down({ roll: 'reflex', dice: app(3, 4), environment: app(3, 2) }));
    expect(who(f, 'ana').statuses['Slowed']?.stacks).toBe(1);
    // Rolled by the app: the stored event carries both rolls.
    const g = ledge();
    const filled = g.withRolls(down({ roll: 'reflex' })) as unknown as { drops: { dice: { faces: number[] }; environment: { faces: number[] } }[] };
    expect([filled.drops[0]!.dice.faces.length, filled.drops[0]!.environment.faces.length]).toEqual([2, 2]);
    g.apply(filled);
  });

  it('the roller must exceed the opposition: a tie fails (R-H11 contestTies), unless ties go to the roller', () => {
    const e = ledge();
    // Endurance 2 + 2 + 2 = 6 against 1 + 2 + 3 = 6.
    e.apply(down({ roll: 'endurance', dice: app(2, 2), environment: app(1, 2) }));
    expect(who(e, 'ana').statuses['Slowed']?.stacks).toBe(1);
    const f = ledge({ contestTies: 'attackWins' });
    f.apply(down({ roll: 'endurance', dice: app(2, 2), environment: app(1, 2) }));
    expect(who(f, 'ana').statuses).toEqual({});
  });

  it('"The same process applies if a character is moved involuntarily": a forced drop without a map rolls against the levels given', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes', { resilience: 1 })]);
    expect(() => e.apply({ type: 'FORCED_MOVE', combatantId: 'orc', squares: 1, drop: 'endurance' })).toThrow('Give the levels dropped: the environment rolls 2d6 + the height of the drop.');
    expect(thrumEncounter.rollsFor!(e.snapshot, { type: 'FORCED_MOVE', combatantId: 'orc', squares: 1, drop: 'endurance', levels: 4 }).map((r) => r.label)).toEqual([
      'Orc: the drop, Endurance, 2d6 + 1', 'The environment: 2d6 + 4 (the height)',
    ]);
    expect(() => e.apply({ type: 'FORCED_MOVE', combatantId: 'orc', squares: 1, drop: 'endurance', levels: 4, dropDice: app(6), environmentDice: app(1, 1) })).toThrow("Orc's Endurance roll is 2d6: 1 die given.");
    e.apply({ type: 'FORCED_MOVE', combatantId: 'orc', squares: 1, drop: 'endurance', levels: 4, dropDice: app(6, 5), environmentDice: app(1, 1) });
    expect(who(e, 'orc').statuses).toEqual({});
  });

  it('a result given without dice is refused unless the campaign hands contests to the GM (R-H11), so older events still replay', () => {
    const e = ledge();
    expect(() => e.apply(down('failure'))).toThrow("The dice decide Ana's drop roll (R-H11): choose Endurance or Reflex and roll, or type the faces, instead of giving the result.");
    e.apply(down('pay'));
    expect(ctx(e).turn.moved).toBe(3);
    const old = ledge({ boonsAndBanes: 'countsToCoreRules' });
    old.apply(down('failure'));
    expect(who(old, 'ana').statuses['Slowed']?.stacks).toBe(1);
  });
});
