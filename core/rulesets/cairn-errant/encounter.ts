// Cairn-Errant's encounter rules as the kernel sees them: the event schema, refusals, the log lines, the runner view,
// the rolls an event needs, and what the fight leaves on the campaign.
import { z } from 'zod';
import type { CombatantView, Consequences, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine, RollRequest } from '../../encounter/types.ts';
import { eventRound } from '../../encounter/log-round.ts';
import { combatantSeedSchema, idSchema, shortTextSchema } from '../../encounter/schemas.ts';
import * as combat from './combat.ts';
import type { CombatEvent, Roll } from './combat.ts';
import * as events from './events.ts';
import type { CairnEvent } from './events.ts';
import { ANYTIME_TYPES, STEP_TYPES, cairnErrantMachine } from './machine.ts';
import * as rules from './rules.ts';
import * as intents from './intents.ts';
import * as order from './order.ts';
import type { CairnCombatant, CairnContext, HitInjury, Wound } from './rules.ts';
import { counted } from '../../words.ts';

// ---- the event schema ----

const rollSchema = z.strictObject({
  faces: z.array(z.number({ error: 'A die face is a number.' }).int({ error: 'A die face is a whole number.' }).min(1, { error: 'A die face is at least 1.' }).max(20, { error: 'A die face is at most 20.' })).max(12, { error: 'At most 12 dice in one roll.' }),
  source: z.enum(['app', 'manual']),
});
const optionalRoll = rollSchema.nullable().optional();
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
  id: idSchema,
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

const eventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(100, { error: 'Add at most 100 combatants at once.' }) }),
  z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: textSchema }),
  z.strictObject({ type: z.literal('START') }),
  z.strictObject({ type: z.literal('DECLARE_INTENT'), ...intentFields }),
  z.strictObject({ type: z.literal('SET_NPC_INTENT'), ...intentFields }),
  z.strictObject({ type: z.literal('TELEGRAPH'), id: idSchema, text: textSchema.pipe(z.string().min(1, { error: 'Say what the Warden lets slip.' })) }),
  z.strictObject({ type: z.literal('CONFIRM_TIER'), id: idSchema, tier: z.enum(['quick', 'full'], { error: 'A turn is quick or full.' }) }),
  z.strictObject({ type: z.literal('LOCK_INTENTS') }),
  z.strictObject({ type: z.literal('DEX_SAVE'), id: idSchema, roll: optionalRoll }),
  z.strictObject({ type: z.literal('END_TURN') }),
  z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).nullable().optional() }),
  z.strictObject({ type: z.literal('END_COMBAT'), outcome: textSchema }),
  z.strictObject({ type: z.literal('REDIRECT'), id: idSchema }),
  z.strictObject({ type: z.literal('GAMBIT'), id: attributeSchema, roll: optionalRoll, saveRoll: optionalRoll }),
  z.strictObject({ type: z.literal('ATTACK_BACK'), id: z.enum(['strike', 'decline'], { error: 'Attack back: strike or decline.' }), roll: optionalRoll }),
  z.strictObject({ type: z.literal('DEFENSE'), id: z.string().min(1).max(80), defenderId: idSchema.nullable().optional() }),
  z.strictObject({ type: z.literal('STRIKE'), id: idSchema, roll: optionalRoll }),
  z.strictObject({ type: z.literal('TIE_BREAK'), id: idSchema }),
  z.strictObject({ type: z.literal('STR_SAVE'), id: idSchema, roll: optionalRoll }),
  z.strictObject({ type: z.literal('CRIT_D6'), id: idSchema, roll: optionalRoll, hpRoll: optionalRoll }),
  z.strictObject({ type: z.literal('HIT_LOCATION'), id: idSchema, roll: optionalRoll, strRoll: optionalRoll }),
  z.strictObject({ type: z.literal('NPC_CRITICAL'), id: z.enum(['dead', 'out', 'fightsOn'], { error: 'The enemy is dead, out, or fights on.' }) }),
  z.strictObject({ type: z.literal('HEAD_RESULT'), id: z.enum(['dies', 'survives'], { error: 'The head hit: dies or survives.' }) }),
  z.strictObject({ type: z.literal('FIGHT_BACK'), id: idSchema, roll: optionalRoll }),
  z.strictObject({ type: z.literal('RETREAT'), id: idSchema, safePlace: z.boolean().optional(), roll: optionalRoll }),
  z.strictObject({
    type: z.literal('APPLY_DAMAGE'), targetId: idSchema,
    amount: z.number({ error: 'An amount must be a number.' }).int({ error: 'An amount is a whole number.' }).min(1, { error: 'An amount is at least 1.' }).max(99, { error: 'An amount is at most 99.' }),
    source: textSchema, attribute: z.enum(['hp', 'str', 'dex', 'wil'], { error: 'Damage goes to HP, STR, DEX or WIL.' }).optional(), nonLethal: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('SET_AWARE'), id: idSchema, aware: z.boolean() }),
  z.strictObject({ type: z.literal('SET_BAND'), id: idSchema, band: z.enum(['close', 'near', 'far', 'distant'], { error: 'A range band is close, near, far or distant.' }) }),
  z.strictObject({ type: z.literal('TREAT'), id: idSchema, note: textSchema.optional() }),
  z.strictObject({
    type: z.literal('GAIN_WOUND'), id: idSchema, woundType: z.enum(['burns', 'nerveDamage', 'frostbite', 'poisoning', 'other'], { error: 'A wound is burns, nerve damage, frostbite, poisoning or other.' }),
    choice: z.enum(['worsen', 'newSlot']).nullable().optional(), severity: z.enum(['light', 'severe', 'permanent']).nullable().optional(),
    attribute: attributeSchema.nullable().optional(), dropItem: z.boolean().optional(), source: textSchema,
  }),
  z.strictObject({
    type: z.literal('OVERRIDE'), targetId: idSchema, field: z.enum(['hp', 'str', 'dex', 'wil', 'fatigue', 'gearSlots', 'armor', 'skipPrompt'], { error: 'Override HP, STR, DEX, WIL, Fatigue, gear slots, Armor or the waiting question.' }),
    value: z.number().int().min(0).max(20), note: textSchema,
  }),
]);

// ---- refusals ----

const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as CairnContext;
const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'START']);
const COMBAT_EVENTS = new Set<string>([...STEP_TYPES, ...ANYTIME_TYPES, 'RETREAT']);

function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
  const event = raw as GmEvent & CairnEvent;
  const ctx = contextOf(snapshot);
  if (snapshot.matches('ended')) return 'This encounter has ended.';
  if (SETUP_EVENTS.has(event.type) && !snapshot.matches('setup')) return event.type === 'ADD_COMBATANTS' ? 'The fight has started: add newcomers as late arrivals.' : 'The fight has already started.';
  if (!SETUP_EVENTS.has(event.type) && event.type !== 'REMOVE_COMBATANT' && snapshot.matches('setup')) return 'Start the fight first.';
  if (COMBAT_EVENTS.has(event.type)) return combat.combatRefusal(ctx, event as CombatEvent);
  if (event.type === 'END_TURN') return combat.closeMomentRefusal(ctx);
  return events.eventRefusal(ctx, event);
}

// ---- rolls an event needs (the app rolls them, or the GM types the faces) ----

/** A roll request; mixed dice (d8 + d6 + d12) list each die's sides in order, so typed faces are checked one by one. */
const request = (path: (string | number)[], label: string, sizes: number[], keepWorse = false): RollRequest => ({
  path, label, notation: keepWorse ? `${sizes.length}d20kh1` : combat.notation(sizes), count: sizes.length, sides: Math.max(...sizes),
  ...(new Set(sizes).size > 1 ? { dice: [...sizes] } : {}),
});

