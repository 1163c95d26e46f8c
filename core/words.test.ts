import { describe, expect, it } from 'vitest';
import { counted } from './words.ts';

describe('counted', () => {
  it('says one thing in the singular and any other count in the plural', () => {
    expect(counted(1, 'encounter')).toBe('1 encounter');
    expect(counted(0, 'encounter')).toBe('0 encounters');
    expect(counted(2, 'injury or wound', 'injuries and wounds')).toBe('2 injuries and wounds');
    expect(counted(12_500, 'line')).toBe('12,500 lines');
  });
});
