// "Any system"'s GM events, read by one zod schema: every payload is checked before the rules see it, with a sentence
// a GM understands for each field. The event types are the schema's own (z.infer), so the machine, the refusals and
// the log read the same shapes.
import * as z from 'zod';
import { combatantSeedSchema, idSchema, nameSchema, shortTextSchema } from '../../encounter/schemas.ts';

// Built on first use, not as the module loads: a start (which reads no event) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
export const eventSchema = z.lazy(() => {
  const rollSchema = z.strictObject({
    faces: z.array(z.number().int().min(1).max(100)).min(1, { error: 'A roll needs its die.' }).max(1, { error: 'Initiative and death saves roll one die.' }),
    source: z.enum(['app', 'manual']),
  });
  const amount = (what: string, max: number) => z.number({ error: `${what} must be a number.` }).int({ error: `${what} must be a whole number.` })
    .min(0, { error: `${what} cannot be negative.` }).max(max, { error: `${what} is at most ${max}.` });
  const initiativeTotal = z.number({ error: 'An initiative must be a number.' }).int({ error: 'An initiative is a whole number.' })
    .min(-50, { error: 'An initiative is at least −50.' }).max(99, { error: 'An initiative is at most 99.' });
  const carriedSchema = z.strictObject({
    hp: z.number().int().min(0).max(9999).optional(),
    tempHp: z.number().int().min(0).max(999).optional(),
    dead: z.boolean().optional(),
  });
  const seedSchema = combatantSeedSchema.extend({ carried: carriedSchema.optional() });
  const text = (what: string, max: number) => shortTextSchema.pipe(z.string().min(1, { error: `Say ${what}.` }).max(max, { error: `${what[0]!.toUpperCase()}${what.slice(1)} is at most ${max} characters.` }));

  return z.discriminatedUnion('type', [
    // ---- roster and setup ----
    z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(200, { error: 'Add at most 200 combatants at once.' }) }),
    z.strictObject({ type: z.literal('ADD_FIXED'), name: nameSchema, initiative: initiativeTotal }),
    z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: shortTextSchema }),
    z.strictObject({ type: z.literal('START') }),
    z.strictObject({
      type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).max(200).nullable().optional(),
      roll: rollSchema.nullable().optional(), initiative: initiativeTotal.optional(),
    }),
    z.strictObject({ type: z.literal('END_COMBAT'), outcome: shortTextSchema }),
    // ---- initiative ----
    z.strictObject({ type: z.literal('ROLL_INITIATIVE'), combatantId: idSchema, roll: rollSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('ROLL_ALL_INITIATIVE'), rolls: z.record(idSchema, rollSchema.nullable()).optional() }),
    z.strictObject({ type: z.literal('SET_INITIATIVE'), combatantId: idSchema, total: initiativeTotal }),
    z.strictObject({ type: z.literal('REORDER'), combatantId: idSchema, beforeId: idSchema }),
    z.strictObject({ type: z.literal('START_COMBAT'), missingLast: z.boolean().optional() }),
    // ---- turns ----
    z.strictObject({ type: z.literal('END_TURN') }),
    z.strictObject({ type: z.literal('DELAY'), combatantId: idSchema }),
    z.strictObject({ type: z.literal('RESUME'), combatantId: idSchema }),
    z.strictObject({ type: z.literal('READY'), combatantId: idSchema, trigger: text('what triggers the readied action', 200) }),
    z.strictObject({ type: z.literal('USE_READY'), combatantId: idSchema }),
    z.strictObject({ type: z.literal('USE_REACTION'), combatantId: idSchema, what: shortTextSchema.optional() }),
    // ---- damage and health ----
    z.strictObject({ type: z.literal('APPLY_DAMAGE'), targetId: idSchema, amount: amount('Damage', 9999), critical: z.boolean().optional(), source: shortTextSchema.optional() }),
    z.strictObject({ type: z.literal('HEAL'), targetId: idSchema, amount: amount('Healing', 9999), source: shortTextSchema.optional() }),
    z.strictObject({ type: z.literal('SET_TEMP_HP'), targetId: idSchema, amount: amount('Temporary HP', 999) }),
    z.strictObject({ type: z.literal('SET_HP'), targetId: idSchema, hp: amount('HP', 9999), note: shortTextSchema.optional() }),
    z.strictObject({ type: z.literal('DEATH_SAVE'), combatantId: idSchema, roll: rollSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('CONCENTRATE'), combatantId: idSchema, on: z.boolean({ error: 'Say whether concentration starts or ends.' }), spell: shortTextSchema.pipe(z.string().max(80, { error: 'A spell name is at most 80 characters.' })).optional() }),
    z.strictObject({ type: z.literal('CONCENTRATION_CHECK'), combatantId: idSchema, passed: z.boolean({ error: 'Say whether the check passed.' }) }),
    z.strictObject({ type: z.literal('INJURY'), targetId: idSchema, name: text('the injury', 120), untilLongRest: z.boolean().optional() }),
  ]);
});

export type AnyEvent = z.infer<typeof eventSchema>;
export type EventOf<T extends AnyEvent['type']> = Extract<AnyEvent, { type: T }>;
