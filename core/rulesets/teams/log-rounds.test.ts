// A log line belongs to the round it happened in (issue 28, point 7): the last member to act in round 1 is knocked
// out on its own turn, which ends the turn and the round at once (R-T3); the damage and the GM's answer are logged
// under round 1, and only the lines the turnover adds under round 2 — in the runner's log and in every export.
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../encounter/types.ts';
import { fight, pick, seed, turns } from './testing.ts';

describe('log lines and their round', () => {
  it("the knock-out that ends round 1's last turn is logged in round 1; the new round's lines in round 2", () => {
    const e = fight([seed('roland', 'party')], [seed('guard', 'gm')]);
    turns(e, ['roland']);
    pick(e, 'guard');
    const lines: LogLine[] = [...e.apply({ type: 'APPLY_DAMAGE', targetId: 'guard', amount: 18, source: 'a falling beam' })];
    lines.push(...e.apply({ type: 'CONSCIOUSNESS', decision: 'unconscious' }));
    expect(e.view().round).toBe(2);
    expect(lines.find((l) => l.kind === 'damage')).toMatchObject({ round: 1 });
    const newRound = lines.findIndex((l) => l.kind === 'round');
    expect(newRound).toBeGreaterThan(0);
    expect(lines.slice(0, newRound).map((l) => [l.round, l.text])).toEqual(lines.slice(0, newRound).map((l) => [1, l.text]));
    expect(lines.slice(newRound).map((l) => [l.round, l.text])).toEqual(lines.slice(newRound).map((l) => [2, l.text]));
  });
});
