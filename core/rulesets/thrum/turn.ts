// Thrum's turn as pure functions (RULES.md §5.2 rule 4, R-H7, R-H9): the start of a turn and its Panic Roll, the
// end-of-turn upkeep and Wounds, settling an action, and the end of combat.
import type { Stage } from './combat.ts';
import { floor } from './health.ts';
import { activeId, endCondition, freshTurn, inFight, isExhausted, isFrayed, push, removeCombatant, type ThrumCombatant, type ThrumContext } from './rules.ts';
import { rulingsOf } from './options.ts';
import { update } from '../../encounter/roster.ts';
import { eachCombatant } from '../../encounter/combatant-table.ts';

// ---- the turn (§5.2 rule 4) ----

/** Start of turn: a Frayed combatant owes a Panic Roll (R-H4: incapacitated ones too). */
export function beginTurn(ctx: ThrumContext, stage: Stage): ThrumContext {
  const next = { ...ctx, turn: freshTurn(), action: null };
  const id = activeId(next);
  if (stage !== 'rounds' || id === null) return next;
  const c = next.combatants[id]!;
  return isFrayed(c) ? push(next, { kind: 'roll', roll: 'panic', id, reason: 'startOfTurn' }) : next;
}

/**
 * End of turn (R-H7): end-of-turn effects (the GM's, before this) → statuses that count down lose a stack →
 * incapacitated upkeep (Fatigue Tolerance and Load −1; Load 0 ends it) → a Wound if still Incapacitated at Fatigue
 * Tolerance 0 (or the wound check before the −1, by option) → three Wounds remove the combatant. Then the next slot.
 */
export function endTurn(ctx: ThrumContext, stage: Stage): ThrumContext {
  const id = activeId(ctx);
  if (id === null) return ctx;
  let next = ctx;
  if (stage === 'rounds') {
    const c = next.combatants[id]!;
    const statuses: ThrumCombatant['statuses'] = {};
    for (const [name, status] of Object.entries(c.statuses)) {
      const stacks = status.ticks ? status.stacks - 1 : status.stacks;
      if (stacks > 0) statuses[name] = { ...status, stacks };
    }
    next = update(next, id, { statuses });
    next = incapacitatedUpkeep(next, id);
  }
  const after = next.combatants[id]!;
  if (after.wounds >= 3 && after.removed === null) {
    next = removeCombatant(next, id, 'three Wounds', 'wounds');
    return { ...next, turn: freshTurn() };
  }
  return { ...next, cursor: next.cursor + 1, turn: freshTurn() };
}

function incapacitatedUpkeep(ctx: ThrumContext, id: string): ThrumContext {
  let c = ctx.combatants[id]!;
  if (!c.incapacitated) return ctx;
  const woundBefore = rulingsOf(ctx.options).woundCheckOrder === 'beforeDecrement';
  let wounds = c.wounds;
  let woundsHere = c.woundsHere;
  const wound = () => {
    wounds += 1;
    woundsHere = [...woundsHere, { n: wounds, round: ctx.round }];
  };
  if (woundBefore && c.fatigueTolerance === 0) wound();
  const fatigueTolerance = floor(c.fatigueTolerance - 1);
  const fatigueLoad = floor(c.fatigueLoad - 1);
  const incapacitated = fatigueLoad > 0;
  if (!woundBefore && incapacitated && fatigueTolerance === 0) wound();
  c = { ...c, fatigueTolerance, fatigueLoad, incapacitated, wounds, woundsHere };
  return update(ctx, id, c);
}

/**
 * Nothing is pending: the action being resolved is over. An Exhausted actor makes its Incapacity Roll now unless the
 * action removes Exhaustion (§5.5) — also after the action that ends the fight: Exhausted characters "must make an
 * Incapacity Roll after they take an Action", and a failure's lower Fatigue Tolerance is carried. The end check
 * (combatOver) waits until the roll is answered.
 */
export function settle(ctx: ThrumContext): ThrumContext {
  if (ctx.stack.length > 0 || ctx.action === null) return ctx;
  const { actorId, removesExhaustion } = ctx.action;
  const next = { ...ctx, action: null };
  const actor = next.combatants[actorId];
  if (inFight(actor) && !actor.incapacitated && isExhausted(actor) && !removesExhaustion) {
    return push(next, { kind: 'roll', roll: 'incapacity', id: actorId, reason: 'afterAction' });
  }
  return next;
}

export const combatOver = (ctx: ThrumContext): boolean => ctx.stack.length === 0 && ctx.action === null && endCondition(ctx) !== null;

/** End of combat (§5.6, R-H9): loads to 0; incapacitated PCs recover unless Fatigue Tolerance is 0; buffs, stances, terrain effects end. */
export function closeCombat(ctx: ThrumContext, outcome: string): ThrumContext {
  const staysOut = rulingsOf(ctx.options).zeroToleranceStaysOut;
  const combatants = eachCombatant(ctx.combatants, (c) => {
    const incapacitated = c.incapacitated && staysOut && c.fatigueTolerance === 0;
    return { ...c, fatigueLoad: 0, stressLoad: 0, incapacitated, stance: null, buff: null, terrainEffect: null, statuses: {} };
  });
  // The combatants as the last event left them, before the reset: that event's own log line reports them.
  return { ...ctx, combatants, closedFrom: ctx.combatants, stack: [], action: null, outcome };
}
