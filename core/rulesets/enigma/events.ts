// Enigma's event schema: every event the GM may send, with its fields and their refusal sentences (the kernel's
// parseEvent reads through it; docs/rulesets/enigma.md lists them).
import * as z from 'zod';
import { combatantSeedSchema, idSchema, shortTextSchema } from '../../encounter/schemas.ts';
import { INJURY_CATEGORIES } from './injuries.ts';
import { CAPACITIES, type Capacity } from './sheet.ts';

// Built on first use, not as the module loads: a start (which reads no event) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
export const eventSchema = z.lazy(() => {
  const sideSchema = z.enum(['party', 'gm'], { error: 'The side must be the party or the GM.' });
  const capacitySchema = z.enum(CAPACITIES as [Capacity, ...Capacity[]], { error: `A capacity is one of ${CAPACITIES.join(', ')}.` });
  const rollSchema = z.strictObject({
    // One die plus one per stack of advantage or disadvantage (R-E19): injuries stack, so a roll can hold many dice.
    faces: z.array(z.number().int().min(1).max(100)).max(64, { error: 'At most 64 dice in one roll.' }),
    source: z.enum(['app', 'manual']),
  });
  const stacksSchema = z.number().int().min(-5, { error: 'At most 5 stacks.' }).max(5, { error: 'At most 5 stacks.' });
  const injuryCategorySchema = z.enum(INJURY_CATEGORIES.map((c) => c.key) as [string, ...string[]]);
  const injuryDataSchema = z.strictObject({
    id: idSchema, name: z.string().trim().min(1).max(80), category: injuryCategorySchema, baseRoll: z.number().int().min(1).max(4),
    multiplier: z.number().int().min(1).max(20), restsRemaining: z.number().int().min(0).max(200), permanent: z.boolean(),
    cureCondition: z.string().max(500).nullable(), notes: z.string().max(4000), gainedHere: z.boolean().optional(), cureMet: z.boolean().optional(),
  });
  /** What a combatant carries in from the campaign (its condition and running injuries). */
  const carriedSchema = z.strictObject({
    lp: z.number().int().min(0).max(99).optional(),
    dice: z.partialRecord(capacitySchema, z.union([z.literal(4), z.literal(6), z.literal(8), z.literal(10), z.literal(12)])).optional(),
    injuries: z.array(injuryDataSchema).max(200, { error: 'A combatant carries at most 200 running injuries into a fight: heal some first.' }).optional(),
    healingRestriction: z.enum(['fixesOnly']).nullable().optional(),
  });
  const seedSchema = combatantSeedSchema.extend({ carried: carriedSchema.optional() });
  const textSchema = shortTextSchema;
  const amountSchema = z.number({ error: 'An amount must be a number.' }).int({ error: 'An amount is a whole number.' }).min(1, { error: 'An amount is at least 1.' }).max(99, { error: 'An amount is at most 99.' });
  /** R-E17: the observers out of sight of the user, and a power that keeps its user hidden. */
  const revealingFields = { unseenBy: z.array(idSchema).max(200).optional(), staysHidden: z.boolean().optional() };
  /** §1.4 sight: a power's targets behind full cover, and a power that targets through obstacles or cover. */
  const powerCoverFields = { coveredIds: z.array(idSchema).max(200).optional(), throughCover: z.boolean().optional() };
  const sightSchema = z.enum(['clear', 'unseen', 'fullCover']);

  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(200, { error: 'Add at most 200 combatants at once.' }) }),
    z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: textSchema }),
    z.strictObject({ type: z.literal('SET_PARTY_ORDER'), ids: z.array(idSchema).max(500) }),
    z.strictObject({ type: z.literal('SET_GM_ORDER'), ids: z.array(idSchema).max(500).nullable() }),
    z.strictObject({ type: z.literal('SET_FIRST_SIDE'), side: sideSchema }),
    z.strictObject({ type: z.literal('START') }),
    z.strictObject({ type: z.literal('CHOOSE_NPC'), combatantId: idSchema }),
    z.strictObject({ type: z.literal('END_TURN') }),
    z.strictObject({ type: z.literal('RAISE_ESCALATION'), by: z.number().int().min(1).max(10), source: textSchema }),
    z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).nullable().optional() }),
    z.strictObject({ type: z.literal('END_COMBAT'), outcome: textSchema }),
    z.strictObject({ type: z.literal('MOVE'), spaces: z.number().int().min(0).max(60), pauses: z.number().int().min(0).max(20), note: textSchema.optional() }),
    z.strictObject({
      type: z.literal('ATTACK'), attackerId: idSchema, targetId: idSchema, mode: z.enum(['melee', 'ranged']),
      distance: z.number().int().min(0).max(500).nullable().optional(), sight: z.enum(['clear', 'unseen', 'fullCover']),
      needsNoSight: z.boolean().optional(), throughCover: z.boolean().optional(), ignoresSight: z.boolean().optional(), extraStacks: stacksSchema.optional(), damage: z.enum(['full', 'half']),
      asReaction: z.boolean().optional(), power: textSchema.nullable().optional(), attackRoll: rollSchema.nullable().optional(), defenceRoll: rollSchema.nullable().optional(),
      ...revealingFields,
    }),
    // source: "To Hide from a creature you must break line of sight." / "To attempt to Notice a creature you must have line
    // of sight on them." Events stored before these were asked carry neither, and read as before: sight broken, sight had.
    z.strictObject({ type: z.literal('HIDE'), navigateRoll: rollSchema, observers: z.array(z.strictObject({ observerId: idSchema, gleanRoll: rollSchema })).max(200), sightBroken: z.boolean().optional() }),
    z.strictObject({ type: z.literal('NOTICE'), targetId: idSchema, gleanRoll: rollSchema, navigateRoll: rollSchema, lineOfSight: z.boolean().optional() }),
    z.strictObject({ type: z.literal('USE_ITEM'), item: textSchema.pipe(z.string().min(1, { error: 'Name the item.' })), note: textSchema.optional() }),
    z.strictObject({ type: z.literal('USE_POWER'), power: textSchema.pipe(z.string().min(1, { error: 'Name the power.' })), cost: z.number().int().min(1).max(2), fullAction: z.boolean().optional(), targetIds: z.array(idSchema).max(200).optional(), note: textSchema.optional(), ...revealingFields, ...powerCoverFields }),
    z.strictObject({ type: z.literal('USE_REACTION'), reactorId: idSchema, power: textSchema.pipe(z.string().min(1, { error: 'Name the reaction.' })), targetIds: z.array(idSchema).max(200).optional(), note: textSchema.optional(), ...revealingFields, ...powerCoverFields }),
    z.strictObject({
      type: z.literal('CHECK'), actorId: idSchema, capacity: capacitySchema, difficulty: z.number().int().min(1).max(30), cost: z.number().int().min(0).max(2),
      description: textSchema, extraStacks: stacksSchema.optional(), targetId: idSchema.nullable().optional(), roll: rollSchema,
      sight: sightSchema.optional(), needsNoSight: z.boolean().optional(), throughCover: z.boolean().optional(),
    }),
    z.strictObject({ type: z.literal('APPLY_DAMAGE'), targetId: idSchema, amount: amountSchema, source: textSchema }),
    z.strictObject({ type: z.literal('AREA_DAMAGE'), targets: z.array(z.strictObject({ targetId: idSchema, amount: amountSchema })).max(200), source: textSchema }),
    z.strictObject({ type: z.literal('HEAL'), targetId: idSchema, amount: amountSchema, kind: z.enum(['magic', 'fix', 'other']), source: textSchema }),
    z.strictObject({
      type: z.literal('RESOLVE_PERIL'), combatantId: idSchema, choice: z.enum(['sacrifice', 'survive']), costText: textSchema,
      healingRestriction: z.enum(['fixesOnly']).nullable().optional(),
      injury: z.union([
        z.strictObject({ mode: z.literal('new'), name: z.string().trim().min(1, { error: 'Name the injury.' }).max(80), category: injuryCategorySchema, baseRoll: z.number().int().min(1).max(4), permanent: z.boolean().optional(), cureCondition: textSchema.nullable().optional() }),
        z.strictObject({ mode: z.literal('extend'), injuryId: idSchema }),
      ]).nullable().optional(),
    }),
    z.strictObject({ type: z.literal('SET_CAN_ACT'), combatantId: idSchema, canAct: z.boolean(), note: textSchema }),
    z.strictObject({
      type: z.literal('OVERRIDE'), targetId: idSchema, field: z.enum(['lp', 'actionsLeft', 'reactionDebt', 'die']), capacity: capacitySchema.nullable().optional(),
      value: z.number().int().min(0).max(99), note: textSchema,
    }),
  ]);
});
