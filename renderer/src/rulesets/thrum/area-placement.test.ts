// Placing an area on Thrum's board (RULES.md §5.3 "Areas"): the squares clicked become the form's text, the board
// reads who is inside, and the sentence it shows before the GM confirms is the one the engine refuses the attack with.
import { describe, expect, it } from 'vitest';
import type { BoardView, GmEvent } from '../../../../core/encounter/types.ts';
import type { EncounterEngine } from '../../../../core/encounter/kernel.ts';
import { attack, fight, seed } from '../../../../core/rulesets/thrum/testing.ts';
import { readArea, readSquares, shapeAt, squaresText, toggleSquare, type AreaDraft } from './area-placement.ts';

const sq = (x: number, y: number) => ({ x, y });
const map = (elevation: Record<string, number> = {}): GmEvent => ({ type: 'SET_MAP', map: { width: 12, height: 12, elevation, difficult: [], startingArea: [] } });
const place = (id: string, x: number, y: number): GmEvent => ({ type: 'SET_POSITION', combatantId: id, square: { x, y }, note: '' });

/** Ana (party) at (1,5), Orc behind a wall of +2 at (4,4)–(4,6) on (5,5), Gob far off at (9,9). */
function walled(): EncounterEngine {
  const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], {}, [map({ '4,4': 2, '4,5': 2, '4,6': 2 })]);
  e.apply(place('orc', 5, 5));
  e.apply(place('gob', 9, 9));
  e.apply(place('ana', 1, 5));
  return e;
}
const boardOf = (e: EncounterEngine) => e.view().board as BoardView;
const reading = (e: EncounterEngine, draft: AreaDraft) => {
  const board = boardOf(e);
  return readArea(board, board.pieces.find((p) => p.id === 'ana') ?? null, draft);
};
/** The engine's own sentence for the same attack, or null when it accepts it. */
const engineSays = (e: EncounterEngine, draft: AreaDraft) =>
  e.refusal(attack('ana', (draft.listed ?? []).map((t) => t.id), { squares: [...draft.squares], attackType: draft.attackType ?? 'physical', ...(draft.range !== undefined ? { range: draft.range } : {}) }));

describe('the form\'s squares text', () => {
  it('clicks add a square and take it out again; the text reads back as the same squares', () => {
    let squares = toggleSquare([], sq(2, 1));
    squares = toggleSquare(squares, sq(3, 1));
    expect(squaresText(squares)).toBe('2,1 3,1');
    expect(squaresText(toggleSquare(squares, sq(2, 1)))).toBe('3,1');
    expect(readSquares('2,1 3,1')).toEqual([sq(2, 1), sq(3, 1)]);
    // Typing keeps working: whatever the GM typed is what the board shows; text that is no square list shows nothing.
    expect(readSquares('(4,4); 5,5')).toEqual([sq(4, 4), sq(5, 5)]);
    expect(readSquares('north of Orc')).toEqual([]);
  });

  it('a shape anchored on a square: Area X from its corner, Aura X around it, Line X from the user towards it; off the map left out', () => {
    const board = { width: 6, height: 6 };
    expect(shapeAt(board, 'area', sq(4, 4), 3, null)).toEqual([sq(4, 4), sq(5, 4), sq(4, 5), sq(5, 5)]);
    expect(shapeAt(board, 'aura', sq(0, 0), 1, null)).toEqual([sq(1, 0), sq(0, 1), sq(1, 1)]);
    expect(shapeAt(board, 'line', sq(4, 1), 3, sq(1, 1))).toEqual([sq(2, 1), sq(3, 1), sq(4, 1)]);
    expect(shapeAt(board, 'line', sq(1, 1), 3, sq(1, 1))).toBeNull();
    expect(shapeAt(board, 'none', sq(1, 1), 3, sq(1, 1))).toBeNull();
  });
});

describe('the board reads the placement as the engine judges it', () => {
  // source: "Area and Line effects must have at least one space within the range of the ability that places it."
  // source: "If the ability has Range 0, the ability user's space must be in the area."
  // source: "characters can still be affected by areas however, provided some other space in the area is not obstructed"
  const cases: [string, AreaDraft][] = [
    ['in range, open', { squares: [sq(5, 5), sq(6, 5)], range: 6, attackType: 'physical' }],
    ['beyond the range', { squares: [sq(9, 9)], range: 3, attackType: 'physical' }],
    ['Range 0 without the user\'s square', { squares: [sq(2, 5), sq(5, 5)], range: 0, attackType: 'physical' }],
    ['Range 0 with the user\'s square', { squares: [sq(1, 5), sq(2, 5)], range: 0, attackType: 'physical' }],
    ['one Obstructed space', { squares: [sq(5, 5)], attackType: 'physical' }],
    ['one Obstructed space, mental', { squares: [sq(5, 5)], attackType: 'mental' }],
    ['every space Obstructed', { squares: [sq(5, 5), sq(5, 4)], attackType: 'physical' }],
    ['nobody inside', { squares: [sq(7, 1)], attackType: 'physical' }],
    ['off the map', { squares: [sq(12, 1)], attackType: 'physical' }],
    // A target ticked in the form must stand inside: "Abilities that target an Area affect all characters in the area".
    ['a ticked target outside the area', { squares: [sq(5, 5), sq(6, 5)], attackType: 'physical', listed: [{ id: 'gob', name: 'Gob' }] }],
    ['a ticked target inside the area', { squares: [sq(5, 5), sq(6, 5)], attackType: 'physical', listed: [{ id: 'orc', name: 'Orc' }] }],
  ];
  it.each(cases)('%s: the board shows the engine\'s sentence before the GM confirms', (_name, draft) => {
    const e = walled();
    expect(reading(e, draft).problem).toBe(engineSays(e, draft));
  });

  it('the sentences are the rules\' refusals, not silence', () => {
    const e = walled();
    expect(reading(e, { squares: [sq(9, 9)], range: 3, attackType: 'physical' }).problem).toBe('The area must include at least one square within Range 3.');
    expect(reading(e, { squares: [sq(2, 5)], range: 0, attackType: 'physical' }).problem).toBe('A Range 0 area must include the user\'s own square.');
    expect(reading(e, { squares: [sq(5, 5)], attackType: 'physical' }).problem).toMatch(/^The path to \(5,5\) is Obstructed/);
  });

  it('who is inside: everyone standing on a square of the area, allies and the user too (R-H10)', () => {
    const e = walled();
    expect(reading(e, { squares: [sq(1, 5), sq(5, 5), sq(6, 5)], attackType: 'mental' }).inside.map((p) => p.name)).toEqual(['Ana', 'Orc']);
    expect(reading(e, { squares: [], attackType: 'physical' })).toEqual({ inside: [], problem: null });
  });
});