function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = raw as GmEvent & CairnEvent;
  const step = combat.nextStep(ctx);
  const name = (id: string) => rules.nameOf(ctx, id);
  try {
    switch (event.type) {
      case 'DEX_SAVE': {
        const c = ctx.combatants[event.id];
        if (!c || !order.pendingDexSaves(ctx).includes(event.id)) return [];
        const dice = order.dexSaveDice(c);
        return [request(['roll'], `${c.name}: DEX save (d20 ≤ ${c.dex}${dice.length === 2 ? ', disadvantage' : ''})`, dice, dice.length === 2)];
      }
      case 'STR_SAVE':
        return step?.kind === 'critSave' ? [request(['roll'], `${name(step.id)}: STR save (d20 ≤ ${ctx.combatants[step.id]!.str})`, [20])] : [];
      case 'CRIT_D6':
        return step?.kind === 'critTable' ? [request(['roll'], `${name(step.id)}: critical damage d6`, [6]), request(['hpRoll'], 'HP regained on a 6', [4])] : [];
      case 'HIT_LOCATION':
        return step?.kind === 'critTable' ? [request(['roll'], `${name(step.id)}: hit location d10`, [10]), request(['strRoll'], 'STR lost on a torso hit', [4])] : [];
      case 'GAMBIT':
        return step?.kind === 'gambit'
          ? [request(['roll'], `${name(step.attackerId)}: gambit roll`, combat.gambitDice(ctx, step.attackerId)), request(['saveRoll'], `${name(step.targetId)}: ${event.id.toUpperCase()} save`, [20])]
          : [];
      case 'ATTACK_BACK':
        // R-C17 option: when the gambit user may react, the attack back is rolled after its reaction (STRIKE).
        return step?.kind === 'attackBack' && event.id === 'strike' && !combat.reactsToAttackBack(ctx, step.against) ? [request(['roll'], `${name(step.by)}: attack back`, combat.counterDice(ctx, step.by))] : [];
      case 'STRIKE': {
        if (step?.kind === 'attackBackStrike') {
          const plan = combat.planAttackBack(ctx, step);
          if (plan.dice.length === 0) return [];
          const parts = [`${name(step.by)} ${plan.attack.map((d) => `d${d}`).join('+')}`, ...(plan.parry ? [`${name(step.against)}'s parry ${plan.parry.map((d) => `d${d}`).join('+')}`] : [])];
          return [request(['roll'], `Attack back on ${name(step.against)}: ${parts.join(', ')}`, plan.dice)];
        }
        if (step?.kind !== 'strike') return [];
        const plan = combat.planStrike(ctx, step.targetId);
        if (plan.dice.length === 0) return [];
        const parts = [...plan.attacks.filter((a) => !a.negated).map((a) => `${name(a.attackerId)} ${a.dice.map((d) => `d${d.size}`).join('+')}`), ...(plan.parry ? [`${name(step.targetId)}'s parry ${plan.parry.dice.map((d) => `d${d}`).join('+')}`] : [])];
        return [request(['roll'], `Damage on ${name(step.targetId)}: ${parts.join(', ')}`, plan.dice)];
      }
      case 'FIGHT_BACK':
        return step?.kind === 'fightBack' ? [request(['roll'], `${name(step.defenderId)}: fight back`, combat.counterDice(ctx, step.defenderId))] : [];
      case 'RETREAT':
        return ctx.combatants[event.id] && event.safePlace !== false ? [request(['roll'], `${name(event.id)}: DEX save to retreat (d20 ≤ ${ctx.combatants[event.id]!.dex})`, [20])] : [];
      default:
        return [];
    }
  } catch {
    return [];
  }
}

// ---- the log ----

const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const names = (ctx: CairnContext, ids: string[]) => ids.map((id) => rules.nameOf(ctx, id)).join(', ');
const BUCKET_LABEL: Record<rules.Moment['bucket'], string> = { pcPass: 'PCs who won the DEX save', npc: 'enemies', pcFail: 'PCs who lost the DEX save', clash: 'melee clash' };
const tierLabel = (tier: rules.Moment['tier']) => (tier === 'turn' ? 'turns' : tier);

function momentLabel(ctx: CairnContext, index: number): string {
  const m = ctx.moments[index]!;
  const contested = m.bucket !== 'clash' && ctx.moments.some((o) => o.tier === m.tier && o.bucket === 'npc') && ctx.moments.some((o) => o.tier === m.tier && (o.bucket === 'pcPass' || o.bucket === 'pcFail'));
  const bucket = m.bucket === 'pcPass' && !contested ? 'PCs' : BUCKET_LABEL[m.bucket];
  return `${tierLabel(m.tier)}, ${bucket}`;
}

function intentLine(ctx: CairnContext, id: string): string {
  const intent = ctx.intents[id]!;
  return `${intents.describeIntent(ctx, intent)} — ${intent.tier} turn${intent.tierConfirmed ? ' (confirmed by the GM)' : ''}`;
}

function damageLine(before: CairnContext, after: CairnContext, id: string): string {
  const a = before.combatants[id]!;
  const b = after.combatants[id]!;
  const parts = [`HP ${a.hp}→${b.hp}`];
  if (b.str !== a.str) parts.push(`STR ${a.str}→${b.str}`);
  return `${b.name}: ${parts.join(', ')}`;
}

/** Source "All improvised weapons break after 1 attack": the log says so when this event broke one. */
const breaks = (before: CairnContext, after: CairnContext, id: string) =>
  !before.brokenImprovised?.includes(id) && after.brokenImprovised?.includes(id) ? ', the improvised weapon breaks' : '';

function strikeLine(event: Extract<CombatEvent, { type: 'STRIKE' }>, before: CairnContext, after: CairnContext): LogLine {
  const round = eventRound(before, after);
  const name = (id: string) => rules.nameOf(before, id);
  const plan = combat.planStrike(before, event.id);
  if (plan.dice.length === 0) {
    return { round, kind: 'attack', actorId: event.id, rulings: ['R-C9'], text: `Every attack on ${name(event.id)} is negated by the ${plan.defence.kind === 'block' ? 'Block' : 'Dodge'}: no damage.` };
  }
  const outcome = combat.resolveStrike(before, event.id, event.roll!);
  const target = before.combatants[event.id]!;
  const rulings = new Set(outcome.rulings);
  const each = outcome.totals.map((t) => {
    const spec = plan.attacks.find((a) => a.attackerId === t.attackerId)!;
    if (t.negated) return `${name(t.attackerId)}: ${spec.notes.join(', ')}`;
    const dice = spec.dice.map((d) => `d${d.size}`).join('+');
    const improvised = breaks(before, after, t.attackerId);
    return `${name(t.attackerId)} ${dice} [${t.faces.join(', ')}] → ${t.total}${spec.notes.length ? ` (${spec.notes.join(', ')})` : ''}${improvised}`;
  });
  const sentences = [`Damage on ${target.name}: ${each.join('; ')}.`];
  if (outcome.parry) {
    const p = outcome.parry;
    const armorNote = before.options['parryIgnoresArmor'] === true ? 'Armor ignored' : 'after Armor';
    if (p.result === 'won') sentences.push(`Parry: ${target.name} ${p.ours} beats ${name(p.attackerId)} ${p.theirs}: ${p.damage} straight to ${name(p.attackerId)}'s STR (${armorNote}, no save).`);
    else if (p.result === 'lost') sentences.push(`Parry: ${name(p.attackerId)} ${p.theirs} beats ${target.name} ${p.ours}: ${p.damage} straight to ${target.name}'s STR (${armorNote}, no save).`);
    else sentences.push(`Parry: ${p.ours} against ${p.theirs}, twing! The weapons bounce off in a rain of sparks; no damage either way.`);
  }
  if (outcome.kept) {
    const k = outcome.kept;
    const from = k.attackerIds.length > 1 ? `tied between ${names(before, k.attackerIds)}` : `from ${name(k.attackerIds[0]!)}`;
    const keep = outcome.totals.filter((t) => !t.negated && t.attackerId !== outcome.parry?.attackerId).length > 1 ? 'keeps the highest, ' : '';
    const to = k.toStr ? ` straight to STR (${target.aware ? 'overburdened' : 'unaware'})` : '';
    sentences.push(`${keep}${k.total} ${from} − Armor ${target.armor} = ${k.damage}${to}.`);
    if (k.toStr) rulings.add('R-C13');
    const b = after.combatants[event.id]!;
    if (!k.toStr && b.hp === 0 && b.str === target.str && target.hp === k.damage) rulings.add('R-C21');
  }
  const touched = [event.id, ...(outcome.parry?.result === 'won' ? [outcome.parry.attackerId] : [])];
  sentences.push(`${touched.map((id) => damageLine(before, after, id)).join('; ')}.`);
  return { round, kind: 'attack', actorId: event.id, rulings: [...rulings], text: sentences.join(' ') };
}

