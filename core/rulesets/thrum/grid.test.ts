// Thrum's grid geometry (RULES.md §5.3, §5.4 step 9): the worked examples THRUM-03, THRUM-09, THRUM-10 and the
// footprints, step costs and Obstructed rule.
import { describe, expect, it } from 'vitest';
import {
  areaSquares, auraSquares, coverBetween, currentSpeed, distance, emptyBoard, inRange, lineSquares, placementProblem, stepCost, type Board,
} from './grid.ts';

const board = (elevation: Record<string, number> = {}, difficult: string[] = []): Board => ({ ...emptyBoard(20, 20), elevation, difficult });
const defaults = { characterHeight: 2, onLineGivesCover: false };

describe('distance and range', () => {
  it('THRUM-03 a target 7 west and 4 north is at distance 7: Range 7 reaches, Range 6 does not', () => {
    const user = { x: 10, y: 10 };
    const target = { x: 3, y: 6 };
    expect(distance(user, target)).toBe(7);
    expect(inRange(user, target, 7)).toBe(true);
    expect(inRange(user, target, 6)).toBe(false);
  });
});

describe('cover geometry (§5.4 step 9)', () => {
  const wall = board({ '4,5': 2 });
  const T = { x: 5, y: 5 };

  it('THRUM-09 orthogonal: a +2 wall at (4,5) covers T at (5,5) from (1,3), not from (8,5), the line (4,9) or a +3 attacker', () => {
    expect(coverBetween(wall, [], { x: 1, y: 3 }, T, defaults).cover).toBe(true);
    expect(coverBetween(wall, [], { x: 8, y: 5 }, T, defaults).cover).toBe(false);
    const onLine = coverBetween(wall, [], { x: 4, y: 9 }, T, defaults);
    expect(onLine).toMatchObject({ cover: false, onLine: [{ x: 4, y: 5 }] });
    const high = board({ '4,5': 2, '1,5': 3 });
    expect(coverBetween(high, [], { x: 1, y: 5 }, T, defaults).cover).toBe(false);
  });

  it('R-H14 the dividing line gives cover when the option says so', () => {
    expect(coverBetween(wall, [], { x: 4, y: 9 }, T, { ...defaults, onLineGivesCover: true }).cover).toBe(true);
  });

  it('THRUM-10 diagonal: a +2 pillar at (4,4) gives cover from north-west of x + y = 8, e.g. (2,3), not from (8,1)', () => {
    const pillar = board({ '4,4': 2 });
    expect(coverBetween(pillar, [], { x: 2, y: 3 }, T, defaults).cover).toBe(true);
    expect(coverBetween(pillar, [], { x: 8, y: 1 }, T, defaults).cover).toBe(false);
    expect(coverBetween(pillar, [], { x: 6, y: 2 }, T, defaults)).toMatchObject({ cover: false, onLine: [{ x: 4, y: 4 }] });
  });

  it('terrain only +1 above the target gives no cover', () => {
    expect(coverBetween(board({ '4,5': 1 }), [], { x: 1, y: 5 }, T, defaults).cover).toBe(false);
  });

  it('R-H13 a character on flat ground is a cover source of height 2; at height 0 it is not', () => {
    const ally = [{ id: 'ally', square: { x: 4, y: 5 } }];
    expect(coverBetween(board(), ally, { x: 1, y: 5 }, T, defaults).cover).toBe(true);
    expect(coverBetween(board(), ally, { x: 1, y: 5 }, T, { ...defaults, characterHeight: 0 }).cover).toBe(false);
  });

  it('Obstructed when both squares beside the source along the dividing line also qualify', () => {
    const wallOfThree = board({ '4,4': 2, '4,5': 2, '4,6': 2 });
    expect(coverBetween(wallOfThree, [], { x: 1, y: 5 }, T, defaults)).toMatchObject({ cover: true, obstructed: true });
    const gap = board({ '4,4': 2, '4,5': 2 });
    expect(coverBetween(gap, [], { x: 1, y: 5 }, T, defaults)).toMatchObject({ cover: true, obstructed: false });
    const oneCharacterBeside = [{ id: 'c', square: { x: 4, y: 6 } }];
    expect(coverBetween(gap, oneCharacterBeside, { x: 1, y: 5 }, T, defaults).obstructed).toBe(true);
  });
});

describe('areas (§5.3)', () => {
  it('Area X is an X×X block, Line X is X squares in a row, column or diagonal', () => {
    expect(areaSquares({ x: 2, y: 2 }, 2)).toEqual([{ x: 2, y: 2 }, { x: 3, y: 2 }, { x: 2, y: 3 }, { x: 3, y: 3 }]);
    expect(areaSquares({ x: 0, y: 0 }, 3)).toHaveLength(9);
    expect(lineSquares({ x: 1, y: 1 }, { x: 1, y: 1 }, 3)).toEqual([{ x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 3 }]);
    expect(lineSquares({ x: 1, y: 1 }, { x: 2, y: 0 }, 3)).toEqual([]);
  });

  it('Aura 1 = 8 squares and Aura 2 = 24, without the centre', () => {
    expect(auraSquares({ x: 5, y: 5 }, 1)).toHaveLength(8);
    expect(auraSquares({ x: 5, y: 5 }, 2)).toHaveLength(24);
    expect(auraSquares({ x: 5, y: 5 }, 2)).not.toContainEqual({ x: 5, y: 5 });
  });

  it('an Area or Line needs a square in range; at Range 0 it must include the user', () => {
    const user = { x: 0, y: 0 };
    expect(placementProblem(areaSquares({ x: 3, y: 3 }, 2), user, 3)).toBeNull();
    expect(placementProblem(areaSquares({ x: 4, y: 4 }, 2), user, 3)).toBe('The area must include at least one square within Range 3.');
    expect(placementProblem(lineSquares({ x: 1, y: 0 }, { x: 1, y: 0 }, 3), user, 0)).toBe('A Range 0 area must include the user\'s own square.');
    expect(placementProblem(lineSquares(user, { x: 1, y: 0 }, 3), user, 0)).toBeNull();
  });
});

describe('step costs (§5.3)', () => {
  it('costs 1, +1 leaving Difficult Terrain, nothing for one level, +1 per level beyond', () => {
    const b = board({ '1,0': 1, '2,0': 3, '4,0': -2 }, ['5,5']);
    expect(stepCost(b, { x: 0, y: 0 }, { x: 1, y: 0 }).cost).toBe(1);
    expect(stepCost(b, { x: 1, y: 0 }, { x: 2, y: 0 }).cost).toBe(2);
    expect(stepCost(b, { x: 0, y: 0 }, { x: 0, y: 1 }).cost).toBe(1);
    expect(stepCost(b, { x: 5, y: 5 }, { x: 5, y: 6 }).cost).toBe(2);
    expect(stepCost(b, { x: 5, y: 6 }, { x: 5, y: 5 }).cost).toBe(1);
  });

  it('a drop of two or more levels may be rolled for at the base cost', () => {
    const b = board({ '0,0': 3 });
    expect(stepCost(b, { x: 0, y: 0 }, { x: 1, y: 0 })).toMatchObject({ cost: 3, dropCost: 1, drop: 3 });
    expect(stepCost(b, { x: 1, y: 0 }, { x: 0, y: 0 })).toMatchObject({ cost: 3, dropCost: null, drop: null });
  });

  it('R-H12 each Slowed stack lowers Speed, never below 0', () => {
    expect(currentSpeed(5, 2, 1)).toBe(3);
    expect(currentSpeed(5, 2, 3)).toBe(0);
  });
});
