// Cairn-Errant's current moment (RULES.md §4.3–§4.4): who acts now, what the moment needs next (redirects, gambits,
// defences, damage) and the defence choices a defender has.
import type { OptionValues } from '../options.ts';
import {
  canAct, nameOf, overburdened, bandLabel, blockGear, dodgeHampered, present, rangedWeapon, type CairnCombatant, type CairnContext, type Defence, type Intent, type Step,
} from './rules.ts';
import { distanceBetween } from './bands.ts';
import { damages } from './intents.ts';
import { rulingsOf } from './options.ts';


// ---- the current moment ----

export const currentMoment = (ctx: CairnContext) => (ctx.phase === 'resolve' ? ctx.moments[ctx.cursor] ?? null : null);
const momentActors = (ctx: CairnContext) => currentMoment(ctx)?.ids ?? [];
const isDone = (ctx: CairnContext, id: string) => ctx.moment.done.includes(id);
const attacking = (intent: Intent | undefined) => intent !== undefined && (intent.action === 'melee' || intent.action === 'ranged' || intent.action === 'gambit');

/** A target that has dropped or left: R-C4 asks the GM to redirect the action or lose it. */
const targetGone = (ctx: CairnContext, intent: Intent) => !present(ctx.combatants[intent.targetId ?? '']) || dead(ctx.combatants[intent.targetId!]!);
export const dead = (c: CairnCombatant) => c.out?.kind === 'dead';

/** Attackers of this moment waiting on their action against `targetId` (R-C1: all of them; otherwise the first). */
export function strikeGroup(ctx: CairnContext, targetId: string): string[] {
  const group = momentActors(ctx).filter((id) => {
    const intent = ctx.intents[id];
    return !isDone(ctx, id) && canAct(ctx.combatants[id], ctx.options) && intent && damages(intent) && intent.targetId === targetId;
  });
  return rulingsOf(ctx.options).bucketIsOneMoment ? group : group.slice(0, 1);
}

function gambiteersOn(ctx: CairnContext, targetId: string): string[] {
  return momentActors(ctx).filter((id) => ctx.intents[id]?.action === 'gambit' && ctx.intents[id]!.targetId === targetId);
}

/** May this combatant defend at all (§4.4 step 3): PCs and enemies given the reactions, aware, not overburdened, able to act. */
export function mayDefend(ctx: CairnContext, id: string): boolean {
  const c = ctx.combatants[id];
  if (!c || !canAct(c, ctx.options)) return false;
  return (c.side === 'party' || Boolean(c.sheet['canDefend'])) && c.aware && !overburdened(c);
}

/**
 * Damage after Armor goes straight to STR for an unaware or overburdened target (§4.4 step 3). Source: "a character
 * with a full inventory (10 slots) is overburdened to a degree that they are unable to defend themselves", and the
 * options come "before damage is rolled": whether they can defend is judged when the attack comes, so a target that
 * had a defence window against this attack (`defended`) is not overburdened for it, even if that defence's own
 * Fatigue filled the tenth slot.
 */
export const takesDirectStr = (c: CairnCombatant, defended = false) => !c.aware || (overburdened(c) && !defended);

export type NextStep =
  | { kind: 'redirect'; actorId: string }
  | { kind: 'gambit'; attackerId: string; targetId: string }
  | { kind: 'defence'; targetId: string; attackers: string[] }
  | { kind: 'strike'; targetId: string; attackers: string[] }
  | Step;

