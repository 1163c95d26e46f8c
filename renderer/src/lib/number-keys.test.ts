// Choosing by number key past nine choices (issue 28: a 12-choice Factions reaction prompt lost its shortcuts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NUMBER_WAIT_MS, NumberKeys } from './number-keys.ts';

describe('NumberKeys', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function picker(count: number) {
    const picked: number[] = [];
    return { keys: new NumberKeys(() => count, (i) => picked.push(i + 1)), picked };
  }

  it('picks at once up to nine choices', () => {
    const { keys, picked } = picker(9);
    expect(keys.press('1')).toBe(true);
    expect(keys.press('9')).toBe(true);
    expect(picked).toEqual([1, 9]);
  });

  it('reads 1 then 2 typed quickly as 12 among twelve choices, and 1 alone as 1 after a moment', () => {
    const { keys, picked } = picker(12);
    keys.press('1');
    keys.press('2');
    expect(picked).toEqual([12]);
    keys.press('1');
    expect(picked).toEqual([12]);
    vi.advanceTimersByTime(NUMBER_WAIT_MS);
    expect(picked).toEqual([12, 1]);
  });

  it('picks a digit that starts no longer number at once, and nothing past the count or for 0', () => {
    const { keys, picked } = picker(12);
    keys.press('2');
    keys.press('0');
    keys.press('1');
    keys.press('5');
    vi.advanceTimersByTime(NUMBER_WAIT_MS);
    expect(picked).toEqual([2]);
  });

  it('ignores other keys and an empty list', () => {
    expect(picker(3).keys.press('a')).toBe(false);
    expect(picker(0).keys.press('1')).toBe(false);
  });
});
