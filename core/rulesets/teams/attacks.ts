// The attack pipeline (§2.4): the attack test with the multiple attack penalty, the luck die and stray shots,
// what refuses an attack, and the hit it leaves for the defence window.
import type { CombatEvent } from './combat-events.ts';
import { die, luckOf, luckProblem, testProblem, testResult, type TestResult, type TestSpec } from './skill-tests.ts';
import { MAP_STEP, needsActions, openingGate, spend, surprisedCommandRefusal, turnGate } from './turn-budget.ts';
import { payReaction, reactionAvailable, reactionRefusal } from './reactions.ts';
import { applyHit, evasionAgainst, setItem } from './health.ts';
import { openDefence } from './defence.ts';
import { inFight, isSurprised, type Attribute, type PendingAttack, type Proficiency, type TeamsCombatant, type TeamsContext, type Weapon } from './rules.ts';
import { nameOf, update } from '../../encounter/roster.ts';
import { rulingsOf } from './options.ts';

// ---- attacks (§2.4) ----

export interface AttackPlan {
  weapon: Weapon;
  spec: TestSpec;
  penalty: number;
  /** What made up the advantage level. */
  levelParts: string[];
  ranged: boolean;
}

export const isRanged = (weapon: Weapon) => weapon.delivery !== 'melee';

export function attackSpec(c: TeamsCombatant, attribute: Attribute, proficiency: Proficiency, level: number, label = 'attack test'): TestSpec {
  const bonus = proficiency === 'none' ? 0 : die(c, proficiency, 0);
  return { label, dice: [die(c, attribute, 6), die(c, 'combatSkill', 6)], bonus, level };
}

/** R-T15: −2 for each attack this attacker made earlier this round. */
export const penaltyOf = (c: TeamsCombatant) => MAP_STEP * c.attacksThisRound;

export function planAttack(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): AttackPlan {
  const attacker = ctx.combatants[e.attackerId]!;
  const target = ctx.combatants[e.targetId]!;
  const weapon = e.weapon ?? attacker.weapon;
  const ranged = isRanged(weapon);
  const parts: string[] = [];
  let level = 0;
  if (e.sneak) { level += 1; parts.push('sneak attack'); }
  if (e.flanking) { level += 1; parts.push('flanking'); }
  if (target.prone) { level += ranged ? -1 : 1; parts.push(ranged ? 'prone target (ranged)' : 'prone target (melee)'); }
  if (target.inCover && ranged) { level -= 1; parts.push('target in cover'); }
  if (e.advantage) { level += e.advantage; parts.push(`GM ${e.advantage > 0 ? '+' : ''}${e.advantage}`); }
  return { weapon, spec: attackSpec(attacker, e.attribute, e.proficiency, level), penalty: penaltyOf(attacker), levelParts: parts, ranged };
}

export interface AttackOutcome extends AttackPlan {
  test: TestResult;
  /** After the multiple attack penalty, and before it. */
  total: number;
  unpenalised: number;
  luck: number;
  crit: boolean;
  /** Stray shot: the character hit instead (R-T16). */
  strayTo: string | null;
  targetId: string;
  evasion: number;
  hit: boolean;
  rulings: string[];
}

/** The characters a stray shot may hit: within 1 m of the target (the GM's list), never the attacker or the target (R-T16). */
export function strayPool(ctx: TeamsContext, e: { attackerId: string; targetId: string; nearbyIds?: string[] }): string[] {
  return [...new Set(e.nearbyIds ?? [])].filter((id) => id !== e.attackerId && id !== e.targetId && inFight(ctx.combatants[id]));
}

export function resolveAttack(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): AttackOutcome {
  const plan = planAttack(ctx, e);
  const attacker = ctx.combatants[e.attackerId]!;
  const test = testResult(plan.spec, e.testRoll!);
  const total = test.total - plan.penalty;
  const luck = luckOf(e.luckRoll!);
  const crit = luck >= plan.weapon.critThreshold;
  const rulings = ['R-T17'];
  if (plan.penalty) rulings.push('R-T15');
  let targetId = e.targetId;
  let strayTo: string | null = null;
  const pool = strayPool(ctx, e);
  if (!crit && plan.ranged && luck <= 1 && pool.length > 0) {
    strayTo = pool.length === 1 ? pool[0]! : pool[(e.strayRoll?.faces[0] ?? 1) - 1]!;
    targetId = strayTo;
    rulings.push('R-T16');
  }
  const evasion = evasionAgainst(attacker, ctx.combatants[targetId]!);
  return { ...plan, test, total, unpenalised: test.total, luck, crit, strayTo, targetId, evasion, hit: crit || total >= evasion, rulings };
}

