import { describe, expect, it } from 'vitest';
import { agrees, counted, isPluralName, possessive } from './words.ts';

describe('counted', () => {
  it('says one thing in the singular and any other count in the plural', () => {
    expect(counted(1, 'encounter')).toBe('1 encounter');
    expect(counted(0, 'encounter')).toBe('0 encounters');
    expect(counted(2, 'injury or wound', 'injuries and wounds')).toBe('2 injuries and wounds');
    expect(counted(12_500, 'line')).toBe('12,500 lines');
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
