import { describe, expect, it } from 'vitest';
import { DiceError, enterFaces, roll, seededEngine } from './dice.ts';

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

  it('refuses notation it cannot read', () => {
    expect(() => roll('2x6')).toThrow(/not a dice notation/);
    expect(() => roll('')).toThrow(/Type a dice notation/);
    expect(() => roll('1d6+'.repeat(100))).toThrow(/at most 100 characters/);
  });
});
