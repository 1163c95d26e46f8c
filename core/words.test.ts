import { describe, expect, it, vi } from 'vitest';
import { agrees, counted, grouped, isPluralName, possessive } from './words.ts';

describe('counted', () => {
  it('says one thing in the singular and any other count in the plural', () => {
    expect(counted(1, 'encounter')).toBe('1 encounter');
    expect(counted(0, 'encounter')).toBe('0 encounters');
    expect(counted(2, 'injury or wound', 'injuries and wounds')).toBe('2 injuries and wounds');
    expect(counted(12_500, 'line')).toBe('12,500 lines');
  });
});

describe('grouped', () => {
  it("writes a whole number as toLocaleString('en') does, without Intl (its first call loads the locale's data)", () => {
    const toLocaleString = vi.spyOn(Number.prototype, 'toLocaleString');
    const numbers = [0, 1, -1, 7, 12, 999, 1_000, -1_000, 12_500, 100_000, 999_999, 1_000_000, -12_345_678, 2 ** 31, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    const written = numbers.map(grouped);
    expect(counted(1_234, 'encounter')).toBe('1,234 encounters');
    expect(toLocaleString).not.toHaveBeenCalled();
    toLocaleString.mockRestore();
    expect(written).toEqual(numbers.map((n) => n.toLocaleString('en')));
  });
  it('leaves other numbers to Intl', () => {
    expect([1234.5678, -0.5, Infinity, 2 ** 60].map(grouped)).toEqual([1234.5678, -0.5, Infinity, 2 ** 60].map((n) => n.toLocaleString('en')));
  });
});

describe('a side\'s name in a sentence', () => {
  it('reads a name ending in a plural "s" as a plural: "Enemies\' go", "Enemies send"', () => {
    expect(`${possessive('Enemies')} go`).toBe("Enemies' go");
    expect(agrees('Enemies', 'sends', 'send')).toBe('Enemies send');
    expect(agrees('Bandits', 'holds', 'hold')).toBe('Bandits hold');
  });
  it('reads any other name as a singular: "Party\'s go", "The Watch sends", "Boss\'s"', () => {
    expect(possessive('Party')).toBe("Party's");
    expect(agrees('The Watch', 'sends', 'send')).toBe('The Watch sends');
    expect(possessive('Boss')).toBe("Boss's");
    expect(isPluralName('  Wolves ')).toBe(true);
  });
});
