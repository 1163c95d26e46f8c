// The surprise round and Command (RULES.md §2.2 rule 6, R-T9). Source: "the team with the benefit of surprise gets
// to take a whole round where only their team may take actions". An unsurprisable member of the surprised team acts
// in round 0, but a Command cannot lend an action to a teammate who is surprised.
import { describe, expect, it } from 'vitest';
import { combatRefusal } from './combat.ts';
import type { CombatEvent } from './combat.ts';
import { attack, ctx, encounter, pick, seed } from './testing.ts';
import type { TeamsContext } from './rules.ts';

/** Round 0: the goblins surprise the party; Clementine cannot be surprised and takes her turn. */
function clementineInSurpriseRound() {
  const e = encounter();
  e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party'), seed('clementine', 'party', { unsurprisable: true }), seed('ga', 'gm')] });
  e.apply({ type: 'DECLARE_SURPRISE', team: 'gm' });
  e.apply({ type: 'START' });
  expect(e.view().round).toBe(0);
  pick(e, 'clementine');
  return e;
}

/** A log written before the refusal existed may hold a Command token for a surprised ally. */
const withToken = (context: TeamsContext, id: string): TeamsContext => ({ ...context, turn: { ...context.turn!, commandTokens: [id], commanded: [id] } });

describe('"only their team may take actions": no Command for the surprised', () => {
  it('refuses to command a surprised ally in the surprise round', () => {
    const e = clementineInSurpriseRound();
    expect(() => e.apply({ type: 'ACTION', kind: 'command', targetId: 'roland' }))
      .toThrow('Roland is surprised and cannot act in the surprise round, not even on a Command.');
    expect(ctx(e).turn!.commandTokens).toEqual([]);
  });

  it('refuses the commanded action of a surprised ally', () => {
    const e = clementineInSurpriseRound();
    const move: CombatEvent = { type: 'ACTION', kind: 'move', actorId: 'roland' };
    expect(combatRefusal(withToken(ctx(e), 'roland'), move)).toBe('Roland is surprised and cannot act in the surprise round, not even on a Command.');
  });

  it('refuses the commanded attack of a surprised ally', () => {
    const e = clementineInSurpriseRound();
    const strike = attack('roland', 'ga', [3, 3], 5, { via: 'command' }) as CombatEvent;
    expect(combatRefusal(withToken(ctx(e), 'roland'), strike)).toBe('Roland is surprised and cannot act in the surprise round, not even on a Command.');
  });

  it('after the surprise round the same Command is taken', () => {
    const e = clementineInSurpriseRound();
    e.apply({ type: 'END_TURN' });
    pick(e, 'ga');
    e.apply({ type: 'END_TURN' });
    expect(e.view().round).toBe(1);
    pick(e, 'clementine');
    e.apply({ type: 'ACTION', kind: 'command', targetId: 'roland' });
    e.apply({ type: 'ACTION', kind: 'move', actorId: 'roland' });
    expect(ctx(e).turn!.alliesMoved).toEqual(['roland']);
  });
});