/** The attack back after the gambit user's reaction (R-C17 option): dice, the reaction's effect, a Parry's comparison. */
function attackBackLine(step: Extract<rules.Step, { kind: 'attackBackStrike' }>, event: Extract<CombatEvent, { type: 'STRIKE' }>, before: CairnContext, after: CairnContext): LogLine {
  const name = (id: string) => rules.nameOf(before, id);
  const plan = combat.planAttackBack(before, step);
  const outcome = combat.resolveAttackBack(before, plan, event.roll);
  const rulings = ['R-C17'];
  if (outcome.total === null) return { round: eventRound(before, after), kind: 'attack', actorId: step.by, rulings, text: `${name(step.by)}'s attack back is ${plan.notes.join(', ')}: no damage.` };
  const attackFaces = event.roll!.faces.slice(0, plan.attack.length);
  const sentences = [`${name(step.by)} attacks back: ${plan.attack.map((d) => `d${d}`).join('+')} [${attackFaces.join(', ')}] → ${outcome.total}${plan.notes.length ? ` (${plan.notes.join(', ')})` : ''}.`];
  const p = outcome.parry;
  if (p) {
    rulings.push('R-C15');
    const armorNote = before.options['parryIgnoresArmor'] === true ? 'Armor ignored' : 'after Armor';
    if (p.result === 'won') sentences.push(`Parry: ${name(step.against)} ${p.ours} beats ${p.theirs}: ${p.damage} straight to ${name(step.by)}'s STR (${armorNote}, no save).`);
    else if (p.result === 'lost') sentences.push(`Parry: ${p.theirs} beats ${name(step.against)}'s ${p.ours}: ${p.damage} straight to ${name(step.against)}'s STR (${armorNote}, no save).`);
    else sentences.push(`Parry: ${p.ours} against ${p.theirs}, twing! No damage either way.`);
  } else sentences.push(`${outcome.total} − ${name(step.against)}'s Armor ${before.combatants[step.against]!.armor} = ${outcome.damage}.`);
  const touched = p?.result === 'won' ? [step.by] : [step.against];
  sentences.push(`${touched.map((id) => damageLine(before, after, id)).join('; ')}.`);
  return { round: eventRound(before, after), kind: 'attack', actorId: step.by, rulings, text: sentences.join(' ') };
}

