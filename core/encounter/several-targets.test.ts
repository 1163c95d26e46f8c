// Several targets at once (issue 28 point 4): each ruleset declares its harm (and healing, where it has
// one) for one target as a form, and the event the selection bar builds from the form for a target is one the
// ruleset reads. The runner reads these; it never knows a ruleset's event types itself.
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../rulesets/registry.ts';
import type { ActionForm } from './types.ts';

/** The form's event for one target, every other field at its first value (an optional one left out). */
function eventFor(form: ActionForm, targetId: string): Record<string, unknown> {
  const event: Record<string, unknown> = { type: form.type };
  for (const field of form.fields) {
    if (field.kind === 'combatant') {
      if (!field.optional) event[field.key] = targetId;
    } else if (field.optional) continue;
    else if (field.default !== undefined) event[field.key] = field.default;
    else if (field.kind === 'integer') event[field.key] = field.min ?? 0;
    else if (field.kind === 'choice') event[field.key] = field.choices?.[0]?.value;
    else if (field.kind === 'flag') event[field.key] = false;
    else event[field.key] = '';
  }
  return event;
}


describe.each(RULESETS.map((r) => [r.name, r] as const))('%s: harm and healing for several targets', (_name, ruleset) => {
  const declared = ruleset.encounter.severalTargets;

  it('declares its harm, and its healing where the fight has one', () => {
    expect(declared?.harm).toBeDefined();
    expect(declared!.heal !== undefined).toBe(['enigma', 'teams', 'factions', 'any-system'].includes(ruleset.id));
  });

  it('each form names one target, and its event for a target is one the ruleset reads', () => {
    for (const form of [declared!.harm, ...(declared!.heal ? [declared!.heal] : [])]) {
      expect(form.fields.filter((f) => f.kind === 'combatant' && !f.optional), form.type).toHaveLength(1);
      const parsed = ruleset.encounter.eventSchema.safeParse(eventFor(form, 'someone'));
      expect(parsed.error?.issues, `${ruleset.name} ${form.type}`).toBeUndefined();
    }
  });
});
