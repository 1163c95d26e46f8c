// Every ruleset's recovery forms against its own event schema: a form names its character first, and the event it
// sends when left empty or filled in — and with each choice it offers — is one the schema accepts. Whole-party
// forms need no dice (a PARTY event carries one action for everyone).
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../rulesets/registry.ts';
import type { GmEvent } from '../encounter/types.ts';
import type { LedgerForm } from './types.ts';

/** The event a form sends: optional fields left empty or filled in; ids stand for the character and record. */
function formEvent(form: LedgerForm, filled: boolean): Record<string, unknown> {
  const event: Record<string, unknown> = { type: form.type };
  for (const field of form.fields) {
    if (field.optional && !filled) {
      if (field.emptyAs === 'null') event[field.key] = null;
      continue;
    }
    if (field.kind === 'character') event[field.key] = 'c1';
    else if (field.kind === 'record') event[field.key] = 'r1';
    else if (field.kind === 'integer') event[field.key] = field.default ?? field.min ?? 0;
    else if (field.kind === 'choice') event[field.key] = field.default ?? field.choices?.[0]?.value;
    else if (field.kind === 'text') event[field.key] = field.default || 'a note';
    else event[field.key] = field.default ?? false;
  }
  return event;
}

describe.each(RULESETS.map((r) => [r.name, r.recovery] as const))('%s recovery forms', (_name, rules) => {
  it('name their character first and send events the schema parses, empty or filled in', () => {
    expect(rules.forms.length).toBeGreaterThan(0);
    for (const form of rules.forms) {
      expect(form.fields[0]).toMatchObject({ key: 'characterId', kind: 'character' });
      for (const filled of [false, true]) {
        const event = formEvent(form, filled);
        const parsed = rules.eventSchema.safeParse(event);
        expect(parsed.success, `${form.type} ${filled ? 'filled' : 'empty'}: ${parsed.error?.issues[0]?.message}`).toBe(true);
        expect(Object.keys(parsed.data ?? {}).sort(), `${form.type} keeps every field it sends`).toEqual(Object.keys(event).sort());
      }
    }
  });

  it('offer only choices the schema accepts', () => {
    for (const form of rules.forms) {
      for (const field of form.fields.filter((f) => f.kind === 'choice')) {
        for (const choice of field.choices ?? []) {
          expect(rules.eventSchema.safeParse({ ...formEvent(form, false), [field.key]: choice.value }).success, `${form.type}.${field.key}=${choice.value}`).toBe(true);
        }
      }
    }
  });

  it('need no dice when the whole party takes them', () => {
    for (const form of rules.forms.filter((f) => f.bulk)) {
      const world = { day: 1, options: {}, party: {}, characters: [{ id: 'c1', name: 'A', role: 'pc' as const, sheet: {}, state: {}, records: [] }] };
      expect(rules.rollsFor?.(world, formEvent(form, false) as GmEvent) ?? [], form.type).toEqual([]);
    }
  });
});
