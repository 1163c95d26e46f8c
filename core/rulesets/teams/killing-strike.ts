// The killing strike (§2.4 step 15): a test against constitution, else a sneak attack; paid over turns when short.
import type { CombatEvent } from './combat-events.ts';
import { die, luckOf, luckProblem, testProblem, testResult, type TestResult, type TestSpec } from './skill-tests.ts';
import { KILLING_STRIKE_COST, completesNow, openingGate, spend, turnGate } from './turn-budget.ts';
import { attackSpec, penaltyOf } from './attacks.ts';
import { evasionAgainst, hitDamage, killed, takeDamage, type HitResult } from './health.ts';
import { inFight, type Attribute, type Extended, type PendingAttack, type Proficiency, type Roll, type TeamsCombatant, type TeamsContext, type Weapon } from './rules.ts';
import { rulingsOf } from './options.ts';
import { update } from '../../encounter/roster.ts';

// ---- the killing strike (§2.4 step 15) ----

export function killingStrikeSpec(ctx: TeamsContext, c: TeamsCombatant, attribute: Attribute, proficiency: Proficiency): TestSpec {
  // R-T15b: built like an attack test, with advantage; the literal reading rolls the combat skill only.
  if (rulingsOf(ctx.options).killingStrikeTest === 'combatSkillOnly') return { label: 'killing strike', dice: [die(c, 'combatSkill', 6)], bonus: 0, level: 1 };
  return attackSpec(c, attribute, proficiency, 1, 'killing strike');
}

/** On a failed killing strike a sneak attack is made instead: the same test under R-T15b's default, its own roll otherwise. */
export const sneakSpec = (c: TeamsCombatant, attribute: Attribute, proficiency: Proficiency): TestSpec => attackSpec(c, attribute, proficiency, 1, 'sneak attack');
export const sneakNeedsOwnRoll = (ctx: TeamsContext) => rulingsOf(ctx.options).killingStrikeTest === 'combatSkillOnly';

export interface StrikeDetail {
  targetId: string;
  attribute: Attribute;
  proficiency: Proficiency;
  weapon: Weapon;
}

export interface StrikeOutcome {
  test: TestResult;
  total: number;
  constitution: number;
  killed: boolean;
  sneak: { total: number; evasion: number; crit: boolean; hit: boolean; damage: HitResult | null } | null;
}

export function resolveStrike(ctx: TeamsContext, strikerId: string, d: StrikeDetail, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }): StrikeOutcome {
  const striker = ctx.combatants[strikerId]!;
  const target = ctx.combatants[d.targetId]!;
  const spec = killingStrikeSpec(ctx, striker, d.attribute, d.proficiency);
  const test = testResult(spec, rolls.testRoll!);
  const penalty = penaltyOf(striker);
  const total = test.total - penalty;
  if (total >= target.constitution) return { test, total, constitution: target.constitution, killed: true, sneak: null };
  const sneakTest = sneakNeedsOwnRoll(ctx) ? testResult(sneakSpec(striker, d.attribute, d.proficiency), rolls.sneakRoll!).total - penalty : total;
  const crit = luckOf(rolls.luckRoll!) >= d.weapon.critThreshold;
  const evasion = evasionAgainst(striker, target);
  const hit = crit || sneakTest >= evasion;
  const pa: PendingAttack = { attackerId: strikerId, targetId: d.targetId, total: sneakTest, unpenalised: sneakTest + penalty, crit, weapon: d.weapon, freeReaction: false, interceptedFrom: null, dodged: false, interceptorIds: null };
  return { test, total, constitution: target.constitution, killed: false, sneak: { total: sneakTest, evasion, crit, hit, damage: hit ? hitDamage(ctx, pa, 'none') : null } };
}

export function completeStrike(ctx: TeamsContext, strikerId: string, d: StrikeDetail, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }): TeamsContext {
  const outcome = resolveStrike(ctx, strikerId, d, rolls);
  const striker = ctx.combatants[strikerId]!;
  const counted = update(ctx, strikerId, { attacksThisRound: striker.attacksThisRound + 1 }); // R-T15
  if (outcome.killed) return killed(counted, d.targetId, `killing strike by ${striker.name}`);
  if (!outcome.sneak?.hit) return counted;
  return takeDamage(counted, d.targetId, outcome.sneak.damage!.taken, { nonlethal: d.weapon.nonlethal, source: `${striker.name}'s ${d.weapon.name}` });
}

export function strikeRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'KILLING_STRIKE' }>): string | null {
  const gate = turnGate(ctx, 'A killing strike') ?? openingGate(ctx);
  if (gate) return gate;
  const striker = ctx.combatants[ctx.activeId!]!;
  const target = ctx.combatants[e.targetId];
  if (!target || !inFight(target)) return 'The target is not in the fight.';
  if (target.id === striker.id) return `${striker.name} cannot strike themself.`;
  if (target.conscious) return `${target.name} is conscious: a killing strike needs an unconscious target.`;
  if (ctx.turn!.actionsLeft === 0) return `${striker.name} has no actions left this turn.`;
  if (striker.inProgress) return `${striker.name} is already in the middle of ${striker.inProgress.name}.`;
  const weapon = e.weapon ?? striker.weapon;
  if (!e.weapon && !striker.held.weapon) return `${striker.name} is not holding ${weapon.name}: Brandish it first, or name the weapon used.`;
  const rule = rulingsOf(ctx.options).killingStrikeWeapons;
  if (rule === 'lethalOnly' && weapon.nonlethal) return `This campaign allows killing strikes with lethal weapons only (R-T25): ${weapon.name} is nonlethal.`;
  if (rule === 'nonlethalOnly' && !weapon.nonlethal) return `This campaign follows the literal text (R-T25): a killing strike needs a nonlethal weapon.`;
  if (!completesNow(ctx, KILLING_STRIKE_COST)) return null;
  return strikeRollsRefusal(ctx, striker, { targetId: e.targetId, attribute: e.attribute, proficiency: e.proficiency, weapon }, e);
}

export function strikeRollsRefusal(ctx: TeamsContext, striker: TeamsCombatant, d: StrikeDetail, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }): string | null {
  return testProblem(killingStrikeSpec(ctx, striker, d.attribute, d.proficiency), rolls.testRoll, striker.name)
    ?? luckProblem(striker, rolls.luckRoll)
    ?? (sneakNeedsOwnRoll(ctx) ? testProblem(sneakSpec(striker, d.attribute, d.proficiency), rolls.sneakRoll, striker.name) : null);
}

export function applyStrike(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'KILLING_STRIKE' }>): TeamsContext {
  const id = ctx.activeId!;
  const striker = ctx.combatants[id]!;
  const detail: StrikeDetail = { targetId: e.targetId, attribute: e.attribute, proficiency: e.proficiency, weapon: e.weapon ?? striker.weapon };
  if (!completesNow(ctx, KILLING_STRIKE_COST)) {
    const x: Extended = { kind: 'killingStrike', name: 'Killing strike', cost: KILLING_STRIKE_COST, paid: ctx.turn!.actionsLeft, detail: detail as unknown as Record<string, unknown> };
    return spend(update(ctx, id, { inProgress: x }), ctx.turn!.actionsLeft);
  }
  return completeStrike(spend(ctx, KILLING_STRIKE_COST), id, detail, e);
}
