// A log line belongs to the round it happened in (issue 28, point 7). In Thrum only END_TURN turns a round over (an
// Incapacitated character's turn still waits for it), and its line already took the round before: this holds that,
// with the Orc, last in round 1, Exhausted and failing the Incapacity Roll after its Action.
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../encounter/types.ts';
import { app, fight, seed } from './testing.ts';

describe('log lines and their round', () => {
  it("the roll and the end of round 1's last turn is logged in round 1; the new round's lines in round 2", () => {
    const e = fight([seed('ana', 'party'), seed('imp', 'foes'), seed('orc', 'foes', { fatigueTolerance: 1, baseFatigueTolerance: 1 })]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'fatigue', amount: 3, source: 'a long climb' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    expect(e.view()).toMatchObject({ round: 1, prompt: { kind: 'incapacityRoll', subjectId: 'orc' } });
    const lines: LogLine[] = e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'orc', roll: app(1, 1) });
    lines.push(...e.apply({ type: 'END_TURN' }));
    expect(e.view().round).toBe(2);
    expect(lines[0]).toMatchObject({ round: 1, kind: 'decision', text: expect.stringContaining('Incapacity Roll') });
    const newRound = lines.findIndex((l) => l.kind === 'round');
    expect(newRound).toBeGreaterThan(0);
    expect(lines.slice(0, newRound).map((l) => [l.round, l.text])).toEqual(lines.slice(0, newRound).map((l) => [1, l.text]));
    expect(lines.slice(newRound).map((l) => [l.round, l.text])).toEqual(lines.slice(newRound).map((l) => [2, l.text]));
  });
});
