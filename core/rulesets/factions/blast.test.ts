// A missed ranged blast (§3.4 steps 2 and 9). source: "If they miss, they are deviated and hit a random neighbouring
// zone. You can assign a number to each neighbouring zone and roll a die to determine which one."
import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../encounter/kernel.ts';
import { factionsEncounter } from './encounter.ts';
import { app, fight, seed, texts } from './testing.ts';

function zoned() {
  const e = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('far', 'gm')]);
  for (const [id, zone] of [['hero', 'hall'], ['foe', 'gate'], ['far', 'yard']] as const) e.apply({ type: 'SET_ZONE', id, zone });
  return e;
}
const blast = { type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'ranged', blast: true, zone: 'gate', range: 'beyondHalf' } as const;

describe('a missed ranged blast deviates to a random neighbouring zone', () => {
  it('a miss with no neighbouring zones listed is refused, asking for them, and nothing happens', () => {
    const e = zoned();
    const before = e.snapshot;
    expect(() => e.apply({ ...blast, attackRoll: app(18) })).toThrow('The blast misses and deviates to a random neighbouring zone: list the zones next to gate (or "none").');
    expect(e.snapshot).toBe(before);
  });

  it('a hit needs no neighbouring zones', () => {
    const e = zoned();
    expect(texts(e.apply({ ...blast, attackRoll: app(3) })).join(' ')).toMatch(/hit/);
  });

  it('neighbours listed without the roll that picks one are refused', () => {
    expect(() => zoned().apply({ ...blast, attackRoll: app(18), neighbourZones: ['hall', 'yard'] })).toThrow('The blast misses: roll a d2 for the neighbouring zone it deviates to.');
  });

  it('the form sends the neighbours as text: "hall, yard" is the list, "none" says there are none', () => {
    const listed = parseEvent(factionsEncounter, { ...blast, attackRoll: app(18), neighbourZones: 'hall, yard', deviationRoll: app(2) }) as unknown as { neighbourZones: string[] };
    expect(listed.neighbourZones).toEqual(['hall', 'yard']);
    const none = parseEvent(factionsEncounter, { ...blast, attackRoll: app(18), neighbourZones: 'none' });
    const e = zoned();
    expect(texts(e.apply(none))).toContain('The blast misses, and there is no neighbouring zone for it to deviate to.');
  });

  it('with the neighbours and the roll it deviates and hits who is there', () => {
    const e = zoned();
    expect(texts(e.apply({ ...blast, attackRoll: app(18), neighbourZones: ['hall', 'yard'], deviationRoll: app(2) }))).toContain('The blast deviates: d2 [2] → yard, hitting Far.');
  });
});

// source: "Melee blast attacks hit the attacker's zone and don't target the attacker themselves."
describe("a melee blast hits the attacker's own zone", () => {
  function hall() {
    const e = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('imp', 'gm'), seed('far', 'gm')]);
    for (const [id, zone] of [['hero', 'hall'], ['foe', 'hall'], ['imp', 'hall'], ['far', 'yard']] as const) e.apply({ type: 'SET_ZONE', id, zone });
    return e;
  }
  const melee = { type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'melee', blast: true } as const;

  it('a melee blast aimed at another zone is refused, and nothing happens', () => {
    const e = hall();
    const before = e.snapshot;
    expect(() => e.apply({ ...melee, zone: 'yard' })).toThrow("A melee blast hits Hero's own zone (hall), not yard; a ranged blast can hit another zone.");
    expect(e.snapshot).toBe(before);
  });

  it('a melee blast without a zone named hits everyone else in the attacker\'s zone', () => {
    expect(texts(hall().apply(melee))[0]).toBe('Hero makes a melee blast (d6) on Foe, Imp. A melee blast cannot miss.');
  });
});
