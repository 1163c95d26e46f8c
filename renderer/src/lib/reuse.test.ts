import { describe, expect, it } from 'vitest';
import { reuseUnchanged } from './reuse.ts';

describe('reuseUnchanged', () => {
  const goblin = (lp: number) => ({ id: 'g1', name: 'Goblin 1', health: { current: lp, max: 8 }, tags: ['Hidden'] });
  const ash = () => ({ id: 'a1', name: 'Ash', health: { current: 8, max: 8 }, tags: [] as string[] });

  it('keeps the old object when nothing differs', () => {
    const before = { view: { round: 2, order: [ash(), goblin(8)] } };
    expect(reuseUnchanged(before, structuredClone(before))).toBe(before);
  });

  it('keeps every unchanged row and draws only the changed one anew', () => {
    const before = { view: { round: 2, order: [ash(), goblin(8)] } };
    const after = reuseUnchanged(before, { view: { round: 2, order: [ash(), goblin(5)] } });
    expect(after).not.toBe(before);
    expect(after.view.order[0]).toBe(before.view.order[0]);
    expect(after.view.order[1]).not.toBe(before.view.order[1]);
    expect(after.view.order[1]!.tags).toBe(before.view.order[1]!.tags);
    expect(after.view.order[1]!.health).toEqual({ current: 5, max: 8 });
  });

  it('matches rows by id when the order changes', () => {
    const before = { order: [ash(), goblin(8)] };
    const after = reuseUnchanged(before, { order: [goblin(8), ash()] });
    expect(after.order[0]).toBe(before.order[1]);
    expect(after.order[1]).toBe(before.order[0]);
    expect(after.order).not.toBe(before.order);
  });

  it('keeps an item it already holds as it is, wherever it moved, and compares only the new ones', () => {
    // The runner's log: its window moves on by the oldest event's lines as a write adds the newest.
    const line = (seq: number) => ({ seq, round: 5, kind: 'turn', text: `Turn ${seq}` });
    const before = { log: [line(1), line(2), line(3)] };
    const kept = before.log.slice(1);
    const after = reuseUnchanged(before, { log: [...kept, line(4)] });
    expect(after.log[0]).toBe(before.log[1]);
    expect(after.log[1]).toBe(before.log[2]);
    expect(after.log[2]).toEqual(line(4));
    expect(after.log).toHaveLength(3);
    // Nothing moved: the very array comes back.
    expect(reuseUnchanged(before, { log: [...before.log] }).log).toBe(before.log);
  });

  it('takes added and removed fields and items', () => {
    const before: { order: { id: string; name: string; note?: string }[] } = { order: [{ id: 'a', name: 'A' }] };
    const after = reuseUnchanged(before, { order: [{ id: 'a', name: 'A', note: 'new' }, { id: 'b', name: 'B' }] });
    expect(after).toEqual({ order: [{ id: 'a', name: 'A', note: 'new' }, { id: 'b', name: 'B' }] });
    expect(reuseUnchanged({ a: 1, b: 2 } as Record<string, number>, { a: 1 })).toEqual({ a: 1 });
    expect(reuseUnchanged({ a: [1, 2] }, { a: [1] })).toEqual({ a: [1] });
    expect(reuseUnchanged({ a: null as number | null }, { a: 0 })).toEqual({ a: 0 });
  });
});
