// The dice service: notation, a seeded RNG (random-js Mersenne Twister), and manual entry of physical dice. Either
// way the result is a plain record that travels inside the GM event, so a replay never rolls again (GUIDE §2).
// The forms the rulesets roll (NdM, NdMkhK, NdMklK and whole numbers joined by + and -) are read here, drawing
// from the engine exactly as @dice-roller/rpg-dice-roller does; every other notation goes to that library, which
// builds a whole math engine (mathjs) when it loads (about 0.2 s): it is loaded on demand, never with the app.
import type { DiceRoll } from '@dice-roller/rpg-dice-roller';
import { integer, MersenneTwister19937 } from 'random-js';
import { counted } from '../words.ts';

export interface RolledDice {
  notation: string;
  /** Every die face in the order the notation rolled them (dropped dice included). */
  faces: number[];
  total: number;
  /** Readable form, e.g. `2d6+1: [3, 5]+1 = 9`. */
  output: string;
  source: 'app' | 'manual';
}

export interface DiceEngine {
  next(): number;
}

export class DiceError extends Error {}

const MAX_NOTATION = 100;

/** A reproducible engine: the same seed gives the same faces. */
export function seededEngine(seed: number): DiceEngine {
  return MersenneTwister19937.seed(seed);
}

/** A fresh engine seeded from the platform's crypto source. */
export function randomEngine(): DiceEngine {
  const seed = new Uint32Array(1);
  globalThis.crypto.getRandomValues(seed);
  return seededEngine(seed[0]!);
}

interface RolledFace {
  value: number;
}
interface RolledGroup {
  rolls: RolledFace[];
}

function facesOf(roll: DiceRoll): number[] {
  const faces: number[] = [];
  for (const part of roll.rolls as unknown[]) {
    if (part && typeof part === 'object' && 'rolls' in part && Array.isArray((part as RolledGroup).rolls)) {
      for (const face of (part as RolledGroup).rolls) faces.push(face.value);
    }
  }
  return faces;
}

type NotationLibrary = typeof import('@dice-roller/rpg-dice-roller');
let library: NotationLibrary | null = null;
let loading: Promise<NotationLibrary> | null = null;

/**
 * Loads the notation library for the notations the common forms leave out. Until it has loaded, such a notation
 * is refused with a sentence (and starts the load); the app's own rolls never need it. Web mode loads it a little
 * after it starts listening, the CLI before its command.
 */
export function loadNotationLibrary(): Promise<void> {
  loading ??= import('@dice-roller/rpg-dice-roller').then(
    (module) => (library = module),
    (error: unknown) => {
      loading = null; // tried again on the next call
      throw error;
    },
  );
  return loading.then(() => undefined);
}

/** Whether the notation library has been loaded (a start that loads it is slower by its math engine). */
export function notationLibraryLoaded(): boolean {
  return library !== null;
}

// ---- the common forms ----

/** One term of a common form: NdM with an optional keep (khK / klK), or a whole number. */
const TERM = String.raw`(?:([1-9]\d{0,2})d([1-9]\d{0,5})(?:k([hl])([1-9]\d{0,2}))?|(0|[1-9]\d{0,8}))`;
const COMMON_FORM = new RegExp(`^${TERM}(?:[+-]${TERM})*$`);
const TERMS = new RegExp(`([+-]?)${TERM}`, 'g');

interface CommonRoll {
  notation: string;
  faces: number[];
  total: number;
  output: string;
}

/**
 * A common form rolled: faces drawn with random-js's `integer(1, sides)` one die after another (the library's
 * draw), a keep drops the lowest (kh) or highest (kl) dice as the library does (a stable sort by value, the first
 * of equal dice dropped first), and the output reads like the library's (`4d6kh3+2: [1d, 1, 6, 2]+2 = 11`).
 * Null for any other notation (also for a keep of more dice than are rolled, where the library's result is odd).
 */
