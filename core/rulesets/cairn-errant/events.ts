// Cairn-Errant's GM events: their types, their schema, and the checks for those outside the fight's moments (setup,
// declarations, order). The combat events and their checks live in combat.ts.
import * as z from 'zod';
import { combatantSeedSchema, idSchema, shortTextSchema } from '../../encounter/schemas.ts';
import type { AddCombatantsEvent, AddLateCombatantEvent, EndCombatEvent, RemoveCombatantEvent } from '../../encounter/roster-machine.ts';
import type { EncounterSnapshot, GmEvent } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import type { CombatEvent, Roll } from './combat.ts';
import * as rules from './rules.ts';
import * as declarations from './declarations.ts';
import * as order from './order.ts';
import * as roster from './roster.ts';
import * as shared from '../../encounter/roster.ts';
import type { CairnContext, Tier } from './rules.ts';
import type { IntentInput } from './declarations.ts';

export type CairnEvent =
  | CombatEvent
  | AddCombatantsEvent
  | RemoveCombatantEvent
  | { type: 'START' }
  | ({ type: 'DECLARE_INTENT' } & IntentInput)
  | ({ type: 'SET_NPC_INTENT' } & IntentInput)
  | { type: 'TELEGRAPH'; combatantId: string; text: string }
  | { type: 'CONFIRM_TIER'; combatantId: string; tier: Tier }
  | { type: 'LOCK_INTENTS' }
  | { type: 'DEX_SAVE'; combatantId: string; roll?: Roll | null }
  | { type: 'END_TURN' }
  | AddLateCombatantEvent
  | EndCombatEvent;

/** Every check for a non-combat event; the machine's guards use the same answers. */
export function eventRefusal(ctx: CairnContext, event: CairnEvent | (GmEvent & CairnEvent)): string | null {
  // A follow-up question (a save, a critical roll...) blocks everything but its answer and OVERRIDE.
  if (ctx.phase !== 'setup' && ctx.moment.pending.length) return combat.stepQuestion(ctx, ctx.moment.pending[0]!);
  switch (event.type) {
    case 'ADD_COMBATANTS': return shared.checkAdd(roster.ROSTER, ctx, event.combatants);
    case 'REMOVE_COMBATANT': return shared.checkRemove(roster.ROSTER, ctx, event.combatantId);
    case 'START': return roster.checkStart(ctx);
    case 'DECLARE_INTENT': return declarations.checkIntent(ctx, event, 'pc');
    case 'SET_NPC_INTENT': return declarations.checkIntent(ctx, event, 'npc');
    case 'TELEGRAPH': {
      if (ctx.phase !== 'declare') return 'The Warden telegraphs while intents are being declared.';
      const c = ctx.combatants[event.combatantId];
      if (!c || c.side !== 'enemies') return 'Only an enemy\'s intent is telegraphed.';
      return rules.present(c) ? null : `${c.name} is no longer in the fight.`;
    }
    case 'CONFIRM_TIER': {
      if (ctx.phase !== 'declare') return 'Turns are classified before the intents are locked.';
      return ctx.intents[event.combatantId] ? null : `${rules.nameOf(ctx, event.combatantId)} has not declared an intent yet.`;
    }
    case 'LOCK_INTENTS': return declarations.checkLock(ctx);
    case 'DEX_SAVE': return order.checkDexSave(ctx, event.combatantId, event.roll?.faces ?? null);
    case 'ADD_LATE_COMBATANT': return shared.checkAdd(roster.ROSTER, ctx, [event.combatant]);
    default: return null;
  }
}

// ---- the event schema ----

