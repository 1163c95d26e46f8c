// Filling an event's rolls (fill-rolls.ts): typed faces kept, empty rolls rolled, the given event never changed.
import { describe, expect, it } from 'vitest';
import type { GmEvent, RollRequest } from '../encounter/types.ts';
import { seededEngine } from './dice.ts';
import { fillRolls } from './fill-rolls.ts';

const request = (path: (string | number)[], notation = '2d6'): RollRequest => ({ path, label: 'a roll', notation, count: 2, sides: 6 });

describe('fillRolls', () => {
  it('rolls with the engine it is given: one seed, the same faces', () => {
    const event: GmEvent = { type: 'ATTACK', roll: { faces: [] } };
    const faces = (seed: number) => (fillRolls([request(['roll'], '20d6')], event, seededEngine(seed))['roll'] as { faces: number[] }).faces;
    expect(faces(7)).toEqual(faces(7));
    expect(faces(7)).not.toEqual(faces(8));
  });

  it('gives back the event itself when every roll came typed in', () => {
    const event: GmEvent = { type: 'ATTACK', roll: { faces: [3, 4] }, targets: [{ id: 'a', damage: { faces: [6] } }] };
    expect(fillRolls([request(['roll']), request(['targets', 0, 'damage'], '1d6')], event)).toBe(event);
    expect(fillRolls([], event)).toBe(event);
  });

  it('rolls the empty rolls, deep in objects and arrays, and leaves the given event as it was', () => {
    const event: GmEvent = { type: 'ATTACK', roll: { faces: [] }, note: { text: 'kept' }, targets: [{ id: 'a', damage: null }, { id: 'b', damage: { faces: [5] } }] };
    const before = structuredClone(event);
    const filled = fillRolls([request(['roll']), request(['targets', 0, 'damage'], '1d6'), request(['targets', 1, 'damage'], '1d6')], event);
    expect(event).toEqual(before);
    const roll = filled['roll'] as { faces: number[]; source: string };
    expect(roll.source).toBe('app');
    expect(roll.faces).toHaveLength(2);
    for (const face of roll.faces) {
      expect(face).toBeGreaterThanOrEqual(1);
      expect(face).toBeLessThanOrEqual(6);
    }
    const targets = filled['targets'] as { id: string; damage: { faces: number[]; source?: string } }[];
    expect(Array.isArray(targets)).toBe(true);
    expect(targets[0]!.id).toBe('a');
    expect(targets[0]!.damage.source).toBe('app');
    expect(targets[0]!.damage.faces).toHaveLength(1);
    // What was typed in is kept, and what no roll passes through is shared, not copied.
    expect(targets[1]).toBe((event['targets'] as unknown[])[1]);
    expect(filled['note']).toBe(event['note']);
  });
});
