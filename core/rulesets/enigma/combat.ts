// Enigma's turn economy and combat as pure functions (RULES.md §1.3–§1.5): the action budget, reactions and their
// debt, movement with pauses, Hide and Notice per observer, checks against a GM-set difficulty, attacks with
// Escalation, damage and Life Points, Mortal Peril and injuries. The machine applies these; the refusal
// sentences come from the same checks.
import { lastAnswer } from '../../encounter/last-answer.ts';
import * as roster from '../../encounter/roster.ts';
import { CAPACITIES, type Capacity } from './sheet.ts';
import { extendInjury, injuryDuration, injuryEffects, speed, type Injury, type InjuryCategory } from './injuries.ts';
import { activeId, lpMaxOf, nameOf, removeCombatant, type EnigmaCombatant, type EnigmaContext } from './rules.ts';
import { counted } from '../../words.ts';
import { rulingsOf } from './options.ts';
import { eachCombatant } from '../../encounter/combatant-table.ts';

/** A roll inside an event: the faces (rolled by the app or read off physical dice). */
export interface Roll {
  faces: number[];
  source: 'app' | 'manual';
}

export type InjuryChoice =
  | { mode: 'new'; name: string; category: InjuryCategory; baseRoll: number; permanent?: boolean; cureCondition?: string | null }
  | { mode: 'extend'; injuryId: string };

/**
 * R-E17: "an attack or a power used on a target reveals the user to that target and to every observer with line of
 * sight, unless a power says otherwise". What the GM tells about the observers and the power.
 */
export interface Revealing {
  /** Observers without line of sight on the user: it stays hidden from them (never from a target). */
  unseenBy?: string[];
  /** The power says its user stays hidden (R-E17's "unless a power says otherwise"). */
  staysHidden?: boolean;
}

/**
 * source: "If you cannot see an enemy but know their location ... you can still target them with attacks or powers.
 * However, your capacity check will be at a disadvantage unless a power explicitly states that it does not require a
 * line of sight." A check aimed at someone says how the checker sees it, as an attack does.
 */
export interface CheckSight {
  sight?: 'clear' | 'unseen' | 'fullCover';
  needsNoSight?: boolean;
  throughCover?: boolean;
}

/**
 * source: "If an enemy is completely obscured by cover, such as being behind a solid wall, you cannot target them with
 * attacks or powers unless a specific power allows for targeting through obstacles or cover."
 */
export interface PowerCover {
  /** The power's targets that are completely behind cover. */
  coveredIds?: string[];
  /** The power "allows for targeting through obstacles or cover". */
  throughCover?: boolean;
}

export type CombatEvent =
  | { type: 'MOVE'; spaces: number; pauses: number; note?: string }
  | {
      type: 'ATTACK'; attackerId: string; targetId: string; mode: 'melee' | 'ranged'; distance?: number | null;
      sight: 'clear' | 'unseen' | 'fullCover';
      /** The power "does not require a line of sight": an unseen target costs no disadvantage. */
      needsNoSight?: boolean;
      /** The power "allows for targeting through obstacles or cover": a target behind full cover can be targeted. */
      throughCover?: boolean;
      /** Events stored before the two were split: both at once. The runner no longer sends it. */
      ignoresSight?: boolean;
      extraStacks?: number; damage: 'full' | 'half';
      asReaction?: boolean; power?: string | null; attackRoll?: Roll | null; defenceRoll?: Roll | null;
    } & Revealing
  | {
      type: 'HIDE'; navigateRoll: Roll; observers: { observerId: string; gleanRoll: Roll }[];
      /**
       * source: "To Hide from a creature you must break line of sight." The GM says whether the hider is out of the
       * line of sight of every foe listed. Stored without it (before the check): as before, broken.
       */
      sightBroken?: boolean;
    }
  | {
      type: 'NOTICE'; targetId: string; gleanRoll: Roll; navigateRoll: Roll;
      /**
       * source: "To attempt to Notice a creature you must have line of sight on them." The GM says whether the noticer
       * has it. Stored without it (before the check): as before, it has.
       */
      lineOfSight?: boolean;
    }
  | { type: 'USE_ITEM'; item: string; note?: string }
  | ({ type: 'USE_POWER'; power: string; cost: number; fullAction?: boolean; targetIds?: string[]; note?: string } & Revealing & PowerCover)
  | ({ type: 'USE_REACTION'; reactorId: string; power: string; targetIds?: string[]; note?: string } & Revealing & PowerCover)
  | ({ type: 'CHECK'; actorId: string; capacity: Capacity; difficulty: number; cost: number; description: string; extraStacks?: number; targetId?: string | null; roll: Roll } & CheckSight)
  | { type: 'APPLY_DAMAGE'; targetId: string; amount: number; source: string }
  | { type: 'AREA_DAMAGE'; targets: { targetId: string; amount: number }[]; source: string }
  | { type: 'HEAL'; targetId: string; amount: number; kind: 'magic' | 'fix' | 'other'; source: string }
  | { type: 'RESOLVE_PERIL'; combatantId: string; choice: 'sacrifice' | 'survive'; costText: string; healingRestriction?: 'fixesOnly' | null; injury?: InjuryChoice | null }
  | { type: 'SET_CAN_ACT'; combatantId: string; canAct: boolean; note: string }
  | { type: 'OVERRIDE'; targetId: string; field: 'lp' | 'actionsLeft' | 'reactionDebt' | 'die'; capacity?: Capacity | null; value: number; note: string };