function rollCommonForm(notation: string, engine: DiceEngine): CommonRoll | null {
  if (!COMMON_FORM.test(notation)) return null;
  const terms = [...notation.matchAll(TERMS)].map(([, sign, count, sides, end, keep, constant]) => ({
    sign: sign === '-' ? -1 : 1, operator: sign ?? '', count: Number(count), sides: Number(sides), end, keep: Number(keep), constant,
  }));
  if (terms.some((t) => t.constant === undefined && t.end !== undefined && t.keep > t.count)) return null;
  const faces: number[] = [];
  const parts: string[] = [];
  let total = 0;
  for (const term of terms) {
    if (term.constant !== undefined) {
      total += term.sign * Number(term.constant);
      parts.push(`${term.operator}${term.constant}`);
      continue;
    }
    const die = integer(1, term.sides);
    const rolled: number[] = [];
    for (let i = 0; i < term.count; i += 1) rolled.push(die(engine));
    const dropped = new Set<number>();
    if (term.end !== undefined) {
      const ascending = rolled.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value).map((r) => r.index);
      const drop = term.end === 'h' ? ascending.slice(0, rolled.length - term.keep) : ascending.slice(term.keep);
      for (const index of drop) dropped.add(index);
    }
    rolled.forEach((face, index) => {
      if (!dropped.has(index)) total += term.sign * face;
    });
    faces.push(...rolled);
    parts.push(`${term.operator}[${rolled.map((face, index) => (dropped.has(index) ? `${face}d` : `${face}`)).join(', ')}]`);
  }
  return { notation, faces, total, output: `${notation}: ${parts.join('')} = ${total}` };
}

// ---- every other notation, through the library ----

function withEngine<T>(lib: NotationLibrary, engine: DiceEngine, run: () => T): T {
  const generator = lib.NumberGenerator.generator;
  const previous = generator.engine;
  generator.engine = engine as typeof previous;
  try {
    return run();
  } finally {
    generator.engine = previous;
  }
}

function parse(notation: string, engine: DiceEngine): CommonRoll {
  const trimmed = notation.trim();
  if (trimmed.length === 0) throw new DiceError('Type a dice notation such as 1d8 or 2d6+1.');
  if (trimmed.length > MAX_NOTATION) throw new DiceError(`A dice notation is at most ${MAX_NOTATION} characters.`);
  const common = rollCommonForm(trimmed, engine);
  if (common) return common;
  const lib = library;
  if (!lib) {
    loadNotationLibrary().catch(() => undefined); // refused now, read once it has loaded
    throw new DiceError(`The dice roller for "${trimmed}" is still loading; roll it again in a moment.`);
  }
  try {
    const result: DiceRoll = withEngine(lib, engine, () => new lib.DiceRoll(trimmed));
    return { notation: result.notation, faces: facesOf(result), total: result.total, output: result.output };
  } catch (error) {
    if (error instanceof DiceError) throw error;
    throw new DiceError(`"${trimmed}" is not a dice notation this app understands (try 1d8, 2d6+1 or 2d20kh1).`);
  }
}

export function roll(notation: string, engine: DiceEngine = randomEngine()): RolledDice {
  const result = parse(notation, engine);
  return { notation: result.notation, faces: result.faces, total: result.total, output: result.output, source: 'app' };
}

/**
 * Manual entry: the faces a GM read off physical dice, checked against the notation. The faces are fed to the
 * same roller through a scripted engine (random-js maps an engine value v to face v + 1 for every die size), so
 * modifiers, keep/drop and totals follow the notation exactly as for an app roll.
 */
export function enterFaces(notation: string, faces: readonly number[]): RolledDice {
  const queue = [...faces];
  let drawn = 0;
  const scripted: DiceEngine = {
    next() {
      const face = queue[drawn];
      drawn += 1;
      if (face === undefined) throw new DiceError(`${notation.trim()} needs more than ${counted(faces.length, 'die', 'dice')}.`);
      return face - 1;
    },
  };
  for (const face of faces) {
    if (!Number.isInteger(face) || face < 1) throw new DiceError('Each die face is a whole number of 1 or more.');
  }
  const result = parse(notation, scripted);
  const rolled = result.faces;
  if (drawn !== faces.length) throw new DiceError(`${result.notation} rolls ${counted(drawn, 'die', 'dice')}, but ${counted(faces.length, 'face')} ${faces.length === 1 ? 'was' : 'were'} entered.`);
  for (let i = 0; i < faces.length; i += 1) {
    if (rolled[i] !== faces[i]) throw new DiceError(`${faces[i]} is not a face of the dice in ${result.notation}.`);
  }
  return { notation: result.notation, faces: rolled, total: result.total, output: result.output, source: 'manual' };
}
