// lastAnswer: the same arguments (by identity) answer again without computing; any other argument computes anew.
import { describe, expect, it } from 'vitest';
import { lastAnswer } from './last-answer.ts';

describe('lastAnswer', () => {
  it('computes once for the same state and event, again for another state, event or extra argument', () => {
    let calls = 0;
    const refusal = lastAnswer((ctx: { hp: number }, event: { type: string }, open: boolean) => {
      calls += 1;
      return ctx.hp > 0 && open ? null : `${event.type} refused`;
    });
    const ctx = { hp: 3 };
    const event = { type: 'ATTACK' };
    expect(refusal(ctx, event, true)).toBeNull();
    expect(refusal(ctx, event, true)).toBeNull();
    expect(calls).toBe(1);
    expect(refusal(ctx, event, false)).toBe('ATTACK refused');
    expect(refusal({ hp: 3 }, event, false)).toBe('ATTACK refused');
    expect(refusal(ctx, { type: 'ATTACK' }, false)).toBe('ATTACK refused');
    expect(calls).toBe(4);
    // An equal but new state is another state: nothing is compared by value.
    expect(refusal({ hp: 0 }, event, true)).toBe('ATTACK refused');
    expect(calls).toBe(5);
  });
});