function combatLine(event: CombatEvent, before: CairnContext, after: CairnContext): LogLine | null {
  const round = eventRound(before, after);
  const name = (id: string | null | undefined) => rules.nameOf(before, id);
  const step = combat.nextStep(before);
  switch (event.type) {
    case 'REDIRECT': {
      const actor = step?.kind === 'redirect' ? step.actorId : null;
      return { round, kind: 'decision', actorId: actor, rulings: ['R-C4'], text: event.id === 'lost' ? `${name(actor)}'s target is gone: the action is lost.` : `${name(actor)}'s target is gone: the GM redirects the action to ${name(event.id)}.` };
    }
    case 'GAMBIT': {
      if (step?.kind !== 'gambit') return null;
      const target = before.combatants[step.targetId]!;
      const face = Math.max(...event.roll!.faces);
      const difficulty = combat.gambitDifficulty(face, before.options);
      const saveFace = event.saveRoll!.faces[0]!;
      const passes = combat.gambitSavePasses(saveFace, target[event.id], difficulty, before.options);
      const rulings = ['R-C19', ...(saveFace === 1 && difficulty > 0 ? ['R-C16'] : [])];
      const dc = difficulty ? `Difficulty ${difficulty}` : 'no Difficulty';
      const result = passes ? `passes: the gambit fails${combat.nextStep(after)?.kind === 'attackBack' ? ` and ${target.name} may attack back` : ''}` : 'fails: the gambit works';
      return { round, kind: 'attack', actorId: step.attackerId, rulings, text: `${name(step.attackerId)} tries a gambit on ${target.name}${before.intents[step.attackerId]!.note ? ` (${before.intents[step.attackerId]!.note})` : ''}: ${combat.gambitDice(before, step.attackerId).map((d) => `d${d}`).join('+')} ${faces(event.roll)} → ${face}, ${dc}. ${target.name}'s ${event.id.toUpperCase()} save ${faces(event.saveRoll)} against ${target[event.id]}${difficulty ? ` and above ${difficulty}` : ''}: ${result}.` };
    }
    case 'ATTACK_BACK': {
      if (step?.kind !== 'attackBack') return null;
      if (event.id === 'decline') return { round, kind: 'decision', actorId: step.by, text: `${name(step.by)} does not attack back.` };
      if (combat.reactsToAttackBack(before, step.against)) return { round, kind: 'decision', actorId: step.by, rulings: ['R-C17'], text: `${name(step.by)} attacks ${name(step.against)} back; ${name(step.against)} may react first (the gambit user's reaction is allowed in this campaign).` };
      const total = Math.max(...event.roll!.faces);
      const armor = before.combatants[step.against]!.armor;
      return { round, kind: 'attack', actorId: step.by, rulings: ['R-C17'], text: `${name(step.by)} attacks back: ${combat.counterDice(before, step.by).map((d) => `d${d}`).join('+')} ${faces(event.roll)} → ${total} − Armor ${armor} = ${Math.max(0, total - armor)}; ${name(step.against)} cannot react. ${damageLine(before, after, step.against)}.` };
    }
    case 'DEFENSE': {
      if (step?.kind !== 'defence' && step?.kind !== 'attackBackDefence') return null;
      const defence = combat.parseDefence(event.id)!;
      const defenderId = step.kind === 'defence' ? step.targetId : step.against;
      const c = after.combatants[defenderId]!;
      const fatigue = combat.defenceFatigue(defence, before.options);
      const cost = fatigue ? ` (+1 Fatigue: ${c.fatigue} Fatigue, ${rules.slotsUsed(c)}/${rules.SLOTS} slots${rules.overburdened(c) ? ', overburdened' : ''})` : '';
      const what = {
        none: `${c.name} takes the attack without reacting`,
        block: `${c.name} blocks: fast and balanced attacks${before.options['blockDodge'] === 'graded' && rules.blockGear(before, c) ? ' are negated' : ' become impaired'}`,
        dodge: `${c.name} dodges: balanced and slow attacks${before.options['blockDodge'] === 'graded' && !rules.dodgeHampered(before, c) ? ' are negated' : ' become impaired'}`,
        fightBack: `${c.name} will fight back against ${name(defence.kind === 'fightBack' ? defence.attackerId : '')} once the incoming damage is taken`,
        parry: `${c.name} parries ${name(defence.kind === 'parry' ? defence.attackerId : '')}`,
      }[defence.kind];
      const rulings = defence.kind === 'parry' ? ['R-C8'] : defence.kind === 'none' ? [] : ['R-C9'];
      if ((defence.kind === 'block' || defence.kind === 'dodge') && before.options['blockDodge'] !== 'default') rulings.push('R-C9');
      if (step.kind === 'attackBackDefence') rulings.unshift('R-C17');
      const against = step.kind === 'attackBackDefence' ? ` (against ${name(step.by)}'s attack back)` : '';
      return { round, kind: 'decision', actorId: defenderId, rulings: [...new Set(rulings)], text: `${what}${against}${cost}.` };
    }
    case 'STRIKE':
      if (step?.kind === 'attackBackStrike') return attackBackLine(step, event, before, after);
      return step?.kind === 'strike' ? strikeLine(event, before, after) : null;
    case 'TIE_BREAK':
      return { round, kind: 'decision', actorId: event.id, rulings: ['R-C20'], text: `The highest dice are tied: the GM picks ${name(event.id)}'s weapon, so only its tags and effects apply.` };
    case 'STR_SAVE': {
      if (step?.kind !== 'critSave') return null;
      const c = before.combatants[step.id]!;
      const { kept, passed } = order.saveResult(event.roll!.faces, c.str);
      const outcome = passed ? 'passes' : step.nonLethal ? `fails: ${c.name} is knocked unconscious (non-lethal)` : c.side === 'party' ? 'fails: critical damage' : `fails${before.options['npcCriticalDamage'] === 'fightsOnImpaired' ? `: ${c.name} fights on, impaired (R-C23)` : ''}`;
      return { round, kind: 'decision', actorId: step.id, text: `${c.name}'s STR save against Critical Damage: d20 ${faces(event.roll)} → ${kept} against STR ${c.str}: ${outcome}.` };
    }
    case 'CRIT_D6': {
      const id = event.id;
      const face = event.roll!.faces[0]!;
      const c = after.combatants[id]!;
      const result = combat.critD6Result(face);
      const text = result === 'dies' ? `${c.name} dies.` : result === 'incapacitated' ? `${c.name} is incapacitated and dies within the hour unless treated: the death clock starts at ${combat.DEATH_CLOCK_MINUTES} minutes of in-game time (TREAT stops it).` : `No. Not today: ${c.name} regains d4 ${faces(event.hpRoll)} HP (HP ${c.hp}).`;
      return { round, kind: 'decision', actorId: id, text: `Critical damage d6 ${faces(event.roll)}: ${text}` };
    }
    case 'HIT_LOCATION': {
      const id = event.id;
      const face = event.roll!.faces[0]!;
      const where = combat.locationOf(face);
      const b = after.combatants[id]!;
      const a = before.combatants[id]!;
      const rulings: string[] = [];
      let effect = '';
      if (where.location === 'torso') effect = `loses another d4 ${faces(event.strRoll)} STR (STR ${a.str}→${b.str})`;
      else if (where.location === 'leftLeg' || where.location === 'rightLeg') {
        const twice = rules.legHits(b)[where.location === 'leftLeg' ? 'left' : 'right'] >= 2;
        effect = twice ? 'a second hit on the same leg: loses every initiative roll until it heals' : 'loses fast movement and the use of the leg; the next initiative DEX save is at disadvantage';
        rulings.push('R-C6', 'R-C6b');
      } else if (where.location === 'leftArm' || where.location === 'rightArm') effect = 'disarmed; loses the use of the arm (no dual wielding, no two-handed weapons)';
      else {
        effect = before.options['headResult'] === 'gmDecides' ? 'most likely fatal: the GM decides' : 'most likely fatal: dies';
        rulings.push('R-C22');
      }
      return { round, kind: 'decision', actorId: id, rulings, text: `Hit location d10 ${faces(event.roll)}: ${where.name.replace(' injury', '').toLowerCase()}. ${b.name} ${effect}. ${where.name} added to the inventory (${rules.slotsUsed(b)}/${rules.SLOTS} slots).` };
    }
    case 'NPC_CRITICAL': {
      const id = step?.kind === 'npcCrit' ? step.id : null;
      const text = event.id === 'dead' ? 'is dead' : event.id === 'out' ? 'is out of the fight' : 'fights on, its attacks impaired and attacks against it likely enhanced';
      return { round, kind: 'decision', actorId: id, rulings: ['R-C23'], text: `Critical damage: ${name(id)} ${text}.` };
    }
    case 'HEAD_RESULT': {
      const id = step?.kind === 'head' ? step.id : null;
      return { round, kind: 'decision', actorId: id, rulings: ['R-C22'], text: event.id === 'dies' ? `The head hit is fatal: ${name(id)} dies.` : `Against the odds ${name(id)} survives the head hit.` };
    }
    case 'FIGHT_BACK': {
      if (step?.kind !== 'fightBack') return null;
      const total = Math.max(...event.roll!.faces);
      const armor = before.combatants[step.attackerId]!.armor;
      return { round, kind: 'attack', actorId: step.defenderId, text: `${name(step.defenderId)} fights back: ${combat.counterDice(before, step.defenderId).map((d) => `d${d}`).join('+')} ${faces(event.roll)} → ${total} − ${name(step.attackerId)}'s Armor ${armor} = ${Math.max(0, total - armor)}${breaks(before, after, step.defenderId)}; the attacker cannot react. ${damageLine(before, after, step.attackerId)}.` };
    }
    case 'RETREAT': {
      const c = before.combatants[event.id]!;
      if (event.safePlace === false) return { round, kind: 'decision', actorId: event.id, text: `${c.name} has no safe place to run to: the retreat cannot succeed, and the action is lost.` };
      const { kept, passed } = order.saveResult(event.roll!.faces, c.dex);
      return { round, kind: 'decision', actorId: event.id, rulings: passed ? [] : ['R-C10'], text: `${c.name} tries to retreat: DEX save ${faces(event.roll)} → ${kept} against DEX ${c.dex}: ${passed ? `${c.name} gets away` : `fails; the action is wasted and ${c.name} stays in place`}.` };
    }
    case 'APPLY_DAMAGE': {
      const where = event.attribute ?? 'hp';
      const a = before.combatants[event.targetId]!;
      const b = after.combatants[event.targetId]!;
      const result = where === 'dex' ? `DEX ${a.dex}→${b.dex}` : where === 'wil' ? `WIL ${a.wil}→${b.wil}` : damageLine(before, after, event.targetId).replace(`${b.name}: `, '');
      return { round, kind: 'damage', actorId: event.targetId, rulings: where === 'str' ? ['R-C13'] : [], text: `${b.name} takes ${event.amount} ${where === 'hp' ? 'damage' : `${where.toUpperCase()} damage`}${event.nonLethal ? ' (non-lethal)' : ''}${event.source ? ` from ${event.source}` : ''}: ${result}.` };
    }
    case 'SET_AWARE':
      return { round, kind: 'decision', actorId: event.id, rulings: ['R-C13'], text: event.aware ? `${name(event.id)} is aware again.` : `The GM rules ${name(event.id)} unaware: no defence, and damage after Armor goes straight to STR.` };
    case 'SET_BAND': {
      const c = before.combatants[event.id]!;
      const from = c.band ? `${rules.bandLabel(c.band)} → ` : '';
      const reference = c.side === 'enemies' ? 'from the party' : 'from the nearest foe';
      const retiered = Object.keys(after.intents).filter((id) => before.intents[id] && after.intents[id]!.tier !== before.intents[id]!.tier);
      const changed = retiered.length ? ` ${retiered.map((id) => `${rules.nameOf(after, id)}'s intent is now a ${after.intents[id]!.tier} turn`).join('; ')}.` : '';
      return { round, kind: 'decision', actorId: event.id, text: `${c.name} is ${from}${rules.bandLabel(event.band)} ${reference}.${changed}` };
    }
    case 'TREAT':
      return { round, kind: 'decision', actorId: event.id, rulings: ['R-C27'], text: `${name(event.id)} is treated${event.note ? ` (${event.note})` : ''}: the death clock stops${before.options['treatedStaysOut'] !== false ? `; ${name(event.id)} stays out of the fight until healed` : ''}.` };
    case 'GAIN_WOUND': {
      const a = before.combatants[event.id]!;
      const b = after.combatants[event.id]!;
      const label = combat.WOUND_TYPES.find((t) => t.key === event.woundType)!.label;
      const changed = b.wounds.find((w) => !a.wounds.some((o) => o.id === w.id && o.severity === w.severity))!;
      const permanent = changed.severity === 'permanent' && changed.attribute ? ` ${changed.attribute.toUpperCase()} −1 (${b[changed.attribute]}/${b[`${changed.attribute}Max`]}); the slot is lost for good.` : '';
      const dropped = b.gearSlots < a.gearSlots ? ' An item is dropped to make room (R-C26).' : '';
      const what = event.choice === 'worsen' ? `${b.name}'s ${label} worsens to ${changed.severity}` : `${b.name} gains ${changed.severity} ${label}`;
      return { round, kind: 'damage', actorId: event.id, rulings: dropped ? ['R-C26'] : [], text: `${what}${event.source ? ` (${event.source})` : ''}: ${rules.slotsUsed(b)}/${rules.SLOTS} slots.${permanent}${dropped}` };
    }
    case 'OVERRIDE': {
      if (event.field === 'skipPrompt') return { round, kind: 'decision', actorId: event.targetId, text: `GM override: the waiting question is set aside (${step ? combat.stepQuestion(before, step) : ''})${event.note ? ` — ${event.note}` : ''}.` };
      const label = { hp: 'HP', str: 'STR', dex: 'DEX', wil: 'WIL', fatigue: 'Fatigue', gearSlots: 'gear slots', armor: 'Armor' }[event.field];
      return { round, kind: 'decision', actorId: event.targetId, text: `GM override: ${name(event.targetId)}'s ${label} set to ${event.value}${event.note ? ` (${event.note})` : ''}.` };
    }
  }
}

