// Thrum's event schema: every GM event's fields and the sentence a bad one gets.
import * as z from 'zod';
import { combatantSeedSchema, idSchema, shortTextSchema } from '../../encounter/schemas.ts';
import { parseSquareList } from './grid.ts';

// Built on first use, not as the module loads: a start (which reads no event) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
export const eventSchema = z.lazy(() => {
  const rollSchema = z.strictObject({
    faces: z.array(z.number().int().min(1).max(100)).max(12, { error: 'At most 12 dice in one roll.' }),
    source: z.enum(['app', 'manual']),
  });
  const coordinate = z.number({ error: 'A square is given by whole numbers.' }).int({ error: 'A square is given by whole numbers.' }).min(0, { error: 'Squares start at 0.' }).max(199, { error: 'A map is at most 200 squares across.' });
  const squareSchema = z.strictObject({ x: coordinate, y: coordinate });
  /** An area's squares: a list, or typed in the runner's form as text ("2,1 2,2"), kept as the list it names. */
  const areaSquaresSchema = z.preprocess(
    (value) => (typeof value === 'string' ? (parseSquareList(value) ?? value) : value),
    z.array(squareSchema, { error: 'Type the area\'s squares as "x,y" pairs separated by spaces, e.g. "2,1 2,2".' }).max(400, { error: 'An area is at most 400 squares.' }),
  );
  /** A drop rolled with dice (R-H11): the mover's Endurance or Reflex roll and the environment's, each 2d6. */
  const dropDiceSchema = z.strictObject({
    roll: z.enum(['endurance', 'reflex'], { error: 'A drop roll is Endurance or Reflex.' }),
    dice: rollSchema.nullable().optional(), environment: rollSchema.nullable().optional(),
  });
  const sideSchema = z.enum(['party', 'foes'], { error: 'The side must be the party or the foes.' });
  const loadAmount = z.number({ error: 'An amount must be a number.' }).int({ error: 'An amount is a whole number.' }).min(0, { error: 'An amount is at least 0.' }).max(20, { error: 'An amount is at most 20.' });
  const stacksSchema = z.number({ error: 'Stacks must be a number.' }).int({ error: 'Stacks are a whole number.' }).min(1, { error: 'At least 1 stack.' }).max(10, { error: 'At most 10 stacks.' });
  const countSchema = z.number().int().min(0, { error: 'A count is at least 0.' }).max(10, { error: 'A count is at most 10.' });
  const nameText = (what: string) => shortTextSchema.pipe(z.string().min(1, { error: `Name the ${what}.` }).max(80, { error: `A ${what} name is at most 80 characters.` }));
  const carriedSchema = z.strictObject({
    fatigueTolerance: z.number().int().min(0).max(30).optional(),
    stressTolerance: z.number().int().min(0).max(30).optional(),
    wounds: z.number().int().min(0).max(3).optional(),
    stillIncapacitated: z.boolean().optional(),
    outOfAction: z.boolean().optional(),
  });
  const seedSchema = combatantSeedSchema.extend({ carried: carriedSchema.optional() });
  const mapSchema = z.strictObject({
    width: z.number().int().min(1, { error: 'A map is at least 1 square wide.' }).max(200, { error: 'A map is at most 200 squares across.' }),
    height: z.number().int().min(1, { error: 'A map is at least 1 square high.' }).max(200, { error: 'A map is at most 200 squares across.' }),
    elevation: z.record(z.string().regex(/^\d+,\d+$/, { error: 'Elevation is keyed by "x,y".' }), z.number().int().min(-20).max(20, { error: 'Elevation goes from −20 to +20.' })),
    difficult: z.array(z.string().regex(/^\d+,\d+$/, { error: 'Squares are written "x,y".' })).max(40000),
    startingArea: z.array(z.string().regex(/^\d+,\d+$/, { error: 'Squares are written "x,y".' })).max(40000),
  });

  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(200, { error: 'Add at most 200 combatants at once.' }) }),
    z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: shortTextSchema }),
    z.strictObject({ type: z.literal('SET_SIDE'), combatantId: idSchema, side: sideSchema }),
    z.strictObject({ type: z.literal('SET_MAP'), map: mapSchema.nullable() }),
    z.strictObject({ type: z.literal('PLACE_NPC'), combatantId: idSchema, square: squareSchema.nullable() }),
    z.strictObject({ type: z.literal('START') }),
    z.strictObject({ type: z.literal('SET_CONDITION'), kind: z.enum(['win', 'defeat'], { error: 'A condition is a Win Condition or a Defeat Condition.' }), text: nameText('condition').pipe(z.string().max(200)) }),
    z.strictObject({ type: z.literal('CONDITION_MET'), n: z.number({ error: 'Give the condition\'s number.' }).int({ error: 'Give the condition\'s number.' }).min(1, { error: 'Conditions are numbered from 1.' }).max(10, { error: 'An encounter has at most 10 conditions.' }) }),
    z.strictObject({ type: z.literal('ROLL_INITIATIVE'), combatantId: idSchema, roll: rollSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('BREAK_TIE'), combatantId: idSchema }),
    z.strictObject({ type: z.literal('DELAY'), combatantId: idSchema, afterId: idSchema.nullable() }),
    z.strictObject({ type: z.literal('END_TURN') }),
    z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).nullable().optional(), initiativeRoll: rollSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('END_COMBAT'), outcome: shortTextSchema }),
    z.strictObject({ type: z.literal('PANIC_ROLL'), combatantId: idSchema, roll: rollSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('INCAPACITY_ROLL'), combatantId: idSchema, roll: rollSchema.nullable().optional() }),
    z.strictObject({
      type: z.literal('MOVE'), squares: z.number().int().min(1, { error: 'Move at least 1 square.' }).max(60).nullable().optional(),
      path: z.array(squareSchema).max(60, { error: 'A path is at most 60 squares.' }).nullable().optional(),
      drops: z.array(z.union([z.enum(['pay', 'success', 'failure'], { error: 'A drop is paid, rolled (Endurance or Reflex), or its result given.' }), dropDiceSchema])).max(60).nullable().optional(), teleport: z.boolean().optional(), note: shortTextSchema.optional(),
    }),
    z.strictObject({
      type: z.literal('FORCED_MOVE'), combatantId: idSchema, squares: z.number().int().min(1, { error: 'Move at least 1 square.' }).max(60).nullable().optional(),
      path: z.array(squareSchema).max(60, { error: 'A path is at most 60 squares.' }).nullable().optional(),
      drops: z.array(z.union([z.enum(['success', 'failure'], { error: 'A drop roll is rolled (Endurance or Reflex), or succeeds or fails.' }), dropDiceSchema])).max(60).nullable().optional(),
      drop: z.enum(['none', 'endurance', 'reflex', 'success', 'failure'], { error: 'The drop roll is none, Endurance, Reflex, success or failure.' }).nullable().optional(),
      dropDice: rollSchema.nullable().optional(), environmentDice: rollSchema.nullable().optional(),
      levels: z.number().int().min(2, { error: 'A drop that calls for a roll is two or more levels.' }).max(40).nullable().optional(),
      source: shortTextSchema.optional(),
    }),
    z.strictObject({
      type: z.literal('ATTACK'), attackerId: idSchema, ability: nameText('ability'), attackType: z.enum(['physical', 'mental'], { error: 'An attack is physical or mental.' }),
      art: z.number().int().min(-5).max(10).nullable().optional(),
      targets: z.array(z.strictObject({ targetId: idSchema, cover: z.boolean().nullable().optional() })).max(50, { error: 'At most 50 targets.' }),
      covered: z.array(idSchema).max(50).nullable().optional(),
      range: z.number().int().min(0).max(200).nullable().optional(), ranged: z.boolean().optional(), finisher: z.boolean().optional(), area: z.boolean().optional(),
      squares: areaSquaresSchema.nullable().optional(),
      adjacentEnemies: countSchema.nullable().optional(), overexert: z.number().int().min(0).max(10).nullable().optional(),
      fatigue: loadAmount, stress: loadAmount,
      statuses: z.array(z.strictObject({ status: nameText('status'), stacks: stacksSchema })).max(10).optional(),
      extraBoons: countSchema.optional(), extraBanes: countSchema.optional(), removesExhaustion: z.boolean().optional(), movesAfter: z.boolean().optional(),
      note: shortTextSchema.optional(),
    }),
    z.strictObject({ type: z.literal('DEFENSE_CHOICE'), defence: z.enum(['resilience', 'evasion', 'resolve', 'alternative'], { error: 'The defence is Resilience, Evasion, Resolve or an alternative.' }) }),
    // The contest (R-H11): the attack roll and the defence roll, rolled by the app or typed (`outcome` roll or left out);
    // or the outcome tier the GM gives (R-H11's hand-over reading, an ability's alternative defence, older events).
    z.strictObject({
      type: z.literal('DEFENSE_RESULT'),
      outcome: z.enum(['critical', 'success', 'failure', 'roll'], { error: 'The outcome is critical, success or failure. To let the dice decide, send roll.' }).nullable().optional(),
      attackRoll: rollSchema.nullable().optional(), defenceRoll: rollSchema.nullable().optional(),
    }),
    z.strictObject({
      type: z.literal('USE_ABILITY'), ability: nameText('ability'), overexert: z.number().int().min(0).max(10).nullable().optional(),
      removesExhaustion: z.boolean().optional(), movesAfter: z.boolean().optional(), buffTargetId: idSchema.nullable().optional(), terrainEffect: z.boolean().optional(),
      note: shortTextSchema.optional(),
    }),
    z.strictObject({ type: z.literal('RESUSCITATE'), targetId: idSchema }),
    z.strictObject({ type: z.literal('BUFF_CHOICE'), decision: z.enum(['keepOld', 'takeNew'], { error: 'Keep the old buff (keepOld) or take the new one (takeNew).' }) }),
    z.strictObject({ type: z.literal('SET_STANCE'), stance: nameText('stance') }),
    z.strictObject({ type: z.literal('POSITION'), square: squareSchema }),
    z.strictObject({
      type: z.literal('TRIGGER'), trigger: nameText('trigger'),
      effects: z.array(z.strictObject({ ownerId: idSchema, effect: nameText('effect').nullable().optional() })).max(50),
    }),
    z.strictObject({ type: z.literal('RESOLVE_TRIGGER'), ownerId: idSchema }),
    z.strictObject({
      type: z.literal('APPLY_LOAD'), targetId: idSchema, load: z.enum(['fatigue', 'stress'], { error: 'The load is Fatigue or Stress.' }),
      amount: z.number().int({ error: 'An amount is a whole number.' }).min(-20, { error: 'An amount is at least −20.' }).max(20, { error: 'An amount is at most 20.' }), source: shortTextSchema,
    }),
    z.strictObject({ type: z.literal('APPLY_STATUS'), targetId: idSchema, status: nameText('status'), stacks: stacksSchema, ticks: z.boolean().nullable().optional(), source: shortTextSchema }),
    z.strictObject({ type: z.literal('CLEAR_STATUS'), targetId: idSchema, status: nameText('status'), stacks: stacksSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('SET_POSITION'), combatantId: idSchema, square: squareSchema.nullable(), note: shortTextSchema }),
    z.strictObject({
      type: z.literal('OVERRIDE'), targetId: idSchema,
      field: z.enum(['fatigueLoad', 'stressLoad', 'fatigueTolerance', 'stressTolerance', 'wounds', 'incapacitated', 'moved', 'acted', 'prompt']),
      value: z.number().int().min(0).max(60), note: shortTextSchema,
    }),
  ]);
});
