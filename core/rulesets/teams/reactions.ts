// The reaction economy (R-T5, R-T6, R-T14): who may react now, what it costs, and a reaction test's outcome.
import type { CombatEvent } from './combat-events.ts';
import { luckBonus, luckOf, reactionSpec, testResult, type TestResult, type TestSpec } from './skill-tests.ts';
import { REACTION_COST } from './turn-budget.ts';
import { inFight, isSurprised, type TeamsCombatant, type TeamsContext } from './rules.ts';
import { rulingsOf } from './options.ts';
import { update } from '../../encounter/roster.ts';

/** Which reaction the combatant can use now: its normal one, Wait's extra one, or none. */
export function reactionAvailable(ctx: TeamsContext, c: TeamsCombatant): 'normal' | 'extra' | null {
  if (!inFight(c) || !c.conscious) return null;
  if (isSurprised(ctx, c) && rulingsOf(ctx.options).surprisedCannotReact) return null; // R-T5
  const cap = rulingsOf(ctx.options).reactionCap;
  const normal = cap === 'perTurnRefresh' ? !c.reactionSpent : cap === 'strictPerRound' ? !c.reactionUsedRound : !c.reactionSpent && !c.reactionUsedRound;
  if (normal) return 'normal';
  return c.waitExtra ? 'extra' : null;
}

export function reactionRefusal(ctx: TeamsContext, c: TeamsCombatant, resource: 'stamina' | 'focus', free = false): string | null {
  if (c.dead || c.removed) return `${c.name} is not in the fight.`;
  if (!c.conscious) return `${c.name} is unconscious and cannot react.`;
  if (!free && reactionAvailable(ctx, c) === null) {
    if (isSurprised(ctx, c) && rulingsOf(ctx.options).surprisedCannotReact) return `${c.name} is surprised and cannot react until the surprise round ends (R-T5).`;
    return `${c.name} has no reaction left: one a round, refreshed at the start of their turn (R-T6).`;
  }
  const pays = !free || rulingsOf(ctx.options).freeReactionsPayResources;
  if (pays && c[resource] < REACTION_COST) return `${c.name} has no ${resource} left to react.`;
  return null;
}

/** Spends the reaction (the normal one first, then Wait's extra one) and its 1 stamina or focus (none for a readied action). */
export function payReaction(ctx: TeamsContext, id: string, resource: 'stamina' | 'focus' | null, free = false): TeamsContext {
  const c = ctx.combatants[id]!;
  const pays = resource !== null && (!free || rulingsOf(ctx.options).freeReactionsPayResources);
  const change: Partial<TeamsCombatant> = pays ? { [resource]: c[resource] - REACTION_COST } : {};
  if (!free) {
    if (reactionAvailable(ctx, c) === 'normal') Object.assign(change, { reactionSpent: true, reactionUsedRound: true });
    else Object.assign(change, { waitExtra: false });
  }
  return update(ctx, id, change);
}

/** R-T18: the dodge test must reach the attack's total (meet-or-beat by default). */
export const dodgeBeats = (ctx: TeamsContext, dodge: number, attack: number) => (rulingsOf(ctx.options).dodgeTarget === 'beat' ? dodge > attack : dodge >= attack);

/** A reaction test's total against its difficulty (meet-or-beat), with +4 on a luck roll of 20 or more. */
export function reactionTestOutcome(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'REACTION_TEST' }>): { spec: TestSpec; test: TestResult; luck: number; total: number; success: boolean } {
  const c = ctx.combatants[e.reactorId]!;
  const spec = reactionSpec(c, e.reaction, e)!;
  const test = testResult(spec, e.testRoll!);
  const luck = luckOf(e.luckRoll!);
  const total = test.total + luckBonus(luck);
  return { spec, test, luck, total, success: total >= e.difficulty };
}