const DIE_STEPS = [4, 6, 8, 10, 12];
const label = (capacity: Capacity) => capacity[0]!.toUpperCase() + capacity.slice(1);

// ---- dice specs: which dice a check rolls (R-E19) ----

export interface DiceSpec {
  capacity: Capacity;
  size: number;
  /** Net stacks: advantage minus disadvantage. */
  net: number;
  count: number;
  keep: 'highest' | 'lowest';
  notation: string;
}

export function diceSpec(c: EnigmaCombatant, capacity: Capacity, extraStacks: number, options: EnigmaContext['options']): DiceSpec {
  const effects = injuryEffects(c.injuries, Boolean(c.sheet['armoured']), options);
  const net = extraStacks - effects.disadvantage[capacity];
  const size = c.dice[capacity];
  const count = 1 + Math.abs(net);
  const keep = net >= 0 ? 'highest' : 'lowest';
  return { capacity, size, net, count, keep, notation: count === 1 ? `1d${size}` : `${count}d${size}k${keep === 'highest' ? 'h' : 'l'}1` };
}

export function rollProblem(spec: DiceSpec, roll: Roll | null | undefined, who: string): string | null {
  const stacks = spec.net === 0 ? '' : ` (${Math.abs(spec.net)} ${spec.net > 0 ? 'advantage' : 'disadvantage'})`;
  if (!roll) return `${who}'s ${label(spec.capacity)} roll is missing.`;
  if (roll.faces.length !== spec.count) {
    return `${who}'s ${label(spec.capacity)} roll needs ${spec.count} d${spec.size}${stacks}: ${roll.faces.length} given.`;
  }
  const bad = roll.faces.find((f) => !Number.isInteger(f) || f < 1 || f > spec.size);
  return bad === undefined ? null : `${bad} is not a face of ${who}'s d${spec.size}.`;
}

/** The dice of a capacity check: its stacks, and one disadvantage on a target the checker cannot see (§1.4 sight). */
export function checkSpec(ctx: EnigmaContext, e: Extract<CombatEvent, { type: 'CHECK' }>): DiceSpec {
  const unseen = Boolean(e.targetId) && e.sight === 'unseen' && !e.needsNoSight;
  return diceSpec(ctx.combatants[e.actorId]!, e.capacity, (e.extraStacks ?? 0) - (unseen ? 1 : 0), ctx.options);
}

export const keptFace = (spec: DiceSpec, roll: Roll) => (spec.keep === 'highest' ? Math.max(...roll.faces) : Math.min(...roll.faces));

// ---- derived numbers ----

export const effectsOf = (c: EnigmaCombatant, ctx: EnigmaContext) => injuryEffects(c.injuries, Boolean(c.sheet['armoured']), ctx.options);
export const speedOf = (c: EnigmaCombatant, ctx: EnigmaContext) => speed(c.dice.navigate, effectsOf(c, ctx));

/** Damage from Escalation: full, or half rounded down with a minimum of 1 (R-E15; option: round up). */
export function escalationDamage(escalation: number, portion: 'full' | 'half', ctx: EnigmaContext): number {
  if (portion === 'full') return escalation;
  return rulingsOf(ctx.options).halfEscalationRounding === 'up' ? Math.ceil(escalation / 2) : Math.max(1, Math.floor(escalation / 2));
}

/** Opposed rolls: the side that started must beat the other; a tie goes to the defender (R-E14). */
export const beats = (starter: number, other: number, ctx: EnigmaContext) => (rulingsOf(ctx.options).opposedTies === 'attacker' ? starter >= other : starter > other);

/** Fixed difficulties are meet-or-beat (R-E18). */
export const meets = (roll: number, difficulty: number, ctx: EnigmaContext) => (rulingsOf(ctx.options).fixedDifficulty === 'beat' ? roll > difficulty : roll >= difficulty);

