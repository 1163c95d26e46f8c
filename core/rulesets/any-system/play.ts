// Every "Any system" event's check and change in one place: `refusal` is what the machine's guards and the runner's
// sentences both ask, `reduce` what its actions apply, so a stored event the rules refuse never changes a replay.
// The roster events shared by every ruleset (adding, removing, late arrivals, the end) are checked here too and
// applied by the shared roster actions (core/encounter/roster-machine.ts).
import { checkAdd, checkRemove, nameOf } from '../../encounter/roster.ts';
import type { AnyEvent } from './events.ts';
import * as health from './health.ts';
import * as order from './order.ts';
import { activeId, dieSides, initiativeTotal, typedInitiative, type AnyContext } from './rules.ts';
import { withCombatant } from '../../encounter/combatant-table.ts';

/** The events the GM may send whatever the turn (not only the active combatant's). */
export const ANYTIME = ['APPLY_DAMAGE', 'HEAL', 'SET_TEMP_HP', 'SET_HP', 'USE_REACTION', 'USE_READY', 'CONCENTRATE', 'CONCENTRATION_CHECK', 'INJURY', 'RESUME'] as const;

/** A question waits: a dying combatant's death save (R-A7). */
export const blocked = (ctx: AnyContext): boolean => ctx.pendingSave !== null;

function lateRefusal(ctx: AnyContext, event: Extract<AnyEvent, { type: 'ADD_LATE_COMBATANT' }>): string | null {
  if (ctx.stage === 'setup') return 'Before the start, add combatants to the encounter instead.';
  if (ctx.pendingSave) return `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.`;
  const problem = checkAdd(order.ROSTER, ctx, [event.combatant]);
  if (problem) return problem;
  const sides = dieSides(ctx.options);
  const face = event.roll?.faces[0];
  if (face !== undefined && face > sides) return `A d${sides} shows 1 to ${sides}: ${face} is not one of its faces.`;
  return null;
}

/** A late arrival joins with its initiative (typed, or rolled as it enters) and takes its place in the order. */
export function addLate(ctx: AnyContext, event: Extract<AnyEvent, { type: 'ADD_LATE_COMBATANT' }>): AnyContext {
  const joined = { ...ctx, roster: [...ctx.roster, event.combatant.id], combatants: { ...ctx.combatants, [event.combatant.id]: order.combatantFromSeed(event.combatant) } };
  const c = joined.combatants[event.combatant.id]!;
  if (event.initiative !== undefined) return order.setInitiative(joined, c.id, { total: event.initiative, face: null });
  if (typedInitiative(ctx.options) && !event.roll) {
    // No total typed: it acts last, until the GM types one.
    return ctx.stage === 'running' ? { ...joined, order: [...joined.order, c.id] } : joined;
  }
  const face = event.roll?.faces[0] ?? 1;
  return order.setInitiative(joined, c.id, { total: initiativeTotal(face, c.initiativeModifier), face });
}

export function refusal(ctx: AnyContext, event: AnyEvent): string | null {
  if (ctx.stage === 'ended') return 'This encounter has ended.';
  switch (event.type) {
    case 'ADD_COMBATANTS': return ctx.stage === 'setup' ? checkAdd(order.ROSTER, ctx, event.combatants) : 'The fight has started: add newcomers as late arrivals.';
    case 'ADD_FIXED': return ctx.stage === 'running' && ctx.pendingSave ? `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.` : order.checkFixed(ctx, event);
    case 'REMOVE_COMBATANT':
      if (ctx.stage !== 'setup' && ctx.pendingSave) return `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.`;
      return checkRemove(order.ROSTER, ctx, event.combatantId);
    case 'START': return ctx.stage === 'setup' ? order.checkStart(ctx) : 'The encounter has already started.';
    case 'ADD_LATE_COMBATANT': return lateRefusal(ctx, event);
    case 'END_COMBAT': return ctx.stage !== 'setup' && ctx.pendingSave ? `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.` : null;
    case 'ROLL_INITIATIVE': return order.checkRoll(ctx, event.combatantId, event.roll);
    case 'ROLL_ALL_INITIATIVE': return order.checkRollAll(ctx, event.rolls);
    case 'SET_INITIATIVE': return order.checkSetInitiative(ctx, event.combatantId);
    case 'REORDER': return order.checkReorder(ctx, event.combatantId, event.beforeId);
    case 'START_COMBAT': return order.checkStartCombat(ctx, event.missingLast === true);
    case 'END_TURN': return order.checkNextTurn(ctx);
    case 'DELAY': return order.checkDelay(ctx, event.combatantId);
    case 'RESUME': return ctx.pendingSave ? `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.` : order.checkResume(ctx, event.combatantId);
    case 'READY': return ctx.pendingSave ? `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.` : order.checkReady(ctx, event.combatantId);
    case 'USE_READY': return order.checkReaction(ctx, event.combatantId, true);
    case 'USE_REACTION': return order.checkReaction(ctx, event.combatantId, false);
    case 'APPLY_DAMAGE': return health.checkDamage(ctx, event);
    case 'HEAL': return health.checkHeal(ctx, event);
    case 'SET_TEMP_HP': return health.checkTempHp(ctx, event);
    case 'SET_HP': return health.checkSetHp(ctx, event);
    case 'DEATH_SAVE': return health.checkDeathSave(ctx, event.combatantId, event.roll);
    case 'CONCENTRATE': return health.checkConcentrate(ctx, event);
    case 'CONCENTRATION_CHECK': return health.checkConcentrationCheck(ctx, event.combatantId);
    case 'INJURY': return health.checkInjury(ctx, event);
  }
}

/** The change an accepted event makes (the roster's own events are applied by the shared roster actions). */
export function reduce(ctx: AnyContext, event: AnyEvent): AnyContext {
  switch (event.type) {
    case 'ADD_FIXED': return order.addFixed(ctx, event);
    case 'START': return { ...ctx, stage: 'initiative' };
    case 'ROLL_INITIATIVE': return order.rollInitiative(ctx, event.combatantId, event.roll);
    case 'ROLL_ALL_INITIATIVE': return order.rollAll(ctx, event.rolls);
    case 'SET_INITIATIVE': return order.setInitiative(ctx, event.combatantId, { total: event.total, face: null });
    case 'REORDER': return order.reorder(ctx, event.combatantId, event.beforeId);
    case 'START_COMBAT': return order.startCombat(ctx);
    case 'END_TURN': return order.nextTurn(ctx);
    case 'DELAY': return order.delay(ctx, event.combatantId);
    case 'RESUME': return order.resume(ctx, event.combatantId);
    case 'READY': return { ...ctx, combatants: withCombatant(ctx.combatants, event.combatantId, { ...ctx.combatants[event.combatantId]!, ready: event.trigger.trim() }) };
    case 'USE_READY': return order.useReaction(ctx, event.combatantId, true);
    case 'USE_REACTION': return order.useReaction(ctx, event.combatantId, false);
    case 'APPLY_DAMAGE': return health.damage(ctx, event);
    case 'HEAL': return health.healing(ctx, event);
    case 'SET_TEMP_HP': return health.tempHp(ctx, event);
    case 'SET_HP': return health.setHp(ctx, event);
    case 'DEATH_SAVE': return health.deathSaveRolled(ctx, event.combatantId, event.roll);
    case 'CONCENTRATE': return health.concentrate(ctx, event);
    case 'CONCENTRATION_CHECK': return health.concentrationChecked(ctx, event.combatantId, event.passed);
    case 'INJURY': return health.injure(ctx, event);
    default: return ctx;
  }
}

export { activeId };
