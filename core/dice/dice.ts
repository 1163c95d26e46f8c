// The dice service: notation through @dice-roller/rpg-dice-roller, a seeded RNG (random-js Mersenne Twister),
// and manual entry of physical dice. Either way the result is a plain record that travels inside the GM event,
// so a replay never rolls again (GUIDE §2).
import { DiceRoll, NumberGenerator } from '@dice-roller/rpg-dice-roller';
import { MersenneTwister19937 } from 'random-js';
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

function withEngine<T>(engine: DiceEngine, run: () => T): T {
  const generator = NumberGenerator.generator;
  const previous = generator.engine;
  generator.engine = engine as typeof previous;
  try {
    return run();
  } finally {
    generator.engine = previous;
  }
}

function parse(notation: string, engine: DiceEngine): DiceRoll {
  const trimmed = notation.trim();
  if (trimmed.length === 0) throw new DiceError('Type a dice notation such as 1d8 or 2d6+1.');
  if (trimmed.length > MAX_NOTATION) throw new DiceError(`A dice notation is at most ${MAX_NOTATION} characters.`);
  try {
    return withEngine(engine, () => new DiceRoll(trimmed));
  } catch (error) {
    if (error instanceof DiceError) throw error;
    throw new DiceError(`"${trimmed}" is not a dice notation this app understands (try 1d8, 2d6+1 or 2d20kh1).`);
  }
}

export function roll(notation: string, engine: DiceEngine = randomEngine()): RolledDice {
  const result = parse(notation, engine);
  return { notation: result.notation, faces: facesOf(result), total: result.total, output: result.output, source: 'app' };
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
  const rolled = facesOf(result);
  if (drawn !== faces.length) throw new DiceError(`${result.notation} rolls ${counted(drawn, 'die', 'dice')}, but ${counted(faces.length, 'face')} ${faces.length === 1 ? 'was' : 'were'} entered.`);
  for (let i = 0; i < faces.length; i += 1) {
    if (rolled[i] !== faces[i]) throw new DiceError(`${faces[i]} is not a face of the dice in ${result.notation}.`);
  }
  return { notation: result.notation, faces: rolled, total: result.total, output: result.output, source: 'manual' };
}