const isFoe = (a: EnigmaCombatant, b: EnigmaCombatant) => a.side !== b.side;
const alive = (c: EnigmaCombatant | undefined): c is EnigmaCombatant => c !== undefined && c.removed === null;

// ---- attacks (§1.4) ----

export interface AttackPlan {
  band: 'melee' | 'normal' | 'far' | 'beyond';
  autoMiss: boolean;
  attack: DiceSpec | null;
  defence: DiceSpec | null;
  rulings: string[];
}

export function planAttack(ctx: EnigmaContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): AttackPlan {
  const attacker = ctx.combatants[e.attackerId]!;
  const target = ctx.combatants[e.targetId]!;
  const rulings: string[] = ['R-E13', 'R-E14'];
  let stacks = e.extraStacks ?? 0;
  let band: AttackPlan['band'] = 'melee';
  if (e.mode === 'ranged') {
    const glean = attacker.dice.glean;
    const distance = e.distance ?? 0;
    band = distance <= glean ? 'normal' : distance <= 2 * glean ? 'far' : 'beyond';
    if (band === 'far') stacks -= 1;
    rulings.push('R-E12');
  }
  // source: "your capacity check will be at a disadvantage unless a power explicitly states that it does not require a line of sight"
  if (e.sight === 'unseen' && !e.needsNoSight && !e.ignoresSight) stacks -= 1;
  if (band === 'beyond') return { band, autoMiss: true, attack: null, defence: null, rulings };
  const defendWith: Capacity = e.mode === 'melee' ? 'endure' : 'navigate';
  return { band, autoMiss: false, attack: diceSpec(attacker, 'attack', stacks, ctx.options), defence: diceSpec(target, defendWith, 0, ctx.options), rulings };
}

export interface AttackOutcome extends AttackPlan {
  attackFace: number;
  attackTotal: number;
  defenceFace: number;
  hit: boolean;
  damage: number;
}

export function resolveAttack(ctx: EnigmaContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): AttackOutcome {
  const plan = planAttack(ctx, e);
  if (plan.autoMiss) return { ...plan, attackFace: 0, attackTotal: 0, defenceFace: 0, hit: false, damage: 0 };
  const attackFace = keptFace(plan.attack!, e.attackRoll!);
  const defenceFace = keptFace(plan.defence!, e.defenceRoll!);
  const attackTotal = attackFace + ctx.escalation;
  const hit = beats(attackTotal, defenceFace, ctx);
  const portion = e.mode === 'ranged' && rulingsOf(ctx.options).rangedDamage === 'half' ? 'half' : e.damage;
  const rulings = [...plan.rulings, ...(portion === 'half' ? ['R-E15'] : []), ...(e.mode === 'ranged' ? ['R-E16'] : [])];
  return { ...plan, rulings, attackFace, attackTotal, defenceFace, hit, damage: hit ? escalationDamage(ctx.escalation, portion, ctx) : 0 };
}

// ---- refusals: a sentence when the rules forbid the event now ----

function costOf(e: CombatEvent, ctx: EnigmaContext): number {
  switch (e.type) {
    case 'MOVE': case 'HIDE': case 'NOTICE': case 'USE_ITEM': return 1;
    case 'ATTACK': return e.asReaction ? 0 : 1;
    case 'USE_POWER': return e.fullAction ? rulingsOf(ctx.options).fullActionCost : e.cost;
    case 'CHECK': return e.cost;
    default: return 0;
  }
}

function needsActions(ctx: EnigmaContext, actorName: string, cost: number): string | null {
  if (cost <= ctx.actionsLeft) return null;
  if (ctx.actionsLeft === 0) return `${actorName} has no actions left this turn.`;
  return `${actorName} has ${ctx.actionsLeft} action${ctx.actionsLeft === 1 ? '' : 's'} left; this needs ${cost}.`;
}

/**
 * source: "A Hidden combatant cannot be targeted by powers, attacks, or capacity checks by a combatant that does not
 * Notice them." The first target the user has not noticed, as a refusal, or null.
 */
function hiddenTargetProblem(ctx: EnigmaContext, userId: string, targetIds: readonly string[], what: string): string | null {
  const user = ctx.combatants[userId]!;
  if (new Set(targetIds).size !== targetIds.length) return 'Each target is listed once.';
  for (const id of targetIds) {
    const target = ctx.combatants[id];
    if (!alive(target)) return `${nameOf(ctx, id)} is not in the fight.`;
    if (target.hiddenFrom.includes(user.id)) return `${user.name} has not noticed the hidden ${target.name} and cannot target it with ${what}.`;
  }
  return null;
}

