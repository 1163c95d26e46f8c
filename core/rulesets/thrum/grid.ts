// Thrum's square grid as pure functions (RULES.md §5.3 "Grid and movement", §5.4 step 9 "Cover geometry"):
// Chebyshev distance, Area / Line / Aura footprints, step costs with elevation and difficult terrain, drops of two
// or more levels, occupancy, and cover and Obstructed from higher terrain or characters. No state, no rules flow.

export interface Square {
  x: number;
  y: number;
}

/** The combat map: squares off the baseline keep their elevation; `difficult` and `startingArea` list squares. */
export interface Board {
  width: number;
  height: number;
  /** "x,y" → elevation; squares not listed are at Elevation 0. */
  elevation: Record<string, number>;
  /** "x,y" of Difficult Terrain squares. */
  difficult: string[];
  /** "x,y" of the GM's Starting Area for Round Zero (empty: anywhere on the map). */
  startingArea: string[];
}

export const keyOf = (s: Square): string => `${s.x},${s.y}`;
export const sameSquare = (a: Square, b: Square): boolean => a.x === b.x && a.y === b.y;
export const squareLabel = (s: Square): string => `(${s.x},${s.y})`;

/** Distance is the longer of the column and row differences (Chebyshev): 7 west and 4 north is 7 (THRUM-03). */
export function distance(a: Square, b: Square): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
}

/** Range X reaches every target at distance X or less. */
export const inRange = (a: Square, b: Square, range: number): boolean => distance(a, b) <= range;

/** The 8 orthogonal and diagonal neighbours. */
export const isAdjacent = (a: Square, b: Square): boolean => distance(a, b) === 1;

export const elevationAt = (board: Board, s: Square): number => board.elevation[keyOf(s)] ?? 0;
export const isDifficult = (board: Board, s: Square): boolean => board.difficult.includes(keyOf(s));
export const onBoard = (board: Board, s: Square): boolean => s.x >= 0 && s.y >= 0 && s.x < board.width && s.y < board.height;
export const inStartingArea = (board: Board, s: Square): boolean => board.startingArea.length === 0 || board.startingArea.includes(keyOf(s));

// ---- areas (§5.3 "Areas") ----

/** Area X: the X×X block whose top-left square is `corner`. */
export function areaSquares(corner: Square, size: number): Square[] {
  const squares: Square[] = [];
  for (let dy = 0; dy < size; dy += 1) for (let dx = 0; dx < size; dx += 1) squares.push({ x: corner.x + dx, y: corner.y + dy });
  return squares;
}

/** Line X: X consecutive squares from `start` along a row, column or diagonal (`step` components in −1..1). */
export function lineSquares(start: Square, step: Square, length: number): Square[] {
  if (Math.abs(step.x) > 1 || Math.abs(step.y) > 1 || (step.x === 0 && step.y === 0)) return [];
  return Array.from({ length }, (_, i) => ({ x: start.x + i * step.x, y: start.y + i * step.y }));
}

/** Aura X: every square within distance X of the centre, except the centre itself (Aura 1 = 8, Aura 2 = 24). */
export function auraSquares(centre: Square, size: number): Square[] {
  const squares: Square[] = [];
  for (let dy = -size; dy <= size; dy += 1) for (let dx = -size; dx <= size; dx += 1) if (dx !== 0 || dy !== 0) squares.push({ x: centre.x + dx, y: centre.y + dy });
  return squares;
}

/**
 * An Area or Line must include a square within the ability's range; with Range 0 it must include the user's own
 * square. Auras move with their centre and have no placement rule.
 */
export function placementProblem(squares: Square[], user: Square, range: number): string | null {
  if (squares.length === 0) return 'The area has no squares.';
  if (range === 0) return squares.some((s) => sameSquare(s, user)) ? null : 'A Range 0 area must include the user\'s own square.';
  return squares.some((s) => inRange(user, s, range)) ? null : `The area must include at least one square within Range ${range}.`;
}

/**
 * Squares typed as text, "x,y" each, separated by spaces, semicolons or brackets: "2,1 2,2" or "(2,1) (2,2)".
 * Null when anything else is in the text.
 */
export function parseSquareList(text: string): Square[] | null {
  const squares: Square[] = [];
  const rest = text.replace(/\(?\s*(\d+)\s*,\s*(\d+)\s*\)?/g, (_all, x: string, y: string) => {
    squares.push({ x: Number(x), y: Number(y) });
    return ' ';
  });
  return /^[\s;]*$/.test(rest) ? squares : null;
}

