// Teams' event schema: every event the GM may send, checked by zod before the rules see it.
import * as z from 'zod';
import { combatantSeedSchema, idSchema, nameSchema, shortTextSchema } from '../../encounter/schemas.ts';
import * as combat from './combat.ts';
import * as rules from './rules.ts';

// Built on first use, not as the module loads: a start (which reads no event) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
export const eventSchema = z.lazy(() => {
  const rollSchema = z.strictObject({
    faces: z.array(z.number().int().min(1, { error: 'A die face is at least 1.' }).max(100, { error: 'A die face is at most 100.' })).max(40, { error: 'At most 40 dice in one roll.' }),
    source: z.enum(['app', 'manual']),
  });
  const optionalRoll = rollSchema.nullable().optional();
  const dieSizeSchema = z.union([z.literal(4), z.literal(6), z.literal(8), z.literal(10), z.literal(12), z.literal(20)], { error: 'A test die is d4, d6, d8, d10, d12 or d20.' });
  const diceListSchema = z.array(dieSizeSchema).min(1, { error: 'A test rolls at least one die.' }).max(4, { error: 'A test rolls at most four dice.' });
  /** Test dice as sizes ([6, 4]) or as typed in an action form ("d6+d4"); stored as sizes. */
  const DICE_TEXT = /^d(4|6|8|10|12|20)(\s*\+\s*d(4|6|8|10|12|20)){0,3}$/i;
  const testDiceSchema = z.unknown().transform((value, ctx) => {
    if (value === null || value === undefined) return value as null | undefined;
    if (typeof value === 'string' && !DICE_TEXT.test(value.trim())) {
      ctx.addIssue({ code: 'custom', message: 'Write the test dice like d6+d4 (up to four dice).' });
      return z.NEVER;
    }
    const sizes = typeof value === 'string' ? value.trim().toLowerCase().split('+').map((part) => Number(part.trim().slice(1))) : value;
    const parsed = diceListSchema.safeParse(sizes);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Write the test dice like d6+d4.' });
      return z.NEVER;
    }
    return parsed.data;
  });
  const bonusSchema = z.number().int({ error: 'A bonus is a whole number.' }).min(-20, { error: 'A bonus is at least −20.' }).max(20, { error: 'A bonus is at most 20.' }).nullable().optional();
  const difficultySchema = z.number({ error: 'A difficulty must be a number.' }).int({ error: 'A difficulty is a whole number.' }).min(1, { error: 'A difficulty is at least 1.' }).max(99, { error: 'A difficulty is at most 99.' });
  const attributeSchema = z.enum(['strength', 'dexterity'], { error: 'An attack uses strength or dexterity.' });
  const proficiencySchema = z.enum(['martial', 'finesse', 'none'], { error: 'The proficiency is martial, finesse or none.' });
  const damageTypeSchema = z.enum(rules.DAMAGE_TYPES as [string, ...string[]], { error: `A damage type is one of ${rules.DAMAGE_TYPES.join(', ')}.` });
  const weaponSchema = z.strictObject({
    name: nameSchema,
    attributes: z.array(attributeSchema).min(1, { error: 'A weapon allows at least one attribute.' }).max(2),
    proficiencies: z.array(z.enum(['martial', 'finesse'])).max(2),
    damage: z.number().int().min(0).max(99),
    critDamage: z.number().int().min(0).max(99),
    critThreshold: z.number().int().min(2, { error: 'A critical threshold is at least 2.' }).max(99),
    damageType: damageTypeSchema,
    delivery: z.enum(['melee', 'thrown', 'projectile'], { error: 'A weapon is melee, thrown or projectile.' }),
    nonlethal: z.boolean(),
  });
  const keySchema = z.string({ error: 'A team key must be text.' }).regex(/^[a-z][a-z0-9-]{0,31}$/, { error: 'A team key is up to 32 lower-case letters, digits or dashes.' });
  /** What a party member carries in from the campaign. */
  const carriedSchema = z.strictObject({
    endurance: z.number().int().min(0).max(999).optional(),
    health: z.number().int().min(0).max(999).optional(),
    stamina: z.number().int().min(0).max(999).optional(),
    focus: z.number().int().min(0).max(999).optional(),
    cheatDeathDifficulty: z.number().int().min(1).max(999).optional(),
    unconscious: z.boolean().optional(),
    items: z.partialRecord(z.enum(['weapon', 'shield']), z.strictObject({ durability: z.number().int().min(0).max(999) })).optional(),
  });
  /** Team keys in initiative order, as a list or as typed in a form ("party, gm, town"); stored as a list. */
  const teamListSchema = z.unknown().transform((value, ctx) => {
    const list = typeof value === 'string' ? value.split(/[\s,>→]+/).filter(Boolean) : value;
    const parsed = z.array(keySchema).max(12, { error: 'At most 12 teams.' }).safeParse(list);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'List the team keys in order, like party, gm.' });
      return z.NEVER;
    }
    return parsed.data;
  });
  const seedSchema = combatantSeedSchema.extend({ side: keySchema, carried: carriedSchema.optional() });
  const textSchema = shortTextSchema;
  const itemSlotSchema = z.enum(['weapon', 'shield'], { error: 'The item is the weapon or the shield.' });
  const amountSchema = z.number({ error: 'An amount must be a number.' }).int({ error: 'An amount is a whole number.' }).min(1, { error: 'An amount is at least 1.' }).max(999, { error: 'An amount is at most 999.' });
  const advantageSchema = z.number().int().min(-3, { error: 'At most 3 levels of disadvantage.' }).max(3, { error: 'At most 3 levels of advantage.' });

  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(200, { error: 'Add at most 200 combatants at once.' }) }),
    z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: textSchema }),
    z.strictObject({ type: z.literal('ADD_TEAM'), key: keySchema, label: nameSchema }),
    z.strictObject({ type: z.literal('SET_TEAM'), combatantId: idSchema, team: keySchema }),
    z.strictObject({ type: z.literal('SET_INSTIGATOR'), combatantId: idSchema.nullable(), attackedTeam: keySchema.nullable().optional() }),
    z.strictObject({ type: z.literal('SET_TEAM_ORDER'), teams: teamListSchema }),
    z.strictObject({ type: z.literal('DECLARE_SURPRISE'), team: keySchema.nullable() }),
    z.strictObject({ type: z.literal('SET_UNSURPRISABLE'), combatantId: idSchema, unsurprisable: z.boolean() }),
    z.strictObject({ type: z.literal('SET_OBJECTIVE'), team: keySchema, text: textSchema }),
    z.strictObject({ type: z.literal('START') }),
    z.strictObject({ type: z.literal('SELECT_MEMBER'), combatantId: idSchema }),
    z.strictObject({ type: z.literal('END_TURN') }),
    z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).nullable().optional() }),
    z.strictObject({ type: z.literal('END_COMBAT'), outcome: textSchema }),
    z.strictObject({
      type: z.literal('ATTACK'), attackerId: idSchema, targetId: idSchema, attribute: attributeSchema, proficiency: proficiencySchema,
      via: z.enum(['turn', 'command', 'readied']).optional(), weapon: weaponSchema.nullable().optional(), sneak: z.boolean().optional(), flanking: z.boolean().optional(),
      advantage: advantageSchema.optional(), nearbyIds: z.array(idSchema).max(20).optional(), interceptorIds: z.array(idSchema).max(20).optional(),
      declaredParry: itemSlotSchema.nullable().optional(), testRoll: optionalRoll, luckRoll: optionalRoll, strayRoll: optionalRoll, note: textSchema.optional(),
    }),
    z.strictObject({
      type: z.literal('ACTION'),
      kind: z.enum(['brandish', 'interact', 'move', 'sprint', 'standUp', 'seekCover', 'guard', 'wait', 'ready', 'command', 'resuscitate', 'shortTask', 'other'], { error: 'That is not an action of the action table.' }),
      actorId: idSchema.nullable().optional(), targetId: idSchema.nullable().optional(), name: textSchema.optional(),
      hold: z.enum(combat.HOLD_CHOICES, { error: 'Brandish leaves the weapon, the shield, both or nothing in hand.' }).nullable().optional(),
      cost: z.number().int().min(1, { error: 'An action costs at least 1.' }).max(30, { error: 'An action costs at most 30.' }).optional(),
      trigger: textSchema.optional(), readied: textSchema.optional(), difficulty: difficultySchema.nullable().optional(),
      dice: testDiceSchema.optional(), bonus: bonusSchema, testRoll: optionalRoll, luckRoll: optionalRoll, note: textSchema.optional(),
    }),
    z.strictObject({
      type: z.literal('KILLING_STRIKE'), targetId: idSchema, attribute: attributeSchema, proficiency: proficiencySchema, weapon: weaponSchema.nullable().optional(),
      testRoll: optionalRoll, luckRoll: optionalRoll, sneakRoll: optionalRoll,
    }),
    z.strictObject({ type: z.literal('FREE_ACTION'), kind: z.enum(['dropItem', 'dropProne', 'step'], { error: 'A free action is Drop Item, Drop Prone or Step.' }), item: itemSlotSchema.nullable().optional(), note: textSchema.optional() }),
    z.strictObject({ type: z.literal('FIRE_READIED'), combatantId: idSchema, note: textSchema.optional() }),
    z.strictObject({ type: z.literal('EXTENDED'), decision: z.enum(combat.EXTENDED_DECISIONS, { error: 'Continue or abandon the extended action.' }), testRoll: optionalRoll, luckRoll: optionalRoll, sneakRoll: optionalRoll }),
    z.strictObject({ type: z.literal('OPENING_ATTACK'), decision: z.literal('waive', { error: 'The opening attack can only be waived here.' }) }),
    z.strictObject({
      type: z.literal('DEFEND'), defence: z.enum(combat.DEFENCES, { error: 'The defence is none, block, parry, dodge or intercept.' }),
      slot: itemSlotSchema.nullable().optional(), interceptorId: idSchema.nullable().optional(), testRoll: optionalRoll, luckRoll: optionalRoll,
    }),
    z.strictObject({
      type: z.literal('REACTION_TEST'), reactorId: idSchema, reaction: z.enum(['dodge', 'fortify', 'resist'], { error: 'The reaction is Dodge, Fortify or Resist.' }),
      difficulty: difficultySchema, against: textSchema, dice: testDiceSchema.optional(), bonus: bonusSchema, testRoll: optionalRoll, luckRoll: optionalRoll,
    }),
    z.strictObject({ type: z.literal('CONSCIOUSNESS'), decision: z.enum(combat.CONSCIOUSNESS_DECISIONS, { error: 'Fortify or fall unconscious.' }), testRoll: optionalRoll, luckRoll: optionalRoll }),
    z.strictObject({ type: z.literal('LUCK_TEST'), luckRoll: optionalRoll }),
    z.strictObject({
      type: z.literal('APPLY_DAMAGE'), targetId: idSchema,
      amount: amountSchema, source: textSchema, damageType: damageTypeSchema.nullable().optional(), nonlethal: z.boolean().optional(),
    }),
    z.strictObject({
      type: z.literal('HEAL'), targetId: idSchema, pool: z.enum(combat.HEALED_POOLS, { error: 'Healing restores endurance or health.' }), amount: amountSchema, source: textSchema,
    }),
    z.strictObject({
      type: z.literal('OVERRIDE'), targetId: idSchema, field: z.enum(combat.OVERRIDE_FIELDS, { error: 'That is not something an override can set.' }),
      value: z.number().int().min(0).max(999), note: textSchema,
    }),
  ]);
});

/** The events of the setup, and the combat events the rules in combat.ts answer. */
export const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'ADD_TEAM', 'SET_TEAM', 'SET_INSTIGATOR', 'SET_TEAM_ORDER', 'DECLARE_SURPRISE', 'SET_UNSURPRISABLE', 'START']);
export const COMBAT_EVENTS = new Set(['ATTACK', 'ACTION', 'KILLING_STRIKE', 'FREE_ACTION', 'FIRE_READIED', 'EXTENDED', 'OPENING_ATTACK', 'DEFEND', 'REACTION_TEST', 'CONSCIOUSNESS', 'LUCK_TEST', 'APPLY_DAMAGE', 'HEAL', 'OVERRIDE']);