/** A power's targets behind full cover: refused unless the power targets through obstacles or cover. */
function powerCoverProblem(ctx: EnigmaContext, targetIds: readonly string[], e: PowerCover): string | null {
  const covered = e.coveredIds ?? [];
  if (new Set(covered).size !== covered.length) return 'Each target behind cover is listed once.';
  const stray = covered.find((id) => !targetIds.includes(id));
  if (stray !== undefined) return `${nameOf(ctx, stray)} is not a target of the power.`;
  if (covered.length && !e.throughCover) return `${nameOf(ctx, covered[0]!)} is completely behind cover and cannot be targeted by a power that does not target through obstacles or cover.`;
  return null;
}

/** R-E17: the observers named as out of sight are in the fight and are not targets; only a power keeps its user hidden. */
function revealProblem(ctx: EnigmaContext, targetIds: readonly string[], e: Revealing & { power?: string | null }): string | null {
  const unseen = e.unseenBy ?? [];
  if (new Set(unseen).size !== unseen.length) return 'Each observer out of sight is listed once.';
  for (const id of unseen) {
    if (!alive(ctx.combatants[id])) return `${nameOf(ctx, id)} is not in the fight.`;
    if (targetIds.includes(id)) return `${nameOf(ctx, id)} is a target: a target always learns who used it on them (R-E17).`;
  }
  if (e.staysHidden && !e.power?.trim()) return 'Only a power can keep its user hidden (R-E17): name the power.';
  return null;
}

function reactionProblem(ctx: EnigmaContext, reactorId: string, turnOpen: boolean): string | null {
  const reactor = ctx.combatants[reactorId];
  if (!alive(reactor)) return 'That reactor is not in the fight.';
  if (!turnOpen) return 'Reactions happen during another creature\'s turn.';
  if (activeId(ctx) === reactorId) return `${reactor.name} is acting now: reactions are for someone else's turn.`;
  const cap = rulingsOf(ctx.options).reactionDebtCap;
  if (reactor.reactionDebt >= cap) return `${reactor.name} already owes ${counted(reactor.reactionDebt, 'action')} to reactions (R-E6: at most ${cap}).`;
  return null;
}

/**
 * Why the rules refuse a combat event now, or null. `turnOpen`: a combatant's turn is running. Asked several times
 * per event (the kernel, XState's `can`, the guards): the last answer is given again (core/encounter/last-answer.ts).
 */
export const combatRefusal = lastAnswer((ctx: EnigmaContext, e: CombatEvent, turnOpen: boolean): string | null => refusalOf(ctx, e, turnOpen));

