// Win and Defeat Conditions (RULES.md §5.2 rule 1): the rounds repeat until a side is down or "A specified Win
// Condition or Defeat Condition is met". The GM sets them in prep and marks one met; the fight ends once the
// triggers and the action under way resolve.
import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../encounter/types.ts';
import { attack, contest, fight, seed, who } from './testing.ts';

const conditions: GmEvent[] = [
  { type: 'SET_CONDITION', kind: 'win', text: 'The bell is rung' },
  { type: 'SET_CONDITION', kind: 'defeat', text: 'The cart leaves the square' },
];
const withConditions = () => fight([seed('ana', 'party'), seed('orc', 'foes')], {}, conditions);

describe('Win and Defeat Conditions', () => {
  // source: "This repeats until either: ... A specified Win Condition or Defeat Condition is met"
  it('a condition marked met ends the combat, with both sides still standing', () => {
    const e = withConditions();
    const lines = e.apply({ type: 'CONDITION_MET', n: 1 });
    expect(e.view().phase).toBe('ended');
    expect(e.view().outcome).toBe('Win Condition met: The bell is rung.');
    expect(lines.map((l) => l.text)[0]).toBe('The GM marks the Win Condition met: The bell is rung.');
  });

  it('marked during an attack, the fight ends once the attack resolves', () => {
    const e = withConditions();
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    const lines = e.apply({ type: 'CONDITION_MET', n: 2 });
    expect(lines[0]!.text).toContain('Combat ends once the triggers and the action under way resolve.');
    expect(e.view().phase).not.toBe('ended');
    const landed = contest(e, 'failure');
    expect(who(e, 'orc').fatigueLoad).toBe(0); // loads reset at the end: the effect landed, then combat ended
    // The attack's own line tells the load it left, before the end's reset (its line says the reset).
    expect(landed.map((l) => l.text).find((t) => t.includes('takes the effect'))).toMatch(/takes the effect \(Fatigue [1-9]\d*\//);
    expect(e.view().phase).toBe('ended');
    expect(e.view().outcome).toBe('Defeat Condition met: The cart leaves the square.');
  });

  it('conditions are set in prep; marking needs one that exists, from round 1', () => {
    const e = withConditions();
    expect(() => e.apply({ type: 'SET_CONDITION', kind: 'win', text: 'Late' })).toThrow('Win and Defeat Conditions are set in prep, before combat starts.');
    expect(() => e.apply({ type: 'CONDITION_MET', n: 3 })).toThrow('There are 2 conditions: choose 1–2.');
    expect(() => fight([seed('ana', 'party'), seed('orc', 'foes')]).apply({ type: 'CONDITION_MET', n: 1 })).toThrow('This encounter has no Win or Defeat Condition');
    expect(e.view().allowed).toContain('CONDITION_MET');
    expect(e.view().aside).toContainEqual({ title: 'Win and Defeat Conditions', text: '1. Win: The bell is rung; 2. Defeat: The cart leaves the square' });
  });
});

describe('the end check counts PCs (§5.2)', () => {
  // source: "This repeats until either: - All PCs are incapacitated or removed from combat"
  it('every PC down ends the combat though an allied NPC on the party side still stands', () => {
    const e = fight([seed('ana', 'party'), seed('guard', 'foes'), seed('orc', 'foes')], {}, [{ type: 'SET_SIDE', combatantId: 'guard', side: 'party' }]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 3, source: 'a fall' });
    e.apply({ type: 'OVERRIDE', targetId: 'ana', field: 'incapacitated', value: 1, note: 'knocked out' });
    expect(e.view().phase).toBe('ended');
    expect(e.view().outcome).toBe('Every PC is incapacitated or removed.');
  });

  it('the allied NPC down, the PC standing: the fight goes on', () => {
    const e = fight([seed('ana', 'party'), seed('guard', 'foes'), seed('orc', 'foes')], {}, [{ type: 'SET_SIDE', combatantId: 'guard', side: 'party' }]);
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'guard', reason: 'flees' });
    expect(e.view().phase).toBe('running');
  });
});

describe('an Incapacitated character does not act (§5.5)', () => {
  // source: "they cannot move, act, or take stances until they are no longer Incapacitated"
  it('no triggered effect of theirs, even on their own turn', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 3, source: 'a fall' });
    e.apply({ type: 'OVERRIDE', targetId: 'ana', field: 'incapacitated', value: 1, note: 'knocked out' });
    expect(() => e.apply({ type: 'TRIGGER', trigger: 'Orc moves', effects: [{ ownerId: 'ana', effect: 'Riposte' }] }))
      .toThrow('Ana is Incapacitated and cannot act, so no triggered effect of theirs resolves.');
  });
});