export function attackRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): string | null {
  const attacker = ctx.combatants[e.attackerId];
  const target = ctx.combatants[e.targetId];
  if (!attacker || !inFight(attacker)) return 'The attacker is not in the fight.';
  if (!target || !inFight(target)) return 'The target is not in the fight.';
  if (attacker.id === target.id) return `${attacker.name} cannot attack themself.`;
  if (!attacker.conscious) return `${attacker.name} is unconscious.`;
  const via = e.via ?? 'turn';
  if (via === 'turn') {
    const gate = turnGate(ctx, 'An attack');
    if (gate) return gate;
    if (ctx.activeId !== attacker.id) {
      return ctx.turn?.commandTokens.includes(attacker.id)
        ? `${attacker.name} acts on ${nameOf(ctx, ctx.activeId)}'s Command: send the attack as a commanded one.`
        : `It is not ${attacker.name}'s turn: only a readied action or a Command lets them attack now.`;
    }
    const problem = needsActions(ctx, attacker.name, 1);
    if (problem) return problem;
  } else if (via === 'command') {
    const gate = turnGate(ctx, 'A commanded attack');
    if (gate) return gate;
    const opening = openingGate(ctx);
    if (opening) return opening;
    if (!ctx.turn!.commandTokens.includes(attacker.id)) return `${attacker.name} has no action from a Command this turn.`;
    // source: "the team with the benefit of surprise gets to take a whole round where only their team may take actions"
    if (isSurprised(ctx, attacker)) return surprisedCommandRefusal(attacker);
  } else {
    if (!attacker.readied) return `${attacker.name} has no readied action.`;
    if (rulingsOf(ctx.options).readyUsesReaction && reactionAvailable(ctx, attacker) === null) {
      return `${attacker.name}'s readied action cannot fire: no reaction is left (R-T7).`;
    }
  }
  const plan = planAttack(ctx, e);
  if (e.weapon === undefined || e.weapon === null) {
    if (!attacker.held.weapon) return `${attacker.name} is not holding ${plan.weapon.name}: Brandish it first, or name the weapon used.`;
    if (!plan.weapon.attributes.includes(e.attribute)) return `${plan.weapon.name} does not use ${e.attribute}.`;
    if (e.proficiency !== 'none' && !plan.weapon.proficiencies.includes(e.proficiency)) return `${plan.weapon.name} does not allow the ${e.proficiency} proficiency.`;
  }
  const around = interceptorsRefusal(ctx, e, target) ?? declaredParryRefusal(ctx, e, target);
  if (around) return around;
  const problem = testProblem(plan.spec, e.testRoll, attacker.name) ?? luckProblem(attacker, e.luckRoll);
  if (problem) return problem;
  const pool = strayPool(ctx, e);
  if (plan.ranged && luckOf(e.luckRoll!) <= 1 && pool.length > 1) {
    const stray = e.strayRoll?.faces;
    if (!stray || stray.length !== 1 || !Number.isInteger(stray[0]) || stray[0]! < 1 || stray[0]! > pool.length) {
      return `The stray shot picks one of ${pool.length} nearby characters: roll 1d${pool.length}.`;
    }
  }
  return null;
}

/** Who the GM placed close enough to intercept: the target's allies in the fight, never the attacker. */
function interceptorsRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, target: TeamsCombatant): string | null {
  for (const id of e.interceptorIds ?? []) {
    const c = ctx.combatants[id];
    if (!c || !inFight(c)) return 'Someone listed as able to intercept is not in the fight.';
    if (id === e.attackerId) return `${c.name} is the attacker and cannot intercept.`;
    if (id === target.id) return `${c.name} is the target: list the allies who could intercept for them.`;
    if (c.team !== target.team) return `${c.name} is not on ${target.name}'s team and cannot intercept for them.`;
  }
  return null;
}

/** R-T19 off: the target declares a parry with the attack, before the hit is known. */
function declaredParryRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, target: TeamsCombatant): string | null {
  const slot = e.declaredParry;
  if (!slot) return null;
  if (rulingsOf(ctx.options).parryAfterHit) return 'In this campaign a parry is chosen after the hit is known (R-T19): leave the declared parry empty and answer the defence prompt.';
  const item = target.items[slot];
  if (!item) return `${target.name} has no shield to parry with.`;
  if (!target.held[slot]) return `${target.name} is not holding ${item.name}: only a wielded item can parry.`;
  if (item.durability === 0) return 'A broken item cannot block or parry.';
  return reactionRefusal(ctx, target, 'stamina');
}

export function applyAttack(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): TeamsContext {
  const outcome = resolveAttack(ctx, e);
  const via = e.via ?? 'turn';
  let next = ctx;
  if (via === 'turn') next = spend(next, 1, { openingAttack: false });
  else if (via === 'command') next = { ...next, turn: { ...next.turn!, commandTokens: next.turn!.commandTokens.filter((id) => id !== e.attackerId) } };
  else {
    // R-T7: the readied action fires as a reaction and spends it (no stamina: it is not a defensive reaction).
    if (rulingsOf(ctx.options).readyUsesReaction) next = payReaction(next, e.attackerId, null);
    next = update(next, e.attackerId, { readied: null });
  }
  const counts = via === 'turn' || rulingsOf(ctx.options).multipleAttackPenaltyScope !== 'ownTurnOnly';
  if (counts) next = update(next, e.attackerId, { attacksThisRound: next.combatants[e.attackerId]!.attacksThisRound + 1 });
  // R-T19 off: the parry declared before the roll is paid whatever happens; the item wears when it parries.
  const parry = e.declaredParry ?? null;
  if (parry) next = payReaction(next, e.targetId, 'stamina');
  if (!outcome.hit || (parry && outcome.targetId !== e.targetId)) {
    if (parry) next = setItem(next, e.targetId, parry, { durability: Math.max(0, next.combatants[e.targetId]!.items[parry]!.durability - 1) });
    if (!outcome.hit) return next;
  }
  const pa = pendingFrom(e, outcome);
  if (parry && outcome.targetId === e.targetId) return applyHit(next, pa, `parry:${parry}`);
  return openDefence(next, pa);
}

/** The hit waiting for its defence, with who the GM said can intercept (none listed: every ally). */
export function pendingFrom(e: Extract<CombatEvent, { type: 'ATTACK' }>, outcome: AttackOutcome): PendingAttack {
  return {
    attackerId: e.attackerId, targetId: outcome.targetId, total: outcome.total, unpenalised: outcome.unpenalised, crit: outcome.crit,
    weapon: outcome.weapon, freeReaction: false, interceptedFrom: null, dodged: false,
    interceptorIds: e.interceptorIds?.length ? [...new Set(e.interceptorIds)] : null,
  };
}