function refusalOf(ctx: EnigmaContext, e: CombatEvent, turnOpen: boolean): string | null {
  if (ctx.pendingPeril.length > 0 && e.type !== 'RESOLVE_PERIL' && e.type !== 'OVERRIDE') {
    return `${nameOf(ctx, ctx.pendingPeril[0])} is in Mortal Peril: choose Sacrifice or Survive first.`;
  }
  const actor = turnOpen ? ctx.combatants[activeId(ctx)!] : undefined;
  const onTurn = (what: string) => (turnOpen && actor ? null : `${what} happens on a combatant's turn.`);
  switch (e.type) {
    case 'MOVE': {
      const problem = onTurn('Moving');
      if (problem) return problem;
      const budget = speedOf(actor!, ctx);
      const pauses = rulingsOf(ctx.options).pauseCostsSpace ? e.pauses : 0;
      if (e.spaces + pauses > budget) {
        return `${actor!.name} can cover ${budget} spaces in one Move; ${e.spaces} spaces and ${e.pauses} pause${e.pauses === 1 ? '' : 's'} need ${e.spaces + pauses} (R-E11).`;
      }
      return needsActions(ctx, actor!.name, 1);
    }
    case 'ATTACK': {
      const attacker = ctx.combatants[e.attackerId];
      const target = ctx.combatants[e.targetId];
      if (!alive(attacker)) return 'The attacker is not in the fight.';
      if (!alive(target)) return 'The target is not in the fight.';
      if (attacker.id === target.id) return `${attacker.name} cannot attack themself.`;
      if (e.asReaction) {
        const problem = reactionProblem(ctx, attacker.id, turnOpen);
        if (problem) return problem;
      } else {
        if (!turnOpen || activeId(ctx) !== attacker.id) return `It is not ${attacker.name}'s turn: attack as a reaction instead.`;
        const problem = needsActions(ctx, attacker.name, 1);
        if (problem) return problem;
      }
      if (target.hiddenFrom.includes(attacker.id)) return `${attacker.name} has not noticed the hidden ${target.name} and cannot target it.`;
      // source: "you cannot target them with attacks or powers unless a specific power allows for targeting through obstacles or cover"
      if (e.sight === 'fullCover' && !e.throughCover && !e.ignoresSight) return `${target.name} is completely behind cover and cannot be targeted.`;
      // source: "Melee attacks are made against enemies that are next to you." The runner sends the distance; an
      // attack stored before it did (no distance) was taken as made next to the target and still replays.
      if (e.mode === 'melee' && e.distance !== undefined && e.distance !== null && e.distance > 1) {
        return `Melee attacks are made against enemies next to the attacker: ${target.name} is ${counted(e.distance, 'space')} away.`;
      }
      if (e.mode === 'ranged') {
        if (e.distance === undefined || e.distance === null) return 'A ranged attack needs the distance in spaces.';
        if (e.distance <= 1) return 'Ranged attacks cannot target an adjacent creature (R-E12).';
      }
      const reveals = revealProblem(ctx, [target.id], e);
      if (reveals) return reveals;
      const plan = planAttack(ctx, e);
      if (plan.autoMiss) return null;
      return rollProblem(plan.attack!, e.attackRoll, attacker.name) ?? rollProblem(plan.defence!, e.defenceRoll, target.name);
    }
    case 'HIDE': {
      const problem = onTurn('Hiding') ?? needsActions(ctx, actor!.name, 1);
      if (problem) return problem;
      if (e.observers.length === 0) return 'Choose the foes who could notice the hider.';
      // source: "To Hide from a creature you must break line of sight."
      if (e.sightBroken === false) return `${actor!.name} must break line of sight to hide: list only the foes ${actor!.name} is out of sight of.`;
      const hider = diceSpec(actor!, 'navigate', 0, ctx.options);
      const rollIssue = rollProblem(hider, e.navigateRoll, actor!.name);
      if (rollIssue) return rollIssue;
      const seen = new Set<string>();
      for (const o of e.observers) {
        const observer = ctx.combatants[o.observerId];
        if (!alive(observer) || !isFoe(observer, actor!)) return `${nameOf(ctx, o.observerId)} is not a foe in the fight.`;
        if (seen.has(o.observerId)) return `${observer.name} is listed twice.`;
        seen.add(o.observerId);
        const issue = rollProblem(diceSpec(observer, 'glean', 0, ctx.options), o.gleanRoll, observer.name);
        if (issue) return issue;
      }
      return null;
    }
    case 'NOTICE': {
      const problem = onTurn('Noticing') ?? needsActions(ctx, actor!.name, 1);
      if (problem) return problem;
      const target = ctx.combatants[e.targetId];
      if (!alive(target)) return 'That creature is not in the fight.';
      if (!target.hiddenFrom.includes(actor!.id)) return `${target.name} is not hidden from ${actor!.name}.`;
      // source: "To attempt to Notice a creature you must have line of sight on them."
      if (e.lineOfSight === false) return `${actor!.name} has no line of sight on ${target.name}, and must have it to try to Notice them.`;
      return rollProblem(diceSpec(actor!, 'glean', 0, ctx.options), e.gleanRoll, actor!.name)
        ?? rollProblem(diceSpec(target, 'navigate', 0, ctx.options), e.navigateRoll, target.name);
    }
    case 'USE_ITEM':
      return onTurn('Using an item') ?? needsActions(ctx, actor!.name, 1);
    case 'USE_POWER':
      return onTurn('Activating a power') ?? needsActions(ctx, actor!.name, costOf(e, ctx)) ?? hiddenTargetProblem(ctx, actor!.id, e.targetIds ?? [], 'a power')
        ?? powerCoverProblem(ctx, e.targetIds ?? [], e) ?? revealProblem(ctx, e.targetIds ?? [], e);
    case 'USE_REACTION':
      return reactionProblem(ctx, e.reactorId, turnOpen) ?? hiddenTargetProblem(ctx, e.reactorId, e.targetIds ?? [], 'a power')
        ?? powerCoverProblem(ctx, e.targetIds ?? [], e) ?? revealProblem(ctx, e.targetIds ?? [], e);
    case 'CHECK': {
      const checker = ctx.combatants[e.actorId];
      if (!alive(checker)) return 'That creature is not in the fight.';
      if (e.cost > 0) {
        if (!turnOpen || activeId(ctx) !== checker.id) return `It is not ${checker.name}'s turn: only a free check (0 actions) can be made now.`;
        const problem = needsActions(ctx, checker.name, e.cost);
        if (problem) return problem;
      }
      if (e.targetId) {
        const problem = hiddenTargetProblem(ctx, checker.id, [e.targetId], 'a capacity check');
        if (problem) return problem;
        // source: "you cannot target them with attacks or powers unless a specific power allows for targeting through obstacles or cover"
        if (e.sight === 'fullCover' && !e.throughCover) return `${nameOf(ctx, e.targetId)} is completely behind cover and cannot be targeted.`;
      } else if ((e.sight ?? 'clear') !== 'clear') {
        return 'Line of sight matters for a check aimed at someone: choose whom it is against.';
      }
      return rollProblem(checkSpec(ctx, e), e.roll, checker.name);
    }
    case 'APPLY_DAMAGE': {
      const target = ctx.combatants[e.targetId];
      return alive(target) ? null : 'That creature is not in the fight.';
    }
    case 'AREA_DAMAGE': {
      if (e.targets.length === 0) return 'Choose at least one target.';
      if (new Set(e.targets.map((t) => t.targetId)).size !== e.targets.length) return 'Each target is listed once.';
      const missing = e.targets.find((t) => !alive(ctx.combatants[t.targetId]));
      return missing ? `${nameOf(ctx, missing.targetId)} is not in the fight.` : null;
    }
    case 'HEAL': {
      const target = ctx.combatants[e.targetId];
      if (!alive(target)) return 'That creature is not in the fight.';
      if (target.healingRestriction === 'fixesOnly' && e.kind === 'magic') {
        return `${target.name} can receive no healing magic except Fixes (the cost of an earlier Survive).`;
      }
      return null;
    }
    case 'RESOLVE_PERIL': {
      const first = ctx.pendingPeril[0];
      if (!first) return 'Nobody is in Mortal Peril.';
      if (e.combatantId !== first) return `${nameOf(ctx, first)} chooses first (R-E9: in order of battle).`;
      if (e.choice === 'survive' && e.injury?.mode === 'extend') {
        const target = ctx.combatants[first]!;
        if (!target.injuries.some((i) => i.id === (e.injury as { injuryId: string }).injuryId && i.gainedHere)) {
          return `${target.name} has no injury from this encounter to extend; give a new one instead.`;
        }
      }
      if (e.choice === 'survive' && e.injury?.mode === 'new' && (e.injury.baseRoll < 1 || e.injury.baseRoll > 4)) return 'The injury\'s duration roll is a d4: 1 to 4.';
      return null;
    }
    case 'SET_CAN_ACT':
      return alive(ctx.combatants[e.combatantId]) ? null : 'That creature is not in the fight.';
    case 'OVERRIDE': {
      const target = ctx.combatants[e.targetId];
      if (!alive(target)) return 'That creature is not in the fight.';
      if (e.field === 'die' && (!e.capacity || !DIE_STEPS.includes(e.value))) return 'Set a capacity die to d4, d6, d8, d10 or d12.';
      if (e.field === 'actionsLeft' && (!turnOpen || activeId(ctx) !== target.id)) return `${target.name} is not acting now.`;
      if (e.field === 'reactionDebt' && e.value > 2) return 'Reaction debt is at most 2 (R-E6).';
      return null;
    }
  }
}

