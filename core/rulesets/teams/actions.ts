// Actions from the action table (§2.3): what refuses them, what they do, Command (R-T9) and extended actions (R-T10).
import { plural, update } from '../../encounter/roster.ts';
import type { ActionKind, CombatEvent, HoldChoice } from './combat-events.ts';
import { gmTestSpec, luckBonus, luckOf, luckProblem, testProblem, testResult, type TestSpec } from './skill-tests.ts';
import { ACTION_LABELS, COMMANDABLE, COMMAND_FOCUS, EXTENDABLE, SPRINT_STAMINA, completesNow, continuationCompletes, costOfAction, needsActions, openingGate, spend, surprisedCommandRefusal, turnGate } from './turn-budget.ts';
import { missingHealth } from './health.ts';
import { completeStrike, strikeRollsRefusal, type StrikeDetail } from './killing-strike.ts';
import { endTurn, inFight, isSurprised, type Extended, type ItemSlot, type Roll, type TeamsCombatant, type TeamsContext } from './rules.ts';
import { rulingsOf } from './options.ts';

// ---- completing actions ----

function completeAction(ctx: TeamsContext, actorId: string, x: Extended, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }): TeamsContext {
  switch (x.kind) {
    case 'resuscitate': {
      const total = actionTestTotal(x, rolls);
      const targetId = String(x.detail['targetId']);
      return total !== null && total >= Number(x.detail['difficulty']) && inFight(ctx.combatants[targetId]) ? update(ctx, targetId, { conscious: true }) : ctx;
    }
    case 'killingStrike':
      return completeStrike(ctx, actorId, x.detail as unknown as StrikeDetail, rolls);
    default:
      return ctx;
  }
}

/** Resuscitate and Short Task: the GM's dice + bonus, +4 on a luck roll of 20 or more. */
export function actionTestTotal(x: Extended, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null }): number | null {
  const spec = extendedSpec(x);
  if (!spec || !rolls.testRoll || !rolls.luckRoll) return null;
  return testResult(spec, rolls.testRoll).total + luckBonus(luckOf(rolls.luckRoll));
}

/** The test an extended Resuscitate or Short Task rolls when it completes. */
export const extendedSpec = (x: Extended): TestSpec | null =>
  gmTestSpec(x.name, { dice: x.detail['dice'] as number[] | undefined, bonus: x.detail['bonus'] as number | undefined });

/** The action's difficulty: Resuscitate suggests the target's missing health unless the GM sets it (R-T13). */
export function actionDifficulty(ctx: TeamsContext, e: { kind: ActionKind; targetId?: string | null; difficulty?: number | null }): number | null {
  if (e.difficulty !== undefined && e.difficulty !== null) return e.difficulty;
  if (e.kind === 'resuscitate' && rulingsOf(ctx.options).resuscitateDifficulty !== 'gmSets' && e.targetId && ctx.combatants[e.targetId]) {
    return Math.max(1, missingHealth(ctx.combatants[e.targetId]!));
  }
  return null;
}

function extendedFrom(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ACTION' }>): Extended {
  const kind = e.kind === 'resuscitate' || e.kind === 'shortTask' ? e.kind : 'other';
  return {
    kind,
    name: e.name?.trim() || ACTION_LABELS[e.kind],
    cost: costOfAction(e),
    paid: 0,
    detail: { targetId: e.targetId ?? null, difficulty: actionDifficulty(ctx, e), dice: e.dice ?? null, bonus: e.bonus ?? 0 },
  };
}

