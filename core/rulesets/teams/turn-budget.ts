// The turn's budget (RULES.md §2.3): the action table's costs, what ends a turn, and the gates every action passes.
import { plural } from '../../encounter/roster.ts';
import type { ActionKind } from './combat-events.ts';
import type { TeamsCombatant, TeamsContext, TurnState } from './rules.ts';

/** The action table (§2.3): anything costs 1 unless stated; Resuscitate 2, Short Task 3. */
export const ACTION_COSTS: Record<Exclude<ActionKind, 'other'>, number> = {
  brandish: 1, interact: 1, move: 1, sprint: 1, standUp: 1, seekCover: 1, guard: 1, wait: 1, ready: 1, command: 1, resuscitate: 2, shortTask: 3,
};
export const ACTION_LABELS: Record<ActionKind, string> = {
  brandish: 'Brandish', interact: 'Interact', move: 'Move', sprint: 'Sprint', standUp: 'Stand Up', seekCover: 'Seek Cover', guard: 'Guard',
  wait: 'Wait', ready: 'Ready an Action', command: 'Command', resuscitate: 'Resuscitate', shortTask: 'Short Task', other: 'Action',
};
/** Guard, Wait and Ready end the turn; remaining actions are lost (§2.3). */
export const ENDS_TURN: readonly ActionKind[] = ['guard', 'wait', 'ready'];
/** Actions that can be paid over several turns when they cost more than the actions left (R-T10). */
export const EXTENDABLE: readonly ActionKind[] = ['resuscitate', 'shortTask', 'other'];
/** What a commanded ally may do with its one action (R-T9): a single action that does not end a turn. */
export const COMMANDABLE: readonly ActionKind[] = ['brandish', 'interact', 'move', 'sprint', 'standUp', 'seekCover', 'other'];
export const KILLING_STRIKE_COST = 3;
export const SPRINT_STAMINA = 1;
export const COMMAND_FOCUS = 2;
export const REACTION_COST = 1;
export const MAP_STEP = 2;

export const costOfAction = (e: { kind: ActionKind; cost?: number }): number => (e.kind === 'other' ? e.cost ?? 1 : ACTION_COSTS[e.kind]);

/** Whether the action would complete now (all of its cost is paid in this event). */
export const completesNow = (ctx: TeamsContext, cost: number) => (ctx.turn?.actionsLeft ?? 0) >= cost;

/** The extended action the active combatant continues: does this continuation complete it? */
export function continuationCompletes(ctx: TeamsContext): boolean {
  const c = ctx.combatants[ctx.activeId ?? ''];
  const x = c?.inProgress;
  return !!x && !!ctx.turn && x.cost - x.paid <= ctx.turn.actionsLeft;
}

export function needsActions(ctx: TeamsContext, name: string, cost: number): string | null {
  const left = ctx.turn?.actionsLeft ?? 0;
  if (cost <= left) return null;
  if (left === 0) return `${name} has no actions left this turn.`;
  return `${name} has ${plural(left, 'action')} left; this needs ${cost}.`;
}

/** The turn is open for ordinary actions: the extended choice (R-T10) and the opening attack (R-T1b) come first. */
export function turnGate(ctx: TeamsContext, what: string): string | null {
  const active = ctx.combatants[ctx.activeId ?? ''];
  if (!active || !ctx.turn) return `${what} happens on a combatant's turn.`;
  if (!ctx.turn.extendedDecided) return `${active.name} must first continue or abandon ${active.inProgress?.name ?? 'the extended action'} (R-T10).`;
  return null;
}

export function openingGate(ctx: TeamsContext): string | null {
  const active = ctx.combatants[ctx.activeId ?? ''];
  if (active && ctx.turn?.openingAttack) return `${active.name}'s turn opens with the attack that started the fight (R-T1b): make it, or waive it first.`;
  return null;
}

/** The surprise round: a Command cannot lend an action to someone who is surprised. */
export const surprisedCommandRefusal = (c: TeamsCombatant): string =>
  `${c.name} is surprised and cannot act in the surprise round, not even on a Command.`;

export function spend(ctx: TeamsContext, cost: number, change: Partial<TurnState> = {}): TeamsContext {
  return { ...ctx, turn: { ...ctx.turn!, actionsLeft: ctx.turn!.actionsLeft - cost, ...change } };
}
