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

/** The zod definition under a schema (zod 4's `_zod.def`), read only as far as this walk needs. */
interface Def { type: string; options?: Schema[]; shape?: Record<string, Schema>; innerType?: Schema; in?: Schema }
interface Schema { _zod: { def: Def; innerType?: Schema } }

/** The object options of a ruleset's event schema (a union of objects, possibly wrapped), by event type. */
function eventShapes(schema: Schema): Map<string, Record<string, Schema>> {
  const shapes = new Map<string, Record<string, Schema>>();
  const walk = (s: Schema): void => {
    const def = s._zod.def;
    if (def.type === 'union') def.options?.forEach(walk);
    else if (def.type === 'lazy' && s._zod.innerType) walk(s._zod.innerType);
    else if (def.innerType) walk(def.innerType);
    else if (def.type === 'pipe' && def.in) walk(def.in);
    else if (def.type === 'object' && def.shape) {
      const literal = def.shape['type']?._zod.def as { values?: unknown[] } | undefined;
      const type = literal?.values?.[0];
      if (typeof type === 'string') shapes.set(type, def.shape);
    }
  };
  walk(schema);
  return shapes;
}

describe.each(RULESETS.map((r) => [r.id, r] as const))('the fields of %s’s events', (_id, ruleset) => {
  const shapes = eventShapes(ruleset.encounter!.eventSchema as unknown as Schema);

  it('are found (the walk reads the schema)', () => {
    expect(shapes.size).toBeGreaterThan(10);
    expect(shapes.get('REMOVE_COMBATANT')).toHaveProperty('combatantId');
  });

  it('never name a combatant, a choice or an answer by a bare id', () => {
    const bare = [...shapes].filter(([, shape]) => 'id' in shape).map(([type]) => type);
    expect(bare).toEqual([]);
  });

  it('name a typed roll `roll` or `<purpose>Roll`', () => {
    const odd = [...shapes].flatMap(([type, shape]) => Object.keys(shape).filter((key) => /roll/i.test(key) && !/^(roll|rolls)$|[a-z]Rolls?$/.test(key)).map((key) => `${type}.${key}`));
    expect(odd).toEqual([]);
  });
});

describe('any-system events stored before combatantId', () => {
  const rules = RULESETS.find((r) => r.id === 'any-system')!.encounter!;
  it.each([
    [{ type: 'DELAY', id: 'a' }, { type: 'DELAY', combatantId: 'a' }],
    [{ type: 'REORDER', id: 'a', beforeId: 'b' }, { type: 'REORDER', combatantId: 'a', beforeId: 'b' }],
    [{ type: 'CONCENTRATION_CHECK', id: 'a', passed: false }, { type: 'CONCENTRATION_CHECK', combatantId: 'a', passed: false }],
    [{ type: 'DEATH_SAVE', id: 'a', roll: null }, { type: 'DEATH_SAVE', combatantId: 'a', roll: null }],
  ])('%o reads as today’s shape', (old, today) => {
    expect(parseEvent(rules, old)).toEqual(today);
  });
});