/** The next thing the current moment needs, in the order the text gives: redirects, gambits, defences, damage. */
export function nextStep(ctx: CairnContext): NextStep | null {
  // Follow-ups (a save after damage dealt between moments, say) block in every phase.
  if (ctx.moment.pending.length) return ctx.moment.pending[0]!;
  if (ctx.phase !== 'resolve') return null;
  const open = momentActors(ctx).filter((id) => !isDone(ctx, id) && canAct(ctx.combatants[id], ctx.options));
  for (const id of open) if (attacking(ctx.intents[id]) && targetGone(ctx, ctx.intents[id]!)) return { kind: 'redirect', actorId: id };
  // R-C18 (as an option): a gambit's target may fight back, so its window opens before the gambit is rolled.
  if (rulingsOf(ctx.options).fightBackAgainstGambits) {
    for (const id of open) {
      const targetId = ctx.intents[id]!.targetId!;
      if (ctx.intents[id]!.action === 'gambit' && mayDefend(ctx, targetId) && ctx.moment.defences[targetId] === undefined) {
        return { kind: 'defence', targetId, attackers: strikeGroup(ctx, targetId) };
      }
    }
  }
  // Gambits resolve before the highest damage is picked (§4.4 step 6).
  for (const id of open) if (ctx.intents[id]!.action === 'gambit') return { kind: 'gambit', attackerId: id, targetId: ctx.intents[id]!.targetId! };
  for (const id of open) {
    const intent = ctx.intents[id]!;
    if (!damages(intent)) continue;
    const targetId = intent.targetId!;
    const attackers = strikeGroup(ctx, targetId);
    if (mayDefend(ctx, targetId) && ctx.moment.defences[targetId] === undefined) return { kind: 'defence', targetId, attackers };
    return { kind: 'strike', targetId, attackers };
  }
  return null;
}

/** Every actor of the moment is resolved and nothing waits: the moment closes by itself. */
export function momentSettled(ctx: CairnContext): boolean {
  if (ctx.phase !== 'resolve' || nextStep(ctx) !== null) return false;
  return momentActors(ctx).every((id) => {
    if (isDone(ctx, id) || !canAct(ctx.combatants[id], ctx.options)) return true;
    return false;
  });
}

/** The actions of this moment the table still plays out (moves, spells, retreats...). */
export const openActions = (ctx: CairnContext) => momentActors(ctx).filter((id) => !isDone(ctx, id) && canAct(ctx.combatants[id], ctx.options));

// ---- defence choices ----

/** A defence as the DEFENSE event names it (R-C8, §4.4 steps 4–5). */
export type DefenceKind = Defence['kind'];

/** A defence choice the prompt offers: its key, its label and the DEFENSE fields it sends. */
export interface DefenceChoice {
  id: string;
  label: string;
  /** DEFENSE's fields: the defence, and the attacker a fight-back or a Parry answers. */
  answer: { defence: DefenceKind } | { defence: DefenceKind; attackerId: string };
}

const plain = (kind: 'none' | 'block' | 'dodge', label: string): DefenceChoice => ({ id: kind, label, answer: { defence: kind } });
const against = (kind: 'fightBack' | 'parry', attackerId: string, label: string): DefenceChoice => ({ id: `${kind}:${attackerId}`, label, answer: { defence: kind, attackerId } });

/** The options a defender has against these attackers (§4.4 steps 4–5); restrict forbids some. */
function reactionChoices(ctx: CairnContext, defenderId: string, fightBack: string[], parry: string[]): DefenceChoice[] {
  const target = ctx.combatants[defenderId]!;
  const choices: DefenceChoice[] = [plain('none', 'Take it (no reaction)')];
  const restrict = rulingsOf(ctx.options).blockDodge === 'restrict';
  if (!restrict || blockGear(ctx, target)) choices.push(plain('block', 'Block (+1 Fatigue): fast and balanced attacks impaired'));
  if (!restrict || !dodgeHampered(ctx, target)) choices.push(plain('dodge', 'Dodge (+1 Fatigue): balanced and slow attacks impaired'));
  for (const id of fightBack) choices.push(against('fightBack', id, `Fight back against ${nameOf(ctx, id)} (+1 Fatigue)`));
  for (const id of parry) choices.push(against('parry', id, `Parry ${nameOf(ctx, id)}${rulingsOf(ctx.options).parryFatigue ? ' (+1 Fatigue)' : ''}`));
  return choices;
}