// Built on first use, not as the module loads: a start (which reads no event) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
export const eventSchema = z.lazy(() => {
  const rollSchema = z.strictObject({
    faces: z.array(z.number({ error: 'A die face is a number.' }).int({ error: 'A die face is a whole number.' }).min(1, { error: 'A die face is at least 1.' }).max(20, { error: 'A die face is at most 20.' })).max(12, { error: 'At most 12 dice in one roll.' }),
    source: z.enum(['app', 'manual']),
  });
  const optionalRoll = rollSchema.nullable().optional();
  const defenceKindSchema = z.enum(['none', 'block', 'dodge', 'fightBack', 'parry'], { error: 'A defence is none, block, dodge, fightBack or parry.' });
  const attributeSchema = z.enum(['str', 'dex', 'wil'], { error: 'An attribute is STR, DEX or WIL.' });
  const textSchema = shortTextSchema;
  const injurySchema = z.strictObject({
    id: idSchema, kind: z.literal('injury'), location: z.enum(['torso', 'leftLeg', 'rightLeg', 'leftArm', 'rightArm', 'head']), name: z.string().trim().min(1).max(80), gainedHere: z.boolean().optional(),
  });
  const woundSchema = z.strictObject({
    id: idSchema, kind: z.literal('wound'), type: z.enum(['burns', 'nerveDamage', 'frostbite', 'poisoning', 'other']), severity: z.enum(['light', 'severe', 'permanent']),
    attribute: attributeSchema.nullable(), source: z.string().max(500), trainedBack: z.boolean(), supersedes: idSchema.nullable().optional(), gainedHere: z.boolean().optional(),
  });
  const stat = z.number().int().min(0).max(20);
  /** What a PC carries in from the campaign: its condition, hit-location Injuries and wounds. */
  const carriedSchema = z.strictObject({
    hp: stat.optional(), str: stat.optional(), strMax: stat.optional(), dex: stat.optional(), dexMax: stat.optional(), wil: stat.optional(), wilMax: stat.optional(),
    fatigue: z.number().int().min(0).max(10).optional(), gearSlots: z.number().int().min(0).max(10).optional(),
    nextInitiativeDisadvantage: z.boolean().optional(), failedCriticalSave: z.boolean().optional(), incapacitated: z.boolean().optional(),
    deathClockMinutes: z.number().int().min(0).max(60).optional(), treated: z.boolean().optional(), unconscious: z.boolean().optional(),
    injuries: z.array(injurySchema).max(10).optional(), wounds: z.array(woundSchema).max(10).optional(),
  });
  const seedSchema = combatantSeedSchema.extend({ carried: carriedSchema.optional() });

  /** The runner's choice fields send numbers as text ('8'); the stored event holds the number. */
  const fromText = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);

  const intentFields = {
    combatantId: idSchema,
    action: z.enum(['melee', 'gambit', 'ranged', 'retreat', 'move', 'spell', 'other'], { error: 'An intent is melee, gambit, ranged, retreat, move, spell or other.' }),
    targetId: idSchema.nullable().optional(),
    move: z.enum(['none', 'before', 'after'], { error: 'Movement is none, before or after the action.' }).optional(),
    bands: z.preprocess(fromText, z.literal([1, 2], { error: 'A move covers 1 or 2 range bands.' })).optional(),
    fromClose: z.boolean().optional(),
    fast: z.boolean().optional(),
    weapon: z.enum(['main', 'offhand', 'dual', 'unarmed', 'improvised'], { error: 'The weapon is main, offhand, dual, unarmed or improvised.' }).optional(),
    die: z.preprocess(fromText, z.literal([4, 6, 8, 10, 12], { error: 'A weapon die is d4, d6, d8, d10 or d12.' }).nullable()).optional(),
    improvisedSize: z.preprocess(fromText, z.literal([6, 8, 10], { error: 'An improvised weapon is bottle (d6), chair (d8) or table (d10) sized.' }).nullable()).optional(),
    position: z.enum(['normal', 'enhanced', 'impaired'], { error: 'The position is normal, enhanced or impaired.' }).optional(),
    nonLethal: z.boolean().optional(),
    note: textSchema.optional(),
  };

  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(100, { error: 'Add at most 100 combatants at once.' }) }),
    z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: textSchema }),
    z.strictObject({ type: z.literal('START') }),
    z.strictObject({ type: z.literal('DECLARE_INTENT'), ...intentFields }),
    z.strictObject({ type: z.literal('SET_NPC_INTENT'), ...intentFields }),
    z.strictObject({ type: z.literal('TELEGRAPH'), combatantId: idSchema, text: textSchema.pipe(z.string().min(1, { error: 'Say what the Warden lets slip.' })) }),
    z.strictObject({ type: z.literal('CONFIRM_TIER'), combatantId: idSchema, tier: z.enum(['quick', 'full'], { error: 'A turn is quick or full.' }) }),
    z.strictObject({ type: z.literal('LOCK_INTENTS') }),
    z.strictObject({ type: z.literal('DEX_SAVE'), combatantId: idSchema, roll: optionalRoll }),
    z.strictObject({ type: z.literal('END_TURN') }),
    z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).nullable().optional() }),
    z.strictObject({ type: z.literal('END_COMBAT'), outcome: textSchema }),
    z.strictObject({ type: z.literal('REDIRECT'), targetId: idSchema.nullable() }),
    z.strictObject({ type: z.literal('GAMBIT'), save: attributeSchema, roll: optionalRoll, saveRoll: optionalRoll }),
    z.strictObject({ type: z.literal('ATTACK_BACK'), decision: z.enum(['strike', 'decline'], { error: 'Attack back: strike or decline.' }), roll: optionalRoll }),
    z.strictObject({ type: z.literal('DEFENSE'), defence: defenceKindSchema, attackerId: idSchema.nullable().optional(), defenderId: idSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('STRIKE'), targetId: idSchema, roll: optionalRoll }),
    z.strictObject({ type: z.literal('TIE_BREAK'), attackerId: idSchema }),
    z.strictObject({ type: z.literal('STR_SAVE'), combatantId: idSchema, roll: optionalRoll }),
    z.strictObject({ type: z.literal('CRIT_D6'), combatantId: idSchema, roll: optionalRoll, hpRoll: optionalRoll }),
    z.strictObject({ type: z.literal('HIT_LOCATION'), combatantId: idSchema, roll: optionalRoll, strRoll: optionalRoll }),
    z.strictObject({ type: z.literal('NPC_CRITICAL'), result: z.enum(['dead', 'out', 'fightsOn'], { error: 'The enemy is dead, out, or fights on.' }) }),
    z.strictObject({ type: z.literal('HEAD_RESULT'), result: z.enum(['dies', 'survives'], { error: 'The head hit: dies or survives.' }) }),
    z.strictObject({ type: z.literal('FIGHT_BACK'), defenderId: idSchema, roll: optionalRoll }),
    z.strictObject({ type: z.literal('RETREAT'), combatantId: idSchema, safePlace: z.boolean().optional(), roll: optionalRoll }),
    z.strictObject({
      type: z.literal('APPLY_DAMAGE'), targetId: idSchema,
      amount: z.number({ error: 'An amount must be a number.' }).int({ error: 'An amount is a whole number.' }).min(1, { error: 'An amount is at least 1.' }).max(99, { error: 'An amount is at most 99.' }),
      source: textSchema, attribute: z.enum(['hp', 'str', 'dex', 'wil'], { error: 'Damage goes to HP, STR, DEX or WIL.' }).optional(), nonLethal: z.boolean().optional(),
    }),
    z.strictObject({ type: z.literal('SET_AWARE'), combatantId: idSchema, aware: z.boolean() }),
    z.strictObject({ type: z.literal('SET_BAND'), combatantId: idSchema, band: z.enum(['close', 'near', 'far', 'distant'], { error: 'A range band is close, near, far or distant.' }) }),
    z.strictObject({ type: z.literal('TREAT'), combatantId: idSchema, note: textSchema.optional() }),
    z.strictObject({
      type: z.literal('GAIN_WOUND'), combatantId: idSchema, woundType: z.enum(['burns', 'nerveDamage', 'frostbite', 'poisoning', 'other'], { error: 'A wound is burns, nerve damage, frostbite, poisoning or other.' }),
      choice: z.enum(['worsen', 'newSlot']).nullable().optional(), severity: z.enum(['light', 'severe', 'permanent']).nullable().optional(),
      attribute: attributeSchema.nullable().optional(), dropItem: z.boolean().optional(), source: textSchema,
    }),
    z.strictObject({
      type: z.literal('OVERRIDE'), targetId: idSchema, field: z.enum(['hp', 'str', 'dex', 'wil', 'fatigue', 'gearSlots', 'armor', 'skipPrompt'], { error: 'Override HP, STR, DEX, WIL, Fatigue, gear slots, Armor or the waiting question.' }),
      value: z.number().int().min(0).max(20), note: textSchema,
    }),
  ]);
});

/** The encounter's context as this ruleset keeps it. */
export const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as CairnContext;