export function actionRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ACTION' }>): string | null {
  const label = ACTION_LABELS[e.kind];
  const gate = turnGate(ctx, label) ?? openingGate(ctx);
  if (gate) return gate;
  const active = ctx.combatants[ctx.activeId!]!;
  const actorId = e.actorId ?? active.id;
  const actor = ctx.combatants[actorId];
  if (!actor || !inFight(actor)) return 'That combatant is not in the fight.';
  if (!actor.conscious) return `${actor.name} is unconscious.`;
  const cost = costOfAction(e);
  if (e.kind === 'other' && !e.name?.trim()) return 'Name the action (for example "Reload").';
  if (actorId !== active.id) {
    // R-T9: an ally acting on a Command takes one single action and spends none of its own.
    if (!ctx.turn!.commandTokens.includes(actorId)) return `It is not ${actor.name}'s turn: only a Command lets them act now.`;
    if (isSurprised(ctx, actor)) return surprisedCommandRefusal(actor); // source: "only their team may take actions"
    if (!COMMANDABLE.includes(e.kind) || cost !== 1) return `A Command gives ${actor.name} one single action: ${label} is not one.`;
    // A commanded Move is the ally's Move for this turn (§2.3: once per turn); Sprint would need a Move first.
    const moved = ctx.turn!.alliesMoved.includes(actorId);
    if (e.kind === 'move' && moved) return `${actor.name} has already moved this turn: Move is once per turn.`;
    if (e.kind === 'sprint') {
      if (!moved) return `${actor.name} has not moved this turn: Sprint needs a Move first, and a Command gives one action.`;
      if (actor.stamina < SPRINT_STAMINA) return `${actor.name} has no stamina left to Sprint.`;
    }
    if (e.kind === 'standUp' && !actor.prone) return `${actor.name} is not prone.`;
    if (e.kind === 'brandish') return holdRefusal(actor, e.hold);
    return null;
  }
  if (ctx.turn!.actionsLeft === 0) return `${actor.name} has no actions left this turn.`;
  if (cost > ctx.turn!.actionsLeft && !EXTENDABLE.includes(e.kind)) return needsActions(ctx, actor.name, cost);
  if (cost > ctx.turn!.actionsLeft && actor.inProgress) return `${actor.name} is already in the middle of ${actor.inProgress.name}.`;
  const stepRule = rulingsOf(ctx.options).stepExcludesMove;
  switch (e.kind) {
    case 'move':
      if (ctx.turn!.moved) return `${actor.name} has already moved this turn: Sprint for another move (1 stamina).`;
      if (stepRule && ctx.turn!.stepped) return `${actor.name} took a Step instead of a Move this turn (R-T8).`;
      return null;
    case 'sprint':
      if (!ctx.turn!.moved && !(ctx.turn!.stepped && !stepRule)) return `${actor.name} must Move before Sprinting${stepRule && ctx.turn!.stepped ? ': a Step does not count (R-T8)' : ''}.`;
      if (actor.stamina < SPRINT_STAMINA) return `${actor.name} has no stamina left to Sprint.`;
      return null;
    case 'standUp':
      return actor.prone ? null : `${actor.name} is not prone.`;
    case 'brandish':
      return holdRefusal(actor, e.hold);
    case 'ready':
      if (!e.trigger?.trim() || !e.readied?.trim()) return 'Ready an Action needs a trigger and the action it fires.';
      return null;
    case 'command': {
      const ally = ctx.combatants[e.targetId ?? ''];
      if (!ally || !inFight(ally)) return 'Choose an ally in the fight to command.';
      if (ally.id === actor.id) return `${actor.name} cannot command themself.`;
      if (ally.team !== actor.team) return `${ally.name} is not on ${actor.name}'s team.`;
      if (!ally.conscious) return `${ally.name} is unconscious and cannot be commanded (R-T9).`;
      if (isSurprised(ctx, ally)) return surprisedCommandRefusal(ally); // source: "only their team may take actions"
      if (ctx.turn!.commanded.includes(ally.id)) return `${actor.name} has already commanded ${ally.name} this turn: once per target.`;
      if (actor.focus < COMMAND_FOCUS) return `${actor.name} needs 2 focus to Command; ${plural(actor.focus, 'focus')} left.`.replace('focuss', 'focus');
      return null;
    }
    case 'resuscitate': {
      const target = ctx.combatants[e.targetId ?? ''];
      if (!target || !inFight(target)) return 'Choose someone in the fight to resuscitate.';
      if (target.conscious) return `${target.name} is conscious.`;
      if (actionDifficulty(ctx, e) === null) return 'Set the Resuscitate difficulty (R-T13).';
      return completionRefusal(ctx, actor, e, cost);
    }
    case 'shortTask':
      if (e.difficulty === undefined || e.difficulty === null) return 'Set the Short Task difficulty.';
      return completionRefusal(ctx, actor, e, cost);
    default:
      return null;
  }
}

/** Brandish: only items the combatant has can be held; without `hold` it is about items the app does not track. */
function holdRefusal(actor: TeamsCombatant, hold: HoldChoice | null | undefined): string | null {
  if (!hold) return null;
  if ((hold === 'shield' || hold === 'weaponAndShield') && !actor.items.shield) return `${actor.name} has no shield to hold.`;
  return null;
}

/** The hands after a Brandish. */
export const heldAfter = (hold: HoldChoice): Record<ItemSlot, boolean> => ({
  weapon: hold === 'weapon' || hold === 'weaponAndShield',
  shield: hold === 'shield' || hold === 'weaponAndShield',
});

