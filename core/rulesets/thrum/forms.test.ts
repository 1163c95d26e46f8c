// Thrum's action forms against its events: every GM event a person enters by hand has a form, and a form left at
// its defaults is accepted in a live fight (the registry test checks that each default event parses).
import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../encounter/types.ts';
import { thrumEncounter } from './encounter.ts';
import { thrumActionForms } from './forms.ts';
import { contestDetails, ctx, fight, seed, who } from './testing.ts';

/** Answered from prompt buttons, drawn by the prep screen or the runner itself, or placed on the board. */
const NOT_TYPED = {
  prompt: ['BREAK_TIE', 'DEFENSE_CHOICE', 'BUFF_CHOICE', 'RESOLVE_TRIGGER'],
  screens: ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'START', 'END_TURN', 'END_COMBAT', 'ADD_LATE_COMBATANT'],
  board: ['SET_MAP', 'PLACE_NPC', 'POSITION', 'SET_POSITION'],
};

const schemaTypes = () =>
  (thrumEncounter.eventSchema as unknown as { unwrap(): { options: { shape: { type: { value: string } } }[] } }).unwrap().options.map((o) => o.shape.type.value);

describe('action forms', () => {
  it('cover every GM event a person enters by hand', () => {
    const skipped = new Set(Object.values(NOT_TYPED).flat());
    const typed = schemaTypes().filter((t) => !skipped.has(t)).sort();
    expect(thrumActionForms.map((f) => f.type).sort()).toEqual(typed);
  });

  // GUIDE §5: "Every roll can be rolled by the app or typed in": a prompt's button lets the app roll; the runner's
  // dice entry for typed faces comes with a form, so every event that carries dice has one.
  it('every event that carries dice has a form, so physical dice can be typed', () => {
    const withDice = ['ROLL_INITIATIVE', 'PANIC_ROLL', 'INCAPACITY_ROLL', 'DEFENSE_RESULT', 'FORCED_MOVE', 'MOVE'];
    expect(withDice.filter((type) => !thrumActionForms.some((f) => f.type === type))).toEqual([]);
  });

  it('a form left at its defaults (targets ticked) is accepted in a fight without a map', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')]);
    const fromForm = (type: string, values: Record<string, unknown>): GmEvent => {
      const form = thrumActionForms.find((f) => f.type === type)!;
      const event: Record<string, unknown> = { type };
      for (const field of form.fields) {
        const value = field.key in values ? values[field.key] : field.default;
        if (field.optional && (value === '' || value === undefined || value === false)) continue;
        event[field.key] = field.kind === 'combatants' && field.wrap ? (value as string[]).map((id) => ({ [field.wrap!]: id })) : value;
      }
      return event as GmEvent;
    };
    e.apply(fromForm('MOVE', {}));
    // A Reflex drop roll against a 40-level fall, the app rolling both sides: it fails (R-H11).
    e.apply(e.withRolls(fromForm('FORCED_MOVE', { combatantId: 'orc', drop: 'reflex', levels: 40 })));
    expect(who(e, 'orc').statuses['Slowed']?.stacks).toBe(1);
    e.apply(fromForm('ATTACK', { attackerId: 'ana', attackType: 'physical', targets: ['orc'], covered: ['orc'] }));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' });
    expect(contestDetails(e).attackBanes).toEqual(['cover']);
    // The Contested roll form left empty: the app rolls both sides, 3d6 for the attack with cover's Bane (R-H11).
    e.apply(e.withRolls(fromForm('DEFENSE_RESULT', {})));
    expect(ctx(e).stack).toEqual([]);
    e.apply(fromForm('SET_STANCE', { stance: 'Watch' }));
    e.apply({ type: 'END_TURN' });
    e.apply(fromForm('TRIGGER', { trigger: 'Bo moves', effects: ['ana'] }));
    expect(e.view().prompt!.text).toBe("Trigger (Bo moves): resolve Ana's Watch (stance), then confirm.");
  });
});
