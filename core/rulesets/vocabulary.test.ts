// One name for one kind of thing across rulesets (docs/rulesets/adding-a-ruleset.md, "One name for one thing"):
// a field that names the combatant an event is about is `combatantId`, in every ruleset, and an event stored under
// the older name still reads.
import { describe, expect, it } from 'vitest';
import { parseEvent } from '../encounter/kernel.ts';
import { RULESETS } from './registry.ts';

describe.each(RULESETS.map((r) => [r.id, r] as const))('%s', (_id, ruleset) => {
  const rules = ruleset.encounter!;

  it('takes REMOVE_COMBATANT by combatantId', () => {
    expect(parseEvent(rules, { type: 'REMOVE_COMBATANT', combatantId: 'a', reason: 'fled' })).toEqual({ type: 'REMOVE_COMBATANT', combatantId: 'a', reason: 'fled' });
  });

  it('reads a stored REMOVE_COMBATANT of the older shape {id} as combatantId', () => {
    expect(parseEvent(rules, { type: 'REMOVE_COMBATANT', id: 'a', reason: '' })).toEqual({ type: 'REMOVE_COMBATANT', combatantId: 'a', reason: '' });
  });
});

describe('enigma events stored before combatantId', () => {
  const rules = RULESETS.find((r) => r.id === 'enigma')!.encounter!;
  it.each([
    [{ type: 'CHOOSE_NPC', id: 'g2' }, { type: 'CHOOSE_NPC', combatantId: 'g2' }],
    [{ type: 'SET_CAN_ACT', id: 'g2', canAct: false, note: 'stunned' }, { type: 'SET_CAN_ACT', combatantId: 'g2', canAct: false, note: 'stunned' }],
    [{ type: 'RESOLVE_PERIL', id: 'ash', choice: 'survive', costText: 'a limp' }, { type: 'RESOLVE_PERIL', combatantId: 'ash', choice: 'survive', costText: 'a limp' }],
  ])('%o reads as today’s shape', (old, today) => {
    expect(parseEvent(rules, old)).toEqual(today);
  });
});