// ---- reducers: the new context after an accepted event ----

/** PCs (and named NPCs) at 0 LP enter Mortal Peril; other NPCs are defeated and leave the order (§1.5, R-E8, R-E9). */
export function applyDamage(ctx: EnigmaContext, targetId: string, amount: number): EnigmaContext {
  const target = ctx.combatants[targetId]!;
  const lp = Math.max(0, target.lp - amount);
  let next = roster.update(ctx, targetId, { lp });
  if (lp > 0 || target.lp === 0) return next;
  const facesPeril = target.side === 'party' || Boolean(target.sheet['namedNpc']) || rulingsOf(ctx.options).npcAtZero === 'mortalPeril';
  if (!facesPeril) return removeCombatant(next, targetId, 'defeated at 0 LP', 'defeated');
  const position = (id: string) => {
    const index = next.order.indexOf(id);
    return index === -1 ? next.order.length + next.roster.indexOf(id) : index;
  };
  next = { ...next, pendingPeril: [...next.pendingPeril, targetId].sort((a, b) => position(a) - position(b)) };
  return next;
}

/**
 * R-E17: an attack or a power used on a target reveals the user to that target and to every observer with line of
 * sight (all but the `unseenBy` the GM names), unless the power says its user stays hidden. A power used on nobody
 * reveals nothing. With the option off, nothing reveals.
 */