function eventLine(event: GmEvent & CairnEvent, before: CairnContext, after: CairnContext): LogLine | null {
  const round = eventRound(before, after);
  if (COMBAT_EVENTS.has(event.type)) return combatLine(event as CombatEvent, before, after);
  switch (event.type) {
    case 'ADD_COMBATANTS': {
      const bySide = (side: string) => event.combatants.filter((c) => c.side === side).map((c) => c.name);
      const parts = (['party', 'enemies'] as const).filter((s) => bySide(s).length).map((s) => `${bySide(s).join(', ')} to the ${s === 'party' ? 'party' : 'enemies'}`);
      return { round, kind: 'setup', text: `Added ${parts.join('; ')}.` };
    }
    case 'REMOVE_COMBATANT': {
      const name = rules.nameOf(before, event.combatantId);
      if (before.phase === 'setup') return { round, kind: 'setup', text: `${name} was taken off the roster.` };
      return { round, kind: 'removal', actorId: event.combatantId, text: `${name} leaves the fight${event.reason ? ` (${event.reason})` : ''}.` };
    }
    case 'START': {
      // A PC carried in while dying: its death clock keeps running in in-game minutes (§4.4 step 10).
      const dying = before.roster.map((id) => before.combatants[id]!).filter((c) => c.deathClock !== null);
      const clocks = dying.map((c) => ` ${c.name} is dying: ${counted(c.deathClock!, 'minute')} left on the death clock unless treated.`).join('');
      return { round: 1, kind: 'round', rulings: ['R-C1'], text: `The fight begins (${before.options['initiativeMode'] === 'simpleDex' ? 'base Cairn initiative: one DEX save at the start' : 'declared intents, quick turns before full turns'}).${clocks}` };
    }
    case 'DECLARE_INTENT':
    case 'SET_NPC_INTENT': {
      const c = after.combatants[event.id]!;
      const rulings = rules.lostFastMovement(c) && (event.action === 'move' || event.action === 'retreat') ? ['R-C6b'] : [];
      const who = event.type === 'DECLARE_INTENT' ? `${c.name} declares` : `The Warden sets ${c.name}'s intent`;
      return { round, kind: 'order', actorId: event.id, rulings, text: `${who}: ${intentLine(after, event.id)}.` };
    }
    case 'TELEGRAPH':
      return { round, kind: 'order', actorId: event.id, text: `The Warden telegraphs ${rules.nameOf(after, event.id)}'s intent: “${event.text}”.` };
    case 'CONFIRM_TIER':
      return { round, kind: 'order', actorId: event.id, text: `The GM classifies ${rules.nameOf(after, event.id)}'s intent as a ${event.tier} turn.` };
    case 'LOCK_INTENTS': {
      const needed = order.pendingDexSaves(after);
      const auto = order.autoLosers(after);
      const text = [`Intents locked for round ${round}.`];
      if (needed.length) text.push(`DEX saves needed from ${names(after, needed)}.`);
      if (auto.length) text.push(`${names(after, auto)} ${auto.length === 1 ? 'loses' : 'lose'} the initiative without a roll (a leg hit twice).`);
      return { round, kind: 'order', rulings: ['R-C4', ...(auto.length ? ['R-C6'] : [])], text: text.join(' ') };
    }
    case 'DEX_SAVE': {
      const save = after.dexSaves[event.id]!;
      const c = before.combatants[event.id]!;
      const dice = save.disadvantage ? `2d20 with disadvantage ${faces(event.roll)} → ${save.kept}` : `d20 ${faces(event.roll)}`;
      return { round, kind: 'order', actorId: event.id, rulings: save.disadvantage ? ['R-C6'] : [], text: `${c.name}'s initiative DEX save: ${dice} against DEX ${c.dex}: ${save.passed ? 'passes, acts before the enemies' : 'fails, acts after the enemies'}.` };
    }
    case 'END_TURN': {
      const open = combat.openActions(before);
      return { round, kind: 'turn', text: `The moment closes${open.length ? `: ${names(before, open)} ${open.length === 1 ? 'has' : 'have'} acted at the table` : ''}.` };
    }
    case 'ADD_LATE_COMBATANT':
      return { round, kind: 'order', actorId: event.combatant.id, text: `${event.combatant.name} joins the ${event.combatant.side === 'party' ? 'party' : 'enemies'}${before.phase === 'declare' ? ' and may declare this round' : ' and acts from the next round'}.` };
    case 'END_COMBAT':
      return { round, kind: 'end', rulings: ['R-C7'], text: `The fight ends${event.outcome ? `: ${event.outcome}` : ''}.` };
    default:
      return null;
  }
}

