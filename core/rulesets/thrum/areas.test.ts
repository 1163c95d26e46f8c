// Area attacks on the map (RULES.md §5.3 "Areas", §5.4 step 9): the attack carries its squares; range, Range 0 and
// Obstructed are judged on the area, and everyone inside it is a target.
import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../encounter/types.ts';
import { attack, ctx, fight, seed, who } from './testing.ts';

const map = (elevation: Record<string, number> = {}): GmEvent => ({ type: 'SET_MAP', map: { width: 12, height: 12, elevation, difficult: [], startingArea: [] } });
const place = (id: string, x: number, y: number): GmEvent => ({ type: 'SET_POSITION', combatantId: id, square: { x, y }, note: '' });
const sq = (x: number, y: number) => ({ x, y });
/** Ana against Orc on an empty map, each at the square given. */
const duelAt = (ana: [number, number], orc: [number, number]) => {
  const e = fight([seed('ana', 'party'), seed('orc', 'foes')], {}, [map()]);
  e.apply(place('ana', ...ana));
  e.apply(place('orc', ...orc));
  return e;
};
/** A wall of elevation +2 at (4,4)–(4,6): from (1,5), the path to (5,5) is Obstructed, (6,5) is open. */
const walled = () => {
  const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], {}, [map({ '4,4': 2, '4,5': 2, '4,6': 2 })]);
  e.apply(place('orc', 5, 5));
  e.apply(place('gob', 9, 9));
  e.apply(place('ana', 1, 5));
  return e;
};

describe('Obstructed and areas', () => {
  // source: "characters can still be affected by areas however, provided some other space in the area is not obstructed"
  it('an area of one Obstructed space reaches nobody: the area flag alone does not waive Obstructed', () => {
    expect(() => walled().apply(attack('ana', ['orc'], { area: true }))).toThrow('The path to (5,5) is Obstructed, and the area has no other space');
    expect(() => walled().apply(attack('ana', [], { squares: [sq(5, 5)] }))).toThrow('The path to (5,5) is Obstructed, and the area has no other space');
  });

  it('an area with some other space not obstructed reaches the character behind the obstruction', () => {
    const e = walled();
    e.apply(attack('ana', [], { squares: [sq(5, 5), sq(6, 5)] }));
    expect(e.view().prompt).toMatchObject({ kind: 'defenceChoice', subjectId: 'orc' });
  });

  it('every space Obstructed: refused', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], {}, [map({ '4,4': 2, '4,5': 2, '4,6': 2, '6,4': 2, '6,5': 2, '6,6': 2 })]);
    e.apply(place('orc', 5, 5));
    e.apply(place('ana', 1, 5));
    expect(() => e.apply(attack('ana', [], { squares: [sq(5, 5), sq(7, 5)] }))).toThrow('Every space of the area is Obstructed');
  });
});

describe('an area attack carries its squares', () => {
  // source: "Area and Line effects must have at least one space within the range of the ability that places it."
  it('range is judged on the area: a target beyond the range is hit when a space of the area is within it', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], {}, [map()]);
    e.apply(place('ana', 0, 0));
    e.apply(place('orc', 3, 0));
    e.apply(place('gob', 4, 0));
    // Area 2 at (2,0): (2,0) is within Range 2, Orc at 3 and Gob at 4 are beyond it.
    const lines = e.apply(attack('ana', [], { range: 2, squares: [sq(2, 0), sq(3, 0), sq(2, 1), sq(3, 1)] }));
    expect(lines[0]!.text).toContain('on Orc');
    expect(e.view().prompt).toMatchObject({ kind: 'defenceChoice', subjectId: 'orc' });
    expect(() => duelAt([0, 0], [3, 0]).apply(attack('ana', [], { range: 2, squares: [sq(3, 0), sq(4, 0)] }))).toThrow('The area must include at least one square within Range 2.');
  });

  // source: "If the ability has Range 0, the ability user's space must be in the area."
  it('Range 0: the user\'s own space must be in the area', () => {
    const e = duelAt([0, 0], [1, 0]);
    expect(() => e.apply(attack('ana', [], { range: 0, squares: [sq(1, 0), sq(2, 0)] }))).toThrow('A Range 0 area must include the user\'s own square.');
  });

  // source: "Abilities that target an Area affect all characters in the area unless otherwise specified."
  it('everyone inside is a target, allies too (R-H10); a listed target outside the area is refused', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], {}, [map()]);
    e.apply(place('ana', 0, 0));
    e.apply(place('bo', 2, 1));
    e.apply(place('orc', 2, 2));
    e.apply(place('gob', 8, 8));
    expect(() => e.apply(attack('ana', ['gob'], { squares: [sq(2, 1), sq(2, 2)] }))).toThrow('Gob stands outside the area');
    const lines = e.apply(attack('ana', [], { squares: [sq(2, 1), sq(2, 2)] }));
    expect(lines[0]!.text).toContain('the area hits allies too (Bo)');
    const top = ctx(e).stack.at(-1);
    expect(top?.kind === 'attack' ? top.attack.targets.map((t) => t.targetId).sort() : []).toEqual(['bo', 'orc']);
    expect(() => duelAt([0, 0], [5, 5]).apply(attack('ana', [], { squares: [sq(1, 1)] }))).toThrow('Nobody stands in the area.');
    expect(who(e, 'gob').fatigueLoad).toBe(0);
  });
});

describe('the area typed in the runner\'s form', () => {
  it('"x,y" pairs become the area\'s squares; anything else is refused with a sentence', async () => {
    const { parseEvent } = await import('../../encounter/kernel.ts');
    const { thrumEncounter } = await import('./encounter.ts');
    const parsed = parseEvent(thrumEncounter, { ...attack('ana', []), squares: '(2,1) 2,2; 3,1' }) as unknown as { squares: unknown };
    expect(parsed.squares).toEqual([sq(2, 1), sq(2, 2), sq(3, 1)]);
    expect(() => parseEvent(thrumEncounter, { ...attack('ana', []), squares: 'north of Orc' })).toThrow('Type the area\'s squares as "x,y" pairs');
  });
});
