// A log line belongs to the round it happened in (issue 28, point 7): the damage and the moment that close round 1
// are logged under round 1, and only the line the turnover adds ("Round 2: declare intents.") under round 2 — in the
// runner's log and in every export, which read the same lines.
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../encounter/types.ts';
import { app, fight, intend, lock, seed } from './testing.ts';

describe('log lines and their round', () => {
  it("the damage and the moment that close round 1 are logged in round 1, the new round's heading in round 2", () => {
    const e = fight([seed('bram', 'party', { weaponDie: 6 }), seed('orc', 'enemies', { hpMax: 8, hp: 8 })]);
    intend(e, 'bram', 'melee', 'orc');
    intend(e, 'orc', 'move');
    lock(e);
    e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(20) }); // failed: the enemies' quick turn first
    const lines: LogLine[] = [...e.apply({ type: 'END_TURN' })];
    lines.push(...e.apply({ type: 'STRIKE', targetId: 'orc', roll: app(3) }));
    for (let i = 0; i < 10 && e.view().round === 1; i += 1) lines.push(...e.apply({ type: 'END_TURN' }));
    expect(lines.find((l) => l.kind === 'attack')).toMatchObject({ round: 1, text: expect.stringContaining('Orc: HP 8→5') });
    expect(lines.filter((l) => l.kind !== 'round').map((l) => [l.round, l.text])).toEqual(lines.filter((l) => l.kind !== 'round').map((l) => [1, l.text]));
    expect(lines.filter((l) => l.kind === 'round').map((l) => [l.round, l.text])).toEqual([[2, 'Round 2: declare intents.']]);
  });
});