// ---- movement (§5.3 "Step costs", R-H12) ----

export interface Step {
  from: Square;
  to: Square;
  /** Squares of movement this step costs when the mover pays for elevation. */
  cost: number;
  /** The cost when the mover rolls for a drop of two or more levels instead (base cost only). */
  dropCost: number | null;
  /** Levels dropped (from − to) when it is two or more; null otherwise. */
  drop: number | null;
}

/**
 * One step to an adjacent square: 1, +1 for leaving Difficult Terrain, +1 for each elevation level beyond the first.
 * A drop of two or more levels may be made for the base cost with an Endurance or Reflex roll instead.
 */
export function stepCost(board: Board, from: Square, to: Square): Step {
  const base = 1 + (isDifficult(board, from) ? 1 : 0);
  const change = elevationAt(board, to) - elevationAt(board, from);
  const extra = Math.max(0, Math.abs(change) - 1);
  const drop = -change >= 2 ? -change : null;
  return { from, to, cost: base + extra, dropCost: drop === null ? null : base, drop };
}

/** Speed after Slowed: each stack takes `perStack` squares off (R-H12), never below 0. */
export const currentSpeed = (speed: number, slowedStacks: number, perStack: number): number => Math.max(0, speed - slowedStacks * perStack);

// ---- cover (§5.4 step 9, R-H13, R-H14) ----

export interface Occupant {
  id: string;
  square: Square;
}

export interface CoverSource {
  square: Square;
  /** Terrain: its elevation; a character: its square's elevation + the character height (R-H13). */
  height: number;
  kind: 'terrain' | 'character';
}

/** A square qualifies as cover for a target: terrain +2 or more above the target's square, or a character in it. */
export function coverSourceAt(board: Board, occupants: Occupant[], target: Square, s: Square, characterHeight: number): CoverSource | null {
  const terrain = elevationAt(board, s);
  const terrainHigh = terrain >= elevationAt(board, target) + 2;
  const occupied = occupants.some((o) => sameSquare(o.square, s));
  if (!terrainHigh && !occupied) return null;
  const height = Math.max(terrainHigh ? terrain : -Infinity, occupied ? terrain + characterHeight : -Infinity);
  return { square: s, height, kind: occupied && height === terrain + characterHeight ? 'character' : 'terrain' };
}

export interface CoverResult {
  cover: boolean;
  obstructed: boolean;
  /** The squares giving cover (for the log and the board). */
  sources: Square[];
  /** Sources whose dividing line the attacker stands on (no cover by R-H14). */
  onLine: Square[];
}

/**
 * Cover for a physical attack from A on T. For each adjacent source S with d = S − T, the dividing line runs
 * through S at right angles to d; cover applies when (A − S)·d > 0 (the far side) and A stands lower than the
 * source's height. On the line itself: no cover (R-H14) unless `onLineGivesCover`. Obstructed when a source gives
 * cover and both squares beside it along the dividing line also qualify as cover sources.
 */
export function coverBetween(
  board: Board,
  occupants: Occupant[],
  attacker: Square,
  target: Square,
  options: { characterHeight: number; onLineGivesCover: boolean },
): CoverResult {
  const others = occupants.filter((o) => !sameSquare(o.square, target) && !sameSquare(o.square, attacker));
  const attackerElevation = elevationAt(board, attacker);
  const result: CoverResult = { cover: false, obstructed: false, sources: [], onLine: [] };
  for (const s of auraSquares(target, 1)) {
    const source = coverSourceAt(board, others, target, s, options.characterHeight);
    if (!source) continue;
    const d = { x: s.x - target.x, y: s.y - target.y };
    const side = (attacker.x - s.x) * d.x + (attacker.y - s.y) * d.y;
    const lower = attackerElevation < source.height;
    if (side === 0 && lower) result.onLine.push(s);
    const far = side > 0 || (side === 0 && options.onLineGivesCover);
    if (!far || !lower) continue;
    result.cover = true;
    result.sources.push(s);
    const beside = [{ x: s.x - d.y, y: s.y + d.x }, { x: s.x + d.y, y: s.y - d.x }];
    if (beside.every((b) => coverSourceAt(board, others, target, b, options.characterHeight) !== null)) result.obstructed = true;
  }
  return result;
}

/** An empty board for encounters run without one (the GM gives range and cover instead). */
export const emptyBoard = (width = 0, height = 0): Board => ({ width, height, elevation: {}, difficult: [], startingArea: [] });