/** Lines every event may cause: statuses changed, an order built, a moment opened, a fight-back lost, the end. */
function consequenceLines(before: EncounterSnapshot, after: EncounterSnapshot, event: GmEvent): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  const lines: LogLine[] = [];
  const round = b.round;
  for (const id of b.roster) {
    const x = a.combatants[id];
    const y = b.combatants[id]!;
    if (!x) continue;
    if (y.out?.kind === 'dead' && x.out?.kind !== 'dead') lines.push({ round, kind: 'damage', actorId: id, text: `${y.name} dies (${y.out.reason}).` });
    if (y.unconscious && !x.unconscious) lines.push({ round, kind: 'damage', actorId: id, text: `${y.name} is knocked unconscious.` });
    if (y.failedCriticalSave && !x.failedCriticalSave && rules.present(y) && !y.incapacitated && !y.unconscious) lines.push({ round, kind: 'damage', actorId: id, text: `${y.name} failed a Critical Damage save: its attacks are impaired from now on, and attacks against it are likely enhanced.` });
    if (rules.paralysed(y) && !rules.paralysed(x)) lines.push({ round, kind: 'damage', actorId: id, rulings: ['R-C24'], text: `${y.name} is at DEX 0: paralysed or knocked out.` });
    if (rules.delirious(y) && !rules.delirious(x)) lines.push({ round, kind: 'damage', actorId: id, rulings: ['R-C24'], text: `${y.name} is at WIL 0: delirious.` });
  }
  // R-C14: a fight-back that was waiting and is gone without being rolled.
  for (const step of a.moment.pending) {
    if (step.kind === 'fightBack' && event.type !== 'FIGHT_BACK' && event.type !== 'OVERRIDE' && !rules.canAct(b.combatants[step.defenderId], b.options) && !b.moment.pending.some((s) => s.kind === 'fightBack' && s.defenderId === step.defenderId)) {
      lines.push({ round, kind: 'decision', actorId: step.defenderId, rulings: ['R-C14'], text: `${rules.nameOf(b, step.defenderId)} is down: the fight-back does not happen.` });
    }
  }
  // Moments passed over in one go: their actors could no longer act, so their actions are lost.
  if (a.phase === 'resolve') {
    const end = b.round === a.round && b.phase === 'resolve' ? b.cursor : a.moments.length;
    for (let i = a.cursor + 1; i < end; i += 1) {
      const lost = a.moments[i]!.ids.filter((id) => !rules.canAct(b.combatants[id], b.options));
      if (lost.length) lines.push({ round: a.round, kind: 'turn', actorId: lost[0]!, text: `Moment ${i + 1} (${momentLabel(a, i)}): ${names(b, lost)} can no longer act; the action is lost.` });
    }
  }
  if (after.matches('ended')) {
    if (event.type !== 'END_COMBAT') lines.push({ round, kind: 'end', rulings: ['R-C7'], text: `The fight is over: ${b.outcome}` });
    return lines;
  }
  if (b.round !== a.round) lines.push({ round, kind: 'round', text: `Round ${round}: declare intents.` });
  if (b.phase === 'resolve' && (a.phase !== 'resolve' || a.round !== b.round)) {
    const board = b.moments.map((m, i) => `${i + 1}. ${momentLabel(b, i)}: ${names(b, m.ids)}`).join('; ');
    const rulings = ['R-C1', 'R-C5', ...(b.clashes.length ? ['R-C2', 'R-C3'] : [])];
    lines.push({ round, kind: 'order', rulings, text: `Order for round ${round}: ${board || 'nobody acts'}.` });
    for (const clash of b.clashes) {
      const second = clash.first === clash.a ? clash.b : clash.a;
      const why = { modifier: 'enhanced before normal before impaired', length: clash.entering ? 'entering Close, the longer weapon first' : 'already Close, the shorter weapon first', dex: 'tied, the DEX save decides' }[clash.decidedBy];
      lines.push({ round, kind: 'order', rulings: ['R-C2', 'R-C3'], text: `Melee clash: ${rules.nameOf(b, clash.first)} strikes before ${rules.nameOf(b, second)} (${why}).` });
    }
  }
  const opened = b.phase === 'resolve' && (a.phase !== 'resolve' || a.cursor !== b.cursor || a.round !== b.round);
  if (opened && b.moments[b.cursor]) {
    const m = b.moments[b.cursor]!;
    const lost = m.ids.filter((id) => !rules.canAct(b.combatants[id], b.options));
    lines.push({ round, kind: 'turn', actorId: m.ids[0] ?? null, rulings: m.ids.length > 1 ? ['R-C1', 'R-C5'] : [], text: `Moment ${b.cursor + 1} of ${b.moments.length} (${momentLabel(b, b.cursor)}): ${m.ids.map((id) => `${rules.nameOf(b, id)} ${intents.describeIntent(b, b.intents[id]!)}`).join('; ')}.${lost.length ? ` ${names(b, lost)} can no longer act.` : ''}` });
  }
  return lines;
}

function describe(raw: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const line = eventLine(raw as GmEvent & CairnEvent, contextOf(before), contextOf(after));
  return [...(line ? [line] : []), ...consequenceLines(before, after, raw)];
}

// ---- the runner's view ----

function statusTags(c: CairnCombatant): string[] {
  const tags: string[] = [];
  if (c.out) tags.push(c.out.kind === 'retreated' ? 'retreated' : c.out.kind === 'dead' ? 'dead' : c.out.kind === 'defeated' ? 'defeated' : 'gone');
  if (c.incapacitated) tags.push(c.deathClock !== null ? `incapacitated: dies in ${c.deathClock} min unless treated` : 'incapacitated (treated)');
  if (c.unconscious) tags.push('unconscious');
  if (rules.paralysed(c)) tags.push('paralysed');
  if (rules.delirious(c)) tags.push('delirious');
  if (!c.aware) tags.push('unaware');
  if (rules.overburdened(c)) tags.push('overburdened: cannot defend');
  if (c.failedCriticalSave && !c.out) tags.push('impaired attacks; attacks against: likely enhanced');
  if (rules.losesInitiative(c)) tags.push('loses every initiative roll');
  else if (c.nextInitiativeDisadvantage) tags.push('next initiative save at disadvantage');
  if (rules.lostFastMovement(c)) tags.push('no fast movement');
  if (rules.anyArmLost(c)) tags.push('an arm lost: no dual or two-handed weapons');
  if (c.fatigue) tags.push(`${plural(c.fatigue, 'Fatigue')}`);
  return tags;
}

/** A wound as the row shows it: "Light burns", "Permanent nerve damage (WIL −1)". */
const woundTag = (w: Wound) => {
  const label = `${w.severity[0]!.toUpperCase()}${w.severity.slice(1)} ${combat.WOUND_TYPES.find((t) => t.key === w.type)!.label}`;
  return w.severity === 'permanent' && w.attribute ? `${label} (${w.attribute.toUpperCase()} −1)` : label;
};

