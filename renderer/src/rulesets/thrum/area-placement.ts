// Placing an area attack's squares on Thrum's board (RULES.md §5.3): the squares the GM clicks (or a shape anchored
// on one) become the Attack form's "Area squares" text, and the board reads back who stands inside and whether the
// rules would refuse the placement. The engine judges the attack again when it is sent (combat.ts `areaProblem`);
// this is the same judgement made early, with the same grid functions, so the GM reads the sentence before confirming.
import type { BoardView } from '../../../../core/encounter/types.ts';
import {
  areaSquares, auraSquares, coverBetween, keyOf, lineSquares, parseSquareList, placementProblem, squareLabel, type Square,
} from '../../../../core/rulesets/thrum/grid.ts';

export type Piece = BoardView['pieces'][number];
export type AreaShape = 'none' | 'area' | 'line' | 'aura';

/** The squares as the form's text: "x,y" each, in the order placed ("2,1 2,2"). */
export const squaresText = (squares: readonly Square[]): string => squares.map((s) => `${s.x},${s.y}`).join(' ');

/** The form's text read back as squares; text that is not a square list reads as none (the engine names the fault). */
export const readSquares = (text: unknown): Square[] => (typeof text === 'string' ? (parseSquareList(text) ?? []) : []);

const onBoard = (board: Pick<BoardView, 'width' | 'height'>, s: Square) => s.x >= 0 && s.y >= 0 && s.x < board.width && s.y < board.height;

/** One square clicked with no shape: added when it is not in the area, taken out when it is. */
export function toggleSquare(squares: readonly Square[], square: Square): Square[] {
  const key = keyOf(square);
  return squares.some((s) => keyOf(s) === key) ? squares.filter((s) => keyOf(s) !== key) : [...squares, square];
}

/**
 * The squares a shape covers when anchored on `anchor`: Area X with `anchor` as its top-left corner, Aura X around
 * it, Line X from the user towards it (along a row, column or diagonal; the user's own square is not in the line).
 * Squares off the map are left out. Null for no shape, or a line with no user on the map or aimed at the user.
 */
export function shapeAt(board: Pick<BoardView, 'width' | 'height'>, shape: AreaShape, anchor: Square, size: number, user: Square | null): Square[] | null {
  let squares: Square[];
  if (shape === 'area') squares = areaSquares(anchor, size);
  else if (shape === 'aura') squares = auraSquares(anchor, size);
  else if (shape === 'line') {
    if (!user) return null;
    const step = { x: Math.sign(anchor.x - user.x), y: Math.sign(anchor.y - user.y) };
    if (!step.x && !step.y) return null;
    squares = lineSquares({ x: user.x + step.x, y: user.y + step.y }, step, size);
  } else return null;
  return squares.filter((s) => onBoard(board, s));
}

export interface AreaDraft {
  squares: readonly Square[];
  /** The attack's Range; null or undefined when the form leaves it empty (the GM judges it). */
  range?: number | null | undefined;
  attackType?: 'physical' | 'mental' | string | undefined;
  /** The targets ticked in the form: each must stand inside the area. */
  listed?: readonly { id: string; name: string }[] | undefined;
}

export interface AreaReading {
  /** The pieces standing in the area, in the board's order. */
  inside: Piece[];
  /** The sentence the rules would refuse this placement with, or null when they accept it (or nothing is placed). */
  problem: string | null;
}

/**
 * Who the area holds and whether it may be placed there (§5.3, §5.4 step 9): "Area and Line effects must have at
 * least one space within the range of the ability that places it. If the ability has Range 0, the ability user's
 * space must be in the area." A physical area reaches characters behind an obstruction only "provided some other
 * space in the area is not obstructed": every space Obstructed, it is refused.
 */
export function readArea(board: BoardView, attacker: Piece | null, draft: AreaDraft): AreaReading {
  const keys = new Set(draft.squares.map(keyOf));
  const inside = board.pieces.filter((p) => keys.has(keyOf(p)));
  return { inside, problem: areaProblem(board, attacker, draft, inside) };
}

function areaProblem(board: BoardView, attacker: Piece | null, draft: AreaDraft, inside: Piece[]): string | null {
  const { squares } = draft;
  if (squares.length === 0) return null;
  const outside = (draft.listed ?? []).find((t) => !inside.some((p) => p.id === t.id));
  if (outside) return `${outside.name} stands outside the area: an area's targets are the characters inside it.`;
  const off = squares.find((s) => !onBoard(board, s));
  if (off) return `${squareLabel(off)} is off the map.`;
  if (new Set(squares.map(keyOf)).size !== squares.length) return 'Each square of the area is listed once.';
  if (!attacker) return 'Place the attacker on the map first: the area is judged from their square.';
  const user = { x: attacker.x, y: attacker.y };
  if (draft.range !== null && draft.range !== undefined) {
    const problem = placementProblem([...squares], user, draft.range);
    if (problem) return problem;
  }
  if (draft.attackType === 'physical' && board.cover) {
    const occupants = board.pieces.map((p) => ({ id: p.id, square: { x: p.x, y: p.y } }));
    const open = squares.some((s) => !coverBetween(board, occupants, user, s, board.cover!).obstructed);
    if (!open) {
      return squares.length === 1
        ? `The path to ${squareLabel(squares[0]!)} is Obstructed, and the area has no other space: it reaches nobody there.`
        : 'Every space of the area is Obstructed from the attacker: an area reaches a character behind an obstruction only through some other space that is not.';
    }
  }
  if (inside.length === 0) return 'Nobody stands in the area.';
  return null;
}

/** The Attack form's Range field as a number, or null when it is empty. */
export function rangeOf(value: unknown): number | null {
  if (value === '' || value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isInteger(n) ? n : null;
}
