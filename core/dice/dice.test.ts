import { DiceRoll, NumberGenerator } from '@dice-roller/rpg-dice-roller';
import { describe, expect, it } from 'vitest';
import { DiceError, enterFaces, loadNotationLibrary, notationLibraryLoaded, roll, seededEngine, type DiceEngine } from './dice.ts';

/** The library's own reading of a notation, drawing from `engine` (what every roll went through before). */
function libraryRoll(notation: string, engine: DiceEngine) {
  const generator = NumberGenerator.generator;
  const previous = generator.engine;
  generator.engine = engine as typeof previous;
  try {
    const result = new DiceRoll(notation);
    const faces = (result.rolls as unknown[]).flatMap((part) =>
      part && typeof part === 'object' && 'rolls' in part && Array.isArray(part.rolls) ? part.rolls.map((face: { value: number }) => face.value) : []);
    return { notation: result.notation, faces, total: result.total, output: result.output, source: 'app' };
  } finally {
    generator.engine = previous;
  }
}

/** The forms the rulesets roll, and their edges: every die size drawn differently by random-js, keeps, sums. */
const COMMON_FORMS = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20, 100, 1000, 65536, 999999].map((sides) => `1d${sides}`),
  ...[2, 3, 4, 6, 12].flatMap((count) => [`${count}d6`, `${count}d20kh1`, `${count}d20kl1`, `${count}d8kh${count}`, `${count}d10kl${count}`]),
  '4d6kh3+2', '4d6kl2-1', '3d6-1', '2d6+1', '1d6+0', '1d8+1d12', '1d8+1d12+1d6+1d4', '1d8+1d12-2', '1d6-1d4', '5+1d6', '7', '10d3', '100d2',
];

describe('the common forms', () => {
  it('roll exactly as the notation library did: the same faces, total, output and draws from the engine', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      // One engine each, every form in turn: a draw more or less anywhere would shift every later roll.
      const ours = seededEngine(seed);
      const theirs = seededEngine(seed);
      for (const notation of COMMON_FORMS) expect(roll(notation, ours), `${notation}, seed ${seed}`).toEqual(libraryRoll(notation, theirs));
    }
  });

  it('take typed faces exactly as the notation library did', () => {
    for (const notation of COMMON_FORMS.filter((n) => n !== '1d1')) {
      const rolled = libraryRoll(notation, seededEngine(notation.length));
      expect(enterFaces(notation, rolled.faces)).toEqual({ ...rolled, source: 'manual' });
    }
    // A d1 draws nothing from the engine (random-js returns its only face), so a typed face is one too many, as before.
    expect(() => enterFaces('1d1', [1])).toThrow('1d1 rolls 0 dice, but 1 face was entered.');
  });

  it('leave the notation library unloaded, and refuse another notation until it has loaded', async () => {
    expect(notationLibraryLoaded()).toBe(false);
    expect(() => roll('4d6!')).toThrow('The dice roller for "4d6!" is still loading; roll it again in a moment.');
    await loadNotationLibrary();
    expect(notationLibraryLoaded()).toBe(true);
    for (const notation of ['4d6!', 'd6', '3d6dl1', '2d10kh3', '1d6*2', '2d6 + 1']) expect(roll(notation, seededEngine(5))).toEqual(libraryRoll(notation, seededEngine(5)));
  });
});

describe('dice service', () => {
  it('rolls notation with a seeded engine reproducibly', () => {
    const a = roll('4d6kh3+2', seededEngine(7));
    const b = roll('4d6kh3+2', seededEngine(7));
    expect(a).toEqual(b);
    expect(a.faces).toHaveLength(4);
    const kept = [...a.faces].sort((x, y) => y - x).slice(0, 3);
    expect(a.total).toBe(kept.reduce((s, f) => s + f, 0) + 2);
    expect(a.source).toBe('app');
  });

  it('keeps every face within the die', () => {
    const engine = seededEngine(1);
    for (let i = 0; i < 200; i += 1) {
      const r = roll('1d8', engine);
      expect(r.faces[0]).toBeGreaterThanOrEqual(1);
      expect(r.faces[0]).toBeLessThanOrEqual(8);
      expect(r.total).toBe(r.faces[0]);
    }
  });

  it('accepts physical dice typed in and totals them with the modifier', () => {
    const r = enterFaces('2d6+1', [3, 5]);
    expect(r).toMatchObject({ faces: [3, 5], total: 9, source: 'manual' });
    expect(enterFaces('1d10', [10]).total).toBe(10);
    expect(enterFaces('2d20kl1', [17, 4]).total).toBe(4);
  });

  it('refuses faces that do not fit the notation with a sentence', () => {
    expect(() => enterFaces('2d6', [3])).toThrow(/needs more than 1 die\./);
    expect(() => enterFaces('2d6', [3, 4, 5])).toThrow('2d6 rolls 2 dice, but 3 faces were entered.');
    expect(() => enterFaces('1d6', [3, 4])).toThrow('1d6 rolls 1 die, but 2 faces were entered.');
    expect(() => enterFaces('1d6', [7])).toThrow(/7 is not a face/);
    expect(() => enterFaces('1d6', [0])).toThrow(DiceError);
  });

  it('refuses notation it cannot read', async () => {
    await loadNotationLibrary();
    expect(() => roll('2x6')).toThrow(/not a dice notation/);
    expect(() => roll('')).toThrow(/Type a dice notation/);
    expect(() => roll('1d6+'.repeat(100))).toThrow(/at most 100 characters/);
  });
});
