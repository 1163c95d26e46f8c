// Teams' combat as pure functions (RULES.md §2.3–§2.5), one concern a file, read top-down: the events
// (combat-events.ts), the turn's budget (turn-budget.ts), tests and the luck die (skill-tests.ts), reactions
// (reactions.ts), damage and health (health.ts), the defence window (defence.ts), the attack pipeline (attacks.ts),
// the killing strike (killing-strike.ts) and actions (actions.ts). This file answers the two questions the machine
// asks of every combat event, whether the rules refuse it and what it changes, and GM overrides.
import { lastAnswer } from '../../encounter/last-answer.ts';
import type { CombatEvent } from './combat-events.ts';
import { luckProblem, reactionSpec, testProblem } from './skill-tests.ts';
import { turnGate } from './turn-budget.ts';
import { payReaction, reactionAvailable, reactionRefusal } from './reactions.ts';
import { answerConsciousness, answerDeath, externalDamage, fallUnconscious, heal, healRefusal, killed, setItem, takeDamage } from './health.ts';
import { answerDefence, defenceRefusal } from './defence.ts';
import { applyAttack, attackRefusal } from './attacks.ts';
import { applyStrike, strikeRefusal } from './killing-strike.ts';
import { actionRefusal, applyAction, applyExtended, extendedRefusal } from './actions.ts';
import { ACTIONS_PER_TURN, inFight, type Roll, type TeamsContext } from './rules.ts';
import { nameOf, update } from '../../encounter/roster.ts';
import { rulingsOf } from './options.ts';
import { eachCombatant } from '../../encounter/combatant-table.ts';

export type { Roll };
export * from './combat-events.ts';
export * from './turn-budget.ts';
export * from './skill-tests.ts';
export * from './reactions.ts';
export * from './health.ts';
export * from './defence.ts';
export * from './attacks.ts';
export * from './killing-strike.ts';
export * from './actions.ts';

function overrideRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): string | null {
  const c = ctx.combatants[e.targetId];
  if (!c || c.removed) return 'That combatant is not in the fight.';
  if (e.field === 'actionsLeft' && ctx.activeId !== c.id) return `${c.name} is not acting now.`;
  if (e.field === 'actionsLeft' && e.value > ACTIONS_PER_TURN) return `A turn has at most ${ACTIONS_PER_TURN} actions.`;
  if (['conscious', 'dead', 'prone', 'reaction'].includes(e.field) && e.value > 1) return 'Use 1 for yes and 0 for no.';
  if (e.field === 'shieldDurability' && !c.items.shield) return `${c.name} wields no shield.`;
  if (e.field === 'conscious' && e.value === 1 && c.dead) return `${c.name} is dead: override death first.`;
  return null;
}

/** Why the rules refuse a combat event now, or null; asked several times per event (core/encounter/last-answer.ts). */
export const combatRefusal = lastAnswer((ctx: TeamsContext, e: CombatEvent): string | null => refusalNow(ctx, e));