export function revealedTo(ctx: EnigmaContext, userId: string, targetIds: readonly string[], e: Revealing): string[] {
  const user = ctx.combatants[userId];
  if (!user || !rulingsOf(ctx.options).attackRevealsHidden || e.staysHidden || targetIds.length === 0) return [];
  const unseen = new Set(e.unseenBy ?? []);
  return user.hiddenFrom.filter((id) => targetIds.includes(id) || !unseen.has(id));
}

function reveal(ctx: EnigmaContext, userId: string, targetIds: readonly string[], e: Revealing): EnigmaContext {
  const seen = revealedTo(ctx, userId, targetIds, e);
  // Someone hidden from nobody keeps its record: nothing changes, and an unchanged record keeps its view row.
  if (seen.length === 0) return ctx;
  return roster.update(ctx, userId, { hiddenFrom: ctx.combatants[userId]!.hiddenFrom.filter((id) => !seen.includes(id)) });
}

function spend(ctx: EnigmaContext, cost: number): EnigmaContext {
  return { ...ctx, actionsLeft: ctx.actionsLeft - cost };
}

/** The context after an accepted combat event (asked by the guard and the action alike: computed once). */
export const applyCombat = lastAnswer((ctx: EnigmaContext, e: CombatEvent): EnigmaContext => nextContext(ctx, e));

function nextContext(ctx: EnigmaContext, e: CombatEvent): EnigmaContext {
  switch (e.type) {
    case 'MOVE': case 'USE_ITEM':
      return spend(ctx, costOf(e, ctx));
    case 'USE_POWER':
      return reveal(spend(ctx, costOf(e, ctx)), activeId(ctx)!, e.targetIds ?? [], e);
    case 'USE_REACTION': {
      const reactor = ctx.combatants[e.reactorId]!;
      return reveal(roster.update(ctx, reactor.id, { reactionDebt: reactor.reactionDebt + 1 }), reactor.id, e.targetIds ?? [], e);
    }
    case 'CHECK':
      return e.cost > 0 ? spend(ctx, e.cost) : ctx;
    case 'ATTACK': {
      const outcome = resolveAttack(ctx, e);
      let next = e.asReaction
        ? roster.update(ctx, e.attackerId, { reactionDebt: ctx.combatants[e.attackerId]!.reactionDebt + 1 })
        : spend(ctx, 1);
      next = reveal(next, e.attackerId, [e.targetId], e);
      return outcome.hit ? applyDamage(next, e.targetId, outcome.damage) : next;
    }
    case 'HIDE': {
      const hider = ctx.combatants[activeId(ctx)!]!;
      const hiderFace = keptFace(diceSpec(hider, 'navigate', 0, ctx.options), e.navigateRoll);
      const beaten = e.observers
        .filter((o) => beats(hiderFace, keptFace(diceSpec(ctx.combatants[o.observerId]!, 'glean', 0, ctx.options), o.gleanRoll), ctx))
        .map((o) => o.observerId);
      const hiddenFrom = [...new Set([...hider.hiddenFrom, ...beaten])];
      return spend(roster.update(ctx, hider.id, { hiddenFrom }), 1);
    }
    case 'NOTICE': {
      const observer = ctx.combatants[activeId(ctx)!]!;
      const target = ctx.combatants[e.targetId]!;
      const glean = keptFace(diceSpec(observer, 'glean', 0, ctx.options), e.gleanRoll);
      const navigate = keptFace(diceSpec(target, 'navigate', 0, ctx.options), e.navigateRoll);
      const next = beats(glean, navigate, ctx) ? roster.update(ctx, target.id, { hiddenFrom: target.hiddenFrom.filter((x) => x !== observer.id) }) : ctx;
      return spend(next, 1);
    }
    case 'APPLY_DAMAGE':
      return applyDamage(ctx, e.targetId, e.amount);
    case 'AREA_DAMAGE':
      // Everyone is hit at once; those who fall to 0 LP queue for Mortal Peril in order of battle (R-E9).
      return e.targets.reduce((next, t) => applyDamage(next, t.targetId, t.amount), ctx);
    case 'HEAL': {
      const target = ctx.combatants[e.targetId]!;
      const lp = Math.min(lpMaxOf(target, ctx.options), target.lp + e.amount);
      // Healing someone already at max LP leaves its record (and so its view row) as it was.
      return lp === target.lp ? ctx : roster.update(ctx, target.id, { lp });
    }
    case 'RESOLVE_PERIL':
      return resolvePeril(ctx, e);
    case 'SET_CAN_ACT':
      return roster.update(ctx, e.combatantId, { canAct: e.canAct });
    case 'OVERRIDE': {
      const target = ctx.combatants[e.targetId]!;
      if (e.field === 'actionsLeft') return { ...ctx, actionsLeft: Math.max(0, e.value) };
      if (e.field === 'reactionDebt') return roster.update(ctx, target.id, { reactionDebt: Math.max(0, e.value) });
      if (e.field === 'die') return roster.update(ctx, target.id, { dice: { ...target.dice, [e.capacity!]: e.value } });
      const lp = Math.max(0, Math.min(e.value, lpMaxOf(target, ctx.options)));
      // Lowering LP is damage (0 LP still means peril or defeat); restoring LP lifts a pending peril, as an
      // override is the way out of a blocking state (RULES.md §6.8).
      if (lp < target.lp) return applyDamage(ctx, target.id, target.lp - lp);
      const next = roster.update(ctx, target.id, { lp });
      return { ...next, pendingPeril: next.pendingPeril.filter((id) => id !== target.id) };
    }
  }
}