function combatantView(ctx: CairnContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const c = ctx.combatants[id]!;
  const intent = ctx.intents[id];
  const tags: string[] = [];
  if (intent) tags.push(`${intent.tier}: ${intents.describeIntent(ctx, intent)}`);
  if (ctx.telegraphs[id]) tags.push(`telegraphed: “${ctx.telegraphs[id]}”`);
  const clash = ctx.clashes.find((x) => x.a === id || x.b === id);
  if (clash) tags.push(`clash with ${rules.nameOf(ctx, clash.a === id ? clash.b : clash.a)}: strikes ${clash.first === id ? 'first' : 'second'}`);
  const save = ctx.dexSaves[id];
  if (save) tags.push(save.auto ? 'initiative lost (leg)' : `DEX save ${save.kept}: ${save.passed ? 'before' : 'after'} the enemies`);
  if (ctx.moment.lost.includes(id) && ctx.moments[ctx.cursor]?.ids.includes(id)) tags.push('action lost');
  if (rules.disarmedNow(ctx, id)) tags.push('disarmed this round: unarmed d4');
  tags.push(...statusTags(c));
  // Every open Injury and wound it carries (in from the campaign or gained here) is on its row: each takes a slot.
  // Tags are keys on the row: the same record twice is one tag with its count ("Light burns ×2").
  const records = new Map<string, number>();
  for (const label of [...c.injuries.map((i) => i.name), ...c.wounds.map(woundTag)]) records.set(label, (records.get(label) ?? 0) + 1);
  for (const [label, count] of records) tags.push(count > 1 ? `${label} ×${count}` : label);
  const running = [...c.injuries.map((i: HitInjury) => ({ id: i.id, kind: 'injury', name: i.name, gainedHere: Boolean(i.gainedHere) })), ...c.wounds.map((w: Wound) => ({ id: w.id, kind: 'wound', name: `${w.severity} ${combat.WOUND_TYPES.find((t) => t.key === w.type)!.label}`, gainedHere: Boolean(w.gainedHere) }))];
  return {
    id,
    name: c.name,
    side: c.side,
    sideLabel: rules.sideLabel(c.side),
    status,
    slot,
    health: { label: 'HP', current: c.hp, max: c.hpMax },
    tags,
    stats: [
      { label: 'STR', value: `${c.str}/${c.strMax}` }, { label: 'DEX', value: `${c.dex}/${c.dexMax}` }, { label: 'WIL', value: `${c.wil}/${c.wilMax}` },
      { label: 'Armor', value: String(c.armor) }, { label: 'Fatigue', value: String(c.fatigue) }, { label: 'Slots', value: `${rules.slotsUsed(c)}/${rules.SLOTS}` },
      ...(intent ? [{ label: 'Turn', value: intent.tier }] : []),
      ...(c.band ? [{ label: 'Band', value: rules.bandLabel(c.band) }] : []),
      ...(c.deathClock !== null ? [{ label: 'Death clock', value: `${c.deathClock} min` }] : []),
    ],
    details: {
      str: c.str, strMax: c.strMax, dex: c.dex, dexMax: c.dexMax, wil: c.wil, wilMax: c.wilMax, armor: c.armor,
      fatigue: c.fatigue, slotsUsed: rules.slotsUsed(c), slots: rules.SLOTS, gearSlots: c.gearSlots,
      items: running, intent: intent ? { ...intent } : null, tier: intent?.tier ?? null, deathClock: c.deathClock, band: c.band,
      legHits: rules.legHits(c),
    },
    ...(c.out ? { removedReason: c.out.reason, ...(c.out.kind === 'dead' ? { dead: true } : c.out.kind === 'defeated' ? { defeated: true } : {}) } : {}),
  };
}

function activeOf(snapshot: EncounterSnapshot): string | null {
  const ctx = contextOf(snapshot);
  const step = combat.nextStep(ctx);
  if (step) {
    switch (step.kind) {
      case 'redirect': return step.actorId;
      case 'gambit': return step.attackerId;
      case 'defence': case 'strike': return step.attackers[0] ?? step.targetId;
      case 'attackBack': case 'attackBackDefence': case 'attackBackStrike': return step.by;
      case 'fightBack': return step.defenderId;
      default: return 'id' in step ? step.id : step.targetId;
    }
  }
  return ctx.phase === 'resolve' ? combat.openActions(ctx)[0] ?? null : null;
}

function prompt(ctx: CairnContext): EncounterView['prompt'] {
  if (ctx.phase === 'order' && !ctx.moment.pending.length) {
    const pending = order.pendingDexSaves(ctx);
    if (!pending.length) return null;
    return {
      kind: 'dexSaves',
      text: `Initiative: ${names(ctx, pending)} ${pending.length === 1 ? 'rolls a DEX save' : 'roll DEX saves'} to act before or after the enemies.`,
      answer: 'DEX_SAVE',
      choices: pending.map((id) => ({ id, label: `${rules.nameOf(ctx, id)}: DEX ${ctx.combatants[id]!.dex}${ctx.combatants[id]!.nextInitiativeDisadvantage ? ' (disadvantage)' : ''}` })),
    };
  }
  const step = combat.nextStep(ctx);
  if (!step) return null;
  const answer = combat.answerOf(ctx, step);
  const text = combat.stepQuestion(ctx, step);
  const one = (id: string, label: string) => [{ id, label }];
  switch (step.kind) {
    case 'redirect': {
      const actor = ctx.combatants[step.actorId]!;
      const targets = ctx.roster.filter((id) => rules.present(ctx.combatants[id]) && ctx.combatants[id]!.side !== actor.side);
      return { kind: 'redirect', text, answer, subjectId: step.actorId, choices: [...targets.map((id) => ({ id, label: `Redirect to ${rules.nameOf(ctx, id)}` })), { id: 'lost', label: 'The action is lost' }] };
    }
    case 'gambit':
      return { kind: 'gambit', text, answer, subjectId: step.attackerId, choices: [{ id: 'str', label: 'STR save' }, { id: 'dex', label: 'DEX save' }, { id: 'wil', label: 'WIL save' }], details: { targetId: step.targetId } };
    case 'defence':
      return { kind: 'defence', text, answer, subjectId: step.targetId, choices: combat.defenceChoices(ctx, step.targetId), details: { attackers: step.attackers } };
    case 'strike':
      return { kind: 'strike', text, answer, subjectId: step.targetId, choices: one(step.targetId, 'Roll the damage') };
    case 'tie':
      return { kind: 'tie', text, answer, subjectId: step.targetId, choices: step.candidates.map((id) => ({ id, label: `${rules.nameOf(ctx, id)}'s weapon` })) };
    case 'critSave':
      return { kind: 'critSave', text, answer, subjectId: step.id, choices: one(step.id, `Roll the STR save (STR ${ctx.combatants[step.id]!.str})`) };
    case 'critTable':
      return { kind: 'critTable', text, answer, subjectId: step.id, choices: one(step.id, ctx.options['hitLocations'] ? 'Roll the hit location (d10)' : 'Roll the d6') };
    case 'npcCrit':
      return { kind: 'npcCritical', text, answer, subjectId: step.id, choices: [{ id: 'dead', label: 'Dead' }, { id: 'out', label: 'Out of the fight' }, { id: 'fightsOn', label: 'Fights on, impaired' }] };
    case 'head':
      return { kind: 'head', text, answer, subjectId: step.id, choices: [{ id: 'dies', label: 'Dies' }, { id: 'survives', label: 'Survives' }] };
    case 'attackBack':
      return { kind: 'attackBack', text, answer, subjectId: step.by, choices: [{ id: 'strike', label: `Attack ${rules.nameOf(ctx, step.against)} back` }, { id: 'decline', label: 'Decline' }] };
    case 'attackBackDefence':
      return { kind: 'defence', text, answer, subjectId: step.against, choices: combat.attackBackChoices(ctx, step), details: { attackers: [step.by], attackBack: true } };
    case 'attackBackStrike':
      return { kind: 'strike', text, answer, subjectId: step.against, choices: one(step.against, 'Roll the attack back') };
    case 'fightBack':
      return { kind: 'fightBack', text, answer, subjectId: step.defenderId, choices: one(step.defenderId, 'Roll the fight-back damage') };
  }
}

function allowedEvents(snapshot: EncounterSnapshot): string[] {
  const ctx = contextOf(snapshot);
  if (snapshot.matches('setup')) return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'START'];
  if (snapshot.matches('ended')) return [];
  const step = combat.nextStep(ctx);
  if (ctx.moment.pending.length) return [combat.answerOf(ctx, step!), 'OVERRIDE'];
  if (step) return [combat.answerOf(ctx, step), 'OVERRIDE', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT'];
  const anytime = ['REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT', ...ANYTIME_TYPES];
  if (ctx.phase === 'declare') return ['DECLARE_INTENT', 'SET_NPC_INTENT', 'TELEGRAPH', 'CONFIRM_TIER', 'LOCK_INTENTS', ...anytime];
  if (ctx.phase === 'order') return ['DEX_SAVE', ...anytime];
  const open = combat.openActions(ctx);
  return [...(open.some((id) => ctx.intents[id]?.action === 'retreat') ? ['RETREAT'] : []), 'END_TURN', ...anytime];
}