function refusalNow(ctx: TeamsContext, e: CombatEvent): string | null {
  const head = ctx.pending[0];
  const answers = { defence: 'DEFEND', consciousness: 'CONSCIOUSNESS', death: 'LUCK_TEST' } as const;
  if (head && e.type !== 'OVERRIDE' && e.type !== answers[head.kind]) return pendingSentence(ctx);
  if (!head && (e.type === 'DEFEND' || e.type === 'CONSCIOUSNESS' || e.type === 'LUCK_TEST')) return 'Nothing is waiting for that answer.';
  switch (e.type) {
    case 'ATTACK':
      return attackRefusal(ctx, e);
    case 'ACTION':
      return actionRefusal(ctx, e);
    case 'KILLING_STRIKE':
      return strikeRefusal(ctx, e);
    case 'FREE_ACTION': {
      const gate = turnGate(ctx, 'A free action');
      if (gate) return gate;
      const actor = ctx.combatants[ctx.activeId!]!;
      if (e.kind === 'step') {
        if (ctx.turn!.stepped) return `${actor.name} has already taken a Step this turn.`;
        if (ctx.turn!.moved && rulingsOf(ctx.options).stepExcludesMove) return `${actor.name} has moved this turn: a Step is instead of a Move (R-T8).`;
      }
      if (e.kind === 'dropProne' && actor.prone) return `${actor.name} is already prone.`;
      if (e.kind === 'dropItem' && e.item) {
        const item = actor.items[e.item];
        if (!item) return `${actor.name} has no shield.`;
        if (!actor.held[e.item]) return `${actor.name} is not holding ${item.name}.`;
      }
      return null;
    }
    case 'FIRE_READIED': {
      const c = ctx.combatants[e.combatantId];
      if (!c || !inFight(c)) return 'That combatant is not in the fight.';
      if (!c.readied) return `${c.name} has no readied action.`;
      if (rulingsOf(ctx.options).readyUsesReaction && reactionAvailable(ctx, c) === null) return `${c.name}'s readied action cannot fire: no reaction is left (R-T7).`;
      return c.conscious ? null : `${c.name} is unconscious.`;
    }
    case 'EXTENDED':
      return extendedRefusal(ctx, e);
    case 'OPENING_ATTACK':
      return ctx.turn?.openingAttack ? null : 'No opening attack is waiting.';
    case 'DEFEND':
      if (head!.kind !== 'defence') return pendingSentence(ctx);
      return defenceRefusal(ctx, head!.attack, e);
    case 'REACTION_TEST': {
      const c = ctx.combatants[e.reactorId];
      if (!c) return 'That combatant is not in the fight.';
      const problem = reactionRefusal(ctx, c, e.reaction === 'resist' ? 'focus' : 'stamina');
      if (problem) return problem;
      const spec = reactionSpec(c, e.reaction, e);
      if (!spec) return 'Say which dice the Resist test rolls.';
      return testProblem(spec, e.testRoll, c.name) ?? luckProblem(c, e.luckRoll);
    }
    case 'CONSCIOUSNESS': {
      if (head!.kind !== 'consciousness') return pendingSentence(ctx);
      if (e.decision === 'unconscious') return null;
      const c = ctx.combatants[head!.id]!;
      return testProblem(reactionSpec(c, 'fortify')!, e.testRoll, c.name) ?? luckProblem(c, e.luckRoll);
    }
    case 'LUCK_TEST':
      if (head!.kind !== 'death') return pendingSentence(ctx);
      return luckProblem(ctx.combatants[head!.id]!, e.luckRoll);
    case 'APPLY_DAMAGE': {
      const target = ctx.combatants[e.targetId];
      return target && inFight(target) ? null : 'That combatant is not in the fight.';
    }
    case 'HEAL':
      return healRefusal(ctx, e);
    case 'OVERRIDE':
      return overrideRefusal(ctx, e);
  }
}

/** The sentence for whatever blocks play now. */
export function pendingSentence(ctx: TeamsContext): string {
  const head = ctx.pending[0];
  if (!head) return '';
  if (head.kind === 'defence') return `${nameOf(ctx, head.attack.targetId)} is hit: choose a defence (or none) first.`;
  if (head.kind === 'consciousness') return `${nameOf(ctx, head.id)} must Fortify or fall unconscious first.`;
  return `${nameOf(ctx, head.id)} risks death: make the luck test first.`;
}

// ---- reducers: the new context after an accepted event ----