function completionRefusal(ctx: TeamsContext, actor: TeamsCombatant, e: Extract<CombatEvent, { type: 'ACTION' }>, cost: number): string | null {
  const spec = gmTestSpec(ACTION_LABELS[e.kind], e);
  if (!spec) return `Say which dice the ${ACTION_LABELS[e.kind]} test rolls.`;
  if (!completesNow(ctx, cost)) return null; // started now, tested when the last action is paid
  return testProblem(spec, e.testRoll, actor.name) ?? luckProblem(actor, e.luckRoll);
}

export function extendedRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'EXTENDED' }>): string | null {
  const active = ctx.combatants[ctx.activeId ?? ''];
  if (!active || !ctx.turn) return 'Extended actions are continued or abandoned on their owner\'s turn.';
  const x = active.inProgress;
  if (!x) return `${active.name} has no extended action in progress.`;
  if (e.decision === 'abandon') return null;
  if (ctx.turn.extendedDecided) return `${active.name} has already continued ${x.name} this turn.`;
  if (!continuationCompletes(ctx)) return null;
  if (x.kind === 'killingStrike') return strikeRollsRefusal(ctx, active, x.detail as unknown as StrikeDetail, e);
  if (x.kind === 'resuscitate' || x.kind === 'shortTask') {
    return testProblem(extendedSpec(x)!, e.testRoll, active.name) ?? luckProblem(active, e.luckRoll);
  }
  return null;
}

export function applyAction(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ACTION' }>): TeamsContext {
  const active = ctx.activeId!;
  const actorId = e.actorId ?? active;
  if (actorId !== active) {
    const next = { ...ctx, turn: { ...ctx.turn!, commandTokens: ctx.turn!.commandTokens.filter((id) => id !== actorId) } };
    const ally = ctx.combatants[actorId]!;
    if (e.kind === 'move') return { ...next, turn: { ...next.turn, alliesMoved: [...next.turn.alliesMoved, actorId] } };
    if (e.kind === 'sprint') return update(next, actorId, { stamina: ally.stamina - SPRINT_STAMINA });
    if (e.kind === 'brandish' && e.hold) return update(next, actorId, { held: heldAfter(e.hold) });
    if (e.kind === 'standUp') return update(next, actorId, { prone: false });
    if (e.kind === 'seekCover') return update(next, actorId, { inCover: true });
    return next;
  }
  const cost = costOfAction(e);
  const actor = ctx.combatants[active]!;
  if (cost > ctx.turn!.actionsLeft) {
    // R-T10: started now with the actions left; the effect waits for the last action on a later turn.
    const x = extendedFrom(ctx, e);
    const started = update(ctx, active, { inProgress: { ...x, paid: ctx.turn!.actionsLeft }, ...(e.kind === 'resuscitate' ? { prone: true } : {}) });
    return spend(started, ctx.turn!.actionsLeft);
  }
  let next = spend(ctx, cost);
  switch (e.kind) {
    case 'move':
      return { ...next, turn: { ...next.turn!, moved: true } };
    case 'sprint':
      return update({ ...next, turn: { ...next.turn!, moved: true } }, active, { stamina: actor.stamina - SPRINT_STAMINA });
    case 'standUp':
      return update(next, active, { prone: false });
    case 'brandish':
      return e.hold ? update(next, active, { held: heldAfter(e.hold) }) : next;
    case 'seekCover':
      return update(next, active, { inCover: true });
    case 'guard':
      return endTurn(update(next, active, { guarding: true }));
    case 'wait':
      return endTurn(update(next, active, { waitExtra: true }));
    case 'ready':
      return endTurn(update(next, active, { readied: { trigger: e.trigger!.trim(), action: e.readied!.trim() } }));
    case 'command':
      next = update(next, active, { focus: actor.focus - COMMAND_FOCUS });
      return { ...next, turn: { ...next.turn!, commanded: [...next.turn!.commanded, e.targetId!], commandTokens: [...next.turn!.commandTokens, e.targetId!] } };
    case 'resuscitate':
      next = update(next, active, { prone: true }); // "Go prone, then make a test"
      return completeAction(next, active, extendedFrom(ctx, e), e);
    default:
      return next;
  }
}

export function applyExtended(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'EXTENDED' }>): TeamsContext {
  const id = ctx.activeId!;
  const x = ctx.combatants[id]!.inProgress!;
  if (e.decision === 'abandon') return { ...update(ctx, id, { inProgress: null }), turn: { ...ctx.turn!, extendedDecided: true } };
  const pay = Math.min(x.cost - x.paid, ctx.turn!.actionsLeft);
  const paid = x.paid + pay;
  const next = spend(ctx, pay, { extendedDecided: true });
  if (paid < x.cost) return update(next, id, { inProgress: { ...x, paid } });
  return completeAction(update(next, id, { inProgress: null }), id, x, e);
}