/**
 * R-C28: "Choose one attacker and deal your damage against it": the defender must be able to reach it. A melee
 * attacker (or a gambit) is Close when its blow lands; a ranged attacker is in reach only when the range bands put the
 * two Close, or when the defender's own weapon is a ranged one (the sheet's flag) and the attacker is not Distant.
 * As an option, any attacker at any distance (the GM narrates how).
 */
export function reachesToFightBack(ctx: CairnContext, defenderId: string, attackerId: string): boolean {
  if (rulingsOf(ctx.options).fightBackReach === 'anyAttacker') return true;
  if (ctx.intents[attackerId]?.action !== 'ranged') return true;
  const distance = distanceBetween(ctx, defenderId, attackerId);
  if (distance === 'close') return true;
  return rangedWeapon(ctx.combatants[defenderId]!) && distance !== 'distant';
}

/** Why a fight-back (or a Parry) against this attacker is out of reach (R-C28), in a sentence. */
export function outOfReach(ctx: CairnContext, defenderId: string, attackerId: string, to: 'fight back' | 'parry' = 'fight back'): string {
  const distance = distanceBetween(ctx, defenderId, attackerId);
  const where = distance ? `from ${bandLabel(distance)}` : 'from out of reach (set the range bands if it is Close)';
  return `${nameOf(ctx, defenderId)} cannot reach ${nameOf(ctx, attackerId)} to ${to}: it shoots ${where} and ${nameOf(ctx, defenderId)}'s weapon is no ranged weapon (R-C28).`;
}

/** The options an attacked defender has in this moment (R-C18: fight back against a gambit only as an option). */
export function defenceChoices(ctx: CairnContext, targetId: string): DefenceChoice[] {
  const attackers = strikeGroup(ctx, targetId);
  const fightBack = [...attackers, ...(rulingsOf(ctx.options).fightBackAgainstGambits ? gambiteersOn(ctx, targetId).filter((id) => !attackers.includes(id)) : [])];
  // source: "Parry. Choose one attacking opponent that you can attack in return": whoever the defender can reach, judged
  // as for a fight-back (R-C28), a ranged attacker included; not a gambit ("None of Block, Dodge or Parry", §4.4 step 6).
  const inReach = (id: string) => reachesToFightBack(ctx, targetId, id);
  return reactionChoices(ctx, targetId, fightBack.filter(inReach), attackers.filter(inReach));
}

/** R-C17 as an option: the gambit user's options against the attack back (it is a melee blow, so it can be parried). */
export function attackBackChoices(ctx: CairnContext, step: { by: string; against: string }): DefenceChoice[] {
  return reactionChoices(ctx, step.against, [step.by], [step.by]);
}

/** R-C17: the gambit user may react to the attack back only when the option says so (and it could defend at all). */
export const reactsToAttackBack = (ctx: CairnContext, gambiteerId: string) => !rulingsOf(ctx.options).noReactionToAttackBack && mayDefend(ctx, gambiteerId);


/** A DEFENSE event's fields as the defence they choose; null when a fight-back or a Parry names no attacker. */
export function defenceOf(fields: { defence: DefenceKind; attackerId?: string | null | undefined }): Defence | null {
  if (fields.defence === 'none' || fields.defence === 'block' || fields.defence === 'dodge') return { kind: fields.defence };
  return fields.attackerId ? { kind: fields.defence, attackerId: fields.attackerId } : null;
}

/** Is this choice the defence these DEFENSE fields choose? */
export const choosesDefence = (choice: DefenceChoice, defence: Defence) =>
  choice.answer.defence === defence.kind && ('attackerId' in choice.answer ? choice.answer.attackerId : undefined) === ('attackerId' in defence ? defence.attackerId : undefined);

export const defenceFatigue = (defence: Defence, options: OptionValues) =>
  defence.kind === 'none' ? 0 : defence.kind === 'parry' ? rulingsOf(options).parryFatigue : 1; // R-C8