function applyOverride(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): TeamsContext {
  const c = ctx.combatants[e.targetId]!;
  // An override is the way out of a blocking decision about this combatant (RULES.md §6.8).
  const next = { ...ctx, pending: ctx.pending.filter((p) => (p.kind === 'defence' ? p.attack.targetId !== c.id : p.id !== c.id)) };
  const clamp = (value: number, max: number) => Math.max(0, Math.min(max, value));
  switch (e.field) {
    case 'endurance': return update(next, c.id, { endurance: clamp(e.value, c.enduranceMax) });
    case 'health': {
      const health = clamp(e.value, c.healthMax);
      return update(next, c.id, { health, nonlethalZeroed: health === 0 && c.nonlethalZeroed, ...(health === 0 ? { conscious: false } : {}) });
    }
    case 'stamina': return update(next, c.id, { stamina: clamp(e.value, c.staminaMax) });
    case 'focus': return update(next, c.id, { focus: clamp(e.value, c.focusMax) });
    case 'actionsLeft': return { ...next, turn: { ...next.turn!, actionsLeft: e.value } };
    case 'cheatDeathDifficulty': return update(next, c.id, { cheatDeathDifficulty: Math.max(1, e.value) });
    case 'weaponDurability': return setItem(next, c.id, 'weapon', { durability: clamp(e.value, c.items.weapon.durabilityMax) });
    case 'shieldDurability': return setItem(next, c.id, 'shield', { durability: clamp(e.value, c.items.shield!.durabilityMax) });
    case 'conscious': return e.value === 1 ? update(next, c.id, { conscious: true }) : fallUnconscious(next, c.id);
    case 'dead': return e.value === 1 ? killed(next, c.id, 'GM override') : update(next, c.id, { dead: false, deathCause: null });
    case 'prone': return update(next, c.id, { prone: e.value === 1 });
    case 'reaction': return update(next, c.id, e.value === 1 ? { reactionSpent: false, reactionUsedRound: false } : { reactionSpent: true, reactionUsedRound: true });
  }
}

export function applyCombat(ctx: TeamsContext, e: CombatEvent): TeamsContext {
  switch (e.type) {
    case 'ATTACK':
      return applyAttack(ctx, e);
    case 'ACTION':
      return applyAction(ctx, e);
    case 'KILLING_STRIKE':
      return applyStrike(ctx, e);
    case 'FREE_ACTION': {
      const id = ctx.activeId!;
      if (e.kind === 'step') return { ...ctx, turn: { ...ctx.turn!, stepped: true } };
      if (e.kind === 'dropProne') return update(ctx, id, { prone: true });
      if (e.item) return update(ctx, id, { held: { ...ctx.combatants[id]!.held, [e.item]: false } });
      return ctx;
    }
    case 'FIRE_READIED': {
      const next = rulingsOf(ctx.options).readyUsesReaction ? payReaction(ctx, e.combatantId, null) : ctx; // R-T7
      return update(next, e.combatantId, { readied: null });
    }
    case 'EXTENDED':
      return applyExtended(ctx, e);
    case 'OPENING_ATTACK':
      return { ...ctx, turn: { ...ctx.turn!, openingAttack: false } };
    case 'DEFEND':
      return answerDefence(ctx, e);
    case 'REACTION_TEST':
      return payReaction(ctx, e.reactorId, e.reaction === 'resist' ? 'focus' : 'stamina');
    case 'CONSCIOUSNESS':
      return answerConsciousness(ctx, e);
    case 'LUCK_TEST':
      return answerDeath(ctx, e);
    case 'APPLY_DAMAGE':
      return takeDamage(ctx, e.targetId, externalDamage(ctx, e).taken, { nonlethal: Boolean(e.nonlethal), source: e.source || 'damage' });
    case 'HEAL':
      return heal(ctx, e);
    case 'OVERRIDE':
      return applyOverride(ctx, e);
  }
}

/** The active combatant is down or gone: its turn ends at once and counts as taken (R-T3). */
export function activeIsDown(ctx: TeamsContext): boolean {
  const c = ctx.combatants[ctx.activeId ?? ''];
  return ctx.activeId !== null && (!c || !inFight(c) || !c.conscious);
}

/** End of combat: "until next turn" effects, readied and extended actions lapse. */
export function closeCombat(ctx: TeamsContext): TeamsContext {
  const combatants = eachCombatant(ctx.combatants, (c) => ({ ...c, guarding: false, inCover: false, waitExtra: false, readied: null, inProgress: null }));
  return { ...ctx, combatants, activeId: null, turn: null };
}