/**
 * n for the Survive being chosen (R-E25): "Second Survival: Injury lasts 1d4 × 2 rests". 'survives' counts the
 * Survives of this encounter, so a second Survive whose first gave no injury still uses ×2; 'injuries' counts the
 * injuries this encounter gave or extended, so only a second injury uses ×2.
 */
export function survivalNumber(c: EnigmaCombatant, options: EnigmaContext['options']): number {
  if (rulingsOf(options).survivalCount === 'injuries') return c.injuries.filter((i) => i.gainedHere).length + 1;
  return c.survivals + 1;
}

/** Mortal Peril (§1.5, §1.6): Sacrifice removes the PC; Survive restores half LP, counts the Survive, sets costs and injuries. */
function resolvePeril(ctx: EnigmaContext, e: Extract<CombatEvent, { type: 'RESOLVE_PERIL' }>): EnigmaContext {
  const c = ctx.combatants[e.combatantId]!;
  if (e.choice === 'sacrifice') {
    const next = roster.update(ctx, c.id, { legacy: e.costText });
    return removeCombatant(next, c.id, 'Sacrifice', 'dead');
  }
  const n = survivalNumber(c, ctx.options);
  let injuries = c.injuries;
  if (e.injury?.mode === 'new') {
    const { multiplier, rests } = injuryDuration(e.injury.baseRoll, n, ctx.options);
    const injury: Injury & { gainedHere: boolean } = {
      id: `${c.id}.injury${c.injuries.length + 1}`,
      name: e.injury.name,
      category: e.injury.category,
      baseRoll: e.injury.baseRoll,
      multiplier,
      restsRemaining: rests,
      permanent: Boolean(e.injury.permanent),
      cureCondition: e.injury.cureCondition ?? null,
      notes: e.costText,
      gainedHere: true,
    };
    injuries = [...injuries, injury];
  } else if (e.injury?.mode === 'extend') {
    const injuryId = e.injury.injuryId;
    injuries = injuries.map((i) => (i.id === injuryId ? { ...extendInjury(i, n, ctx.options), gainedHere: true } : i));
  }
  const survivor = { ...c, injuries, survivals: c.survivals + 1, healingRestriction: e.healingRestriction ?? c.healingRestriction };
  const max = lpMaxOf(survivor, ctx.options);
  const lp = rulingsOf(ctx.options).surviveLp === 'halfUp' ? Math.ceil(max / 2) : Math.max(1, Math.floor(max / 2));
  return { ...roster.update(ctx, c.id, { ...survivor, lp }), pendingPeril: ctx.pendingPeril.slice(1) };
}

/** Turn start (§1.3): two actions less the reaction debt carried in; the debt is paid (R-E6). */
export function beginTurn(ctx: EnigmaContext): EnigmaContext {
  const id = activeId(ctx)!;
  const c = ctx.combatants[id]!;
  const next = { ...ctx, actionsLeft: Math.max(0, 2 - c.reactionDebt) };
  return c.reactionDebt === 0 ? next : roster.update(next, id, { reactionDebt: 0 });
}

/** R-E5: the creature at the cursor is alive but cannot act: its turn is skipped. */
export const activeCannotAct = (ctx: EnigmaContext) => ctx.combatants[activeId(ctx) ?? '']?.canAct === false;

/** End of combat: leftover reaction debt is dropped (R-E6) and the survival counters close. */
export function closeCombat(ctx: EnigmaContext): EnigmaContext {
  const combatants = eachCombatant(ctx.combatants, (c) => ({ ...c, reactionDebt: 0 }));
  return { ...ctx, combatants, actionsLeft: 0 };
}

export { CAPACITIES };