function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const phase = snapshot.matches('setup') ? 'setup' : snapshot.matches('ended') ? 'ended' : 'running';
  const active = phase === 'running' ? activeOf(snapshot) : null;
  const order: CombatantView[] = [];
  if (phase === 'setup') {
    for (const id of ctx.roster) order.push(combatantView(ctx, id, 'waiting', null));
  } else {
    const placed = new Set<string>();
    if (ctx.phase === 'resolve') {
      ctx.moments.forEach((m, index) => {
        for (const id of m.ids) {
          if (placed.has(id)) continue;
          placed.add(id);
          const done = index < ctx.cursor || (index === ctx.cursor && (ctx.moment.done.includes(id) || !rules.canAct(ctx.combatants[id], ctx.options)));
          // Everyone in the current moment acts at once (R-C1): all of them are active until resolved.
          const status = !rules.present(ctx.combatants[id]) ? 'removed' : done ? 'acted' : index === ctx.cursor ? 'active' : 'waiting';
          order.push(combatantView(ctx, id, status, index + 1));
        }
      });
    }
    for (const id of ctx.roster) if (!placed.has(id) && rules.present(ctx.combatants[id])) order.push(combatantView(ctx, id, 'unplaced', null));
    for (const id of ctx.roster) if (!placed.has(id) && !rules.present(ctx.combatants[id])) order.push(combatantView(ctx, id, 'removed', null));
  }
  const intent = active ? ctx.intents[active] : undefined;
  const stepLabel = { setup: 'Setup', declare: 'Declare', order: 'DEX saves', resolve: 'Resolve' }[ctx.phase];
  const board = ctx.roster.filter((id) => ctx.intents[id] || ctx.telegraphs[id]).map((id) => {
    const i = ctx.intents[id];
    return `${rules.nameOf(ctx, id)} — ${i ? `${i.tier}: ${intents.describeIntent(ctx, i)}` : 'no intent yet'}${ctx.telegraphs[id] ? ` (telegraphed: “${ctx.telegraphs[id]}”)` : ''}`;
  });
  const aside: { title: string; text: string }[] = [];
  if (phase === 'running') {
    aside.push({ title: `Declarations, round ${ctx.round}`, text: board.join('\n') || 'Nobody has declared yet.' });
    if (ctx.clashes.length) aside.push({ title: 'Melee clashes (R-C2, R-C3)', text: ctx.clashes.map((c) => `${rules.nameOf(ctx, c.first)} strikes before ${rules.nameOf(ctx, c.first === c.a ? c.b : c.a)}`).join('\n') });
    if (ctx.moments.length) aside.push({ title: 'Order', text: ctx.moments.map((m, i) => `${i === ctx.cursor ? '▶ ' : ''}${i + 1}. ${momentLabel(ctx, i)}: ${names(ctx, m.ids)}`).join('\n') });
  }
  return {
    phase,
    round: ctx.round,
    counters: phase !== 'running' ? [] : [
      { key: 'step', label: 'Step', value: stepLabel },
      ...(ctx.phase === 'resolve' && ctx.moments[ctx.cursor] ? [
        { key: 'moment', label: 'Moment', value: `${ctx.cursor + 1} / ${ctx.moments.length}` },
        { key: 'now', label: 'Acting', value: momentLabel(ctx, ctx.cursor) },
      ] : []),
    ],
    order,
    activeId: active,
    turn: active && intent ? { actionsLeft: ctx.moment.done.includes(active) ? 0 : intent.tier === 'full' ? 2 : 1, actionsPerTurn: intent.tier === 'full' ? 2 : 1 } : null,
    prompt: phase === 'running' ? prompt(ctx) : null,
    allowed: allowedEvents(snapshot),
    ...(aside.length ? { aside } : {}),
    setup: { partyOrder: ctx.roster.filter((id) => ctx.combatants[id]?.side === 'party'), gmOrder: null, firstSide: 'party', sides: rules.SIDES.map((s) => ({ ...s })) },
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}

// ---- what the fight leaves behind (§4.6) ----

const strip = <T extends { gainedHere?: boolean }>(record: T): Omit<T, 'gainedHere'> => {
  const { gainedHere: _gained, ...rest } = record;
  return rest;
};

function consequences(snapshot: EncounterSnapshot): Consequences {
  const ctx = contextOf(snapshot);
  const pcs = ctx.roster.map((id) => ctx.combatants[id]!).filter((c) => c.side === 'party' && c.characterId !== null);
  const injuries = pcs.flatMap((c) => [
    ...c.injuries.filter((i) => i.gainedHere).map((i) => ({ key: i.id, characterId: c.characterId!, name: i.name, category: 'injury', data: { ...strip(i) } })),
    ...c.wounds.filter((w) => w.gainedHere).map((w) => ({
      key: w.id, characterId: c.characterId!, name: `${w.severity[0]!.toUpperCase()}${w.severity.slice(1)} ${combat.WOUND_TYPES.find((t) => t.key === w.type)!.label}`, category: 'wound', data: { ...strip(w) },
    })),
  ]);
  if (!snapshot.matches('ended')) return { injuries, carry: null, party: null };
  return {
    injuries,
    carry: pcs.map((c) => ({
      characterId: c.characterId!,
      state: {
        hp: c.hp, str: c.str, strMax: c.strMax, dex: c.dex, dexMax: c.dexMax, wil: c.wil, wilMax: c.wilMax,
        fatigue: c.fatigue, gearSlots: c.gearSlots, nextInitiativeDisadvantage: c.nextInitiativeDisadvantage, failedCriticalSave: c.failedCriticalSave,
        incapacitated: c.incapacitated, deathClockMinutes: c.deathClock ?? 0, treated: c.treated, unconscious: c.unconscious,
        ...(c.out?.kind === 'dead' ? { dead: true } : {}),
      },
    })),
    party: {},
  };
}

const CARRIED_NUMBERS = ['hp', 'str', 'strMax', 'dex', 'dexMax', 'wil', 'wilMax', 'fatigue', 'gearSlots', 'deathClockMinutes'] as const;
const CARRIED_FLAGS = ['nextInitiativeDisadvantage', 'failedCriticalSave', 'incapacitated', 'treated', 'unconscious'] as const;

/** The `carried` part of a seed: the stored condition, and the running Injuries and wounds (a worsened wound replaces the one it supersedes). */
function carriedIn(state: Record<string, unknown>, records: Record<string, unknown>[]): Record<string, unknown> {
  const carried: Record<string, unknown> = {};
  for (const key of CARRIED_NUMBERS) if (typeof state[key] === 'number') carried[key] = state[key];
  for (const key of CARRIED_FLAGS) if (typeof state[key] === 'boolean') carried[key] = state[key];
  const superseded = new Set(records.map((r) => r['supersedes']).filter((id): id is string => typeof id === 'string'));
  const live = records.filter((r) => !superseded.has(String(r['id'])));
  const injuries = live.filter((r) => r['kind'] === 'injury');
  const wounds = live.filter((r) => r['kind'] === 'wound');
  if (injuries.length) carried['injuries'] = injuries;
  if (wounds.length) carried['wounds'] = wounds;
  return carried;
}

export const cairnErrantEncounter: EncounterRules = {
  // RULES.md §4.5.
  conditionNames: ['Impaired', 'Enhanced', 'Unaware', 'Paralysed', 'Delirious', 'Unconscious'],
  machine: cairnErrantMachine,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  sides: rules.SIDES,
  refusal,
  describe,
  view,
  rollsFor,
  consequences,
  carriedIn,
};
