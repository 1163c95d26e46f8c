// A log line belongs to the round it happened in (issue 28, point 7): the Ogre, last in round 1, falls on its own
// turn and chooses Sacrifice; that answer ends round 1, and the line saying so is logged under R1, not R2 — in the
// runner's log and in the Markdown and HTML exports, which read the same lines.
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../encounter/types.ts';
import { fight, seed } from './testing.ts';

describe('log lines and their round', () => {
  it("the Ogre's Sacrifice on its own round-1 turn is logged in round 1; only the next round's lines in round 2", () => {
    const e = fight([seed('hero', 'party'), seed('ogre', 'gm', { endure: 6, namedNpc: true })]);
    e.apply({ type: 'END_TURN' });
    expect(e.view()).toMatchObject({ round: 1, activeId: 'ogre' });
    const lines: LogLine[] = [...e.apply({ type: 'APPLY_DAMAGE', targetId: 'ogre', amount: 20, source: 'a falling pillar' })];
    lines.push(...e.apply({ type: 'RESOLVE_PERIL', combatantId: 'ogre', choice: 'sacrifice', costText: 'the bridge holds' }));
    expect(e.view().round).toBe(2);
    const sacrifice = lines.find((l) => l.text.startsWith('Mortal Peril: Ogre chooses Sacrifice'));
    expect(sacrifice).toMatchObject({ round: 1, kind: 'decision' });
    const newRound = lines.findIndex((l) => l.kind === 'round');
    expect(lines.slice(0, newRound).map((l) => l.round)).toEqual(lines.slice(0, newRound).map(() => 1));
    expect(lines.slice(newRound).map((l) => l.round)).toEqual(lines.slice(newRound).map(() => 2));
    expect(lines[newRound]!.text).toMatch(/^Round 2 begins/);
  });
});
