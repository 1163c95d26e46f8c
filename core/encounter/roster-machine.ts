// The roster's guards and actions for a ruleset's XState machine, written once (GUIDE §2): spread them into
// `setup({ guards, actions })` and name them in the states. Setup takes ADD_COMBATANTS (canAdd → addCombatants) and
// REMOVE_COMBATANT (canDrop → dropFromRoster); a running fight takes REMOVE_COMBATANT (canRemove → removeCombatant),
// ADD_LATE_COMBATANT (canAddLate → addLate) and END_COMBAT (notBlocked → recordOutcome). What differs per ruleset is
// in its RosterMachineSpec: what blocks (a question waiting for an answer), how a combatant is taken out, how the fight
// closes. A ruleset whose late arrival or removal needs more (Thrum's initiative) keeps its own guard or action.
import { assign, type EventObject } from 'xstate';
import { addSeeds, checkAdd, checkRemove, dropFromRoster, type Named, type RosterContext, type RosterSpec } from './roster.ts';
import type { CombatantSeed } from './types.ts';

export interface AddCombatantsEvent { type: 'ADD_COMBATANTS'; combatants: CombatantSeed[] }
export interface RemoveCombatantEvent { type: 'REMOVE_COMBATANT'; combatantId: string; reason: string }
export interface AddLateCombatantEvent { type: 'ADD_LATE_COMBATANT'; combatant: CombatantSeed; position?: number | null }
export interface EndCombatEvent { type: 'END_COMBAT'; outcome: string }

/** The events every ruleset's machine takes for its roster and its end; each ruleset's event union includes them. */
export type RosterEvent = AddCombatantsEvent | RemoveCombatantEvent | AddLateCombatantEvent | EndCombatEvent;

export interface RosterMachineSpec<Ctx extends RosterContext<C>, C extends Named> extends RosterSpec<Ctx, C> {
  /** Something waits for an answer: no removal, late arrival or end of the fight until it is given. */
  blocked(ctx: Ctx): boolean;
  /** A late arrival's refusal; by default the same checks as adding in setup. */
  lateProblem?(ctx: Ctx, event: AddLateCombatantEvent): string | null;
  /** A late arrival joins; by default as if added in setup. */
  addLate?(ctx: Ctx, event: AddLateCombatantEvent): Ctx;
  /** A running fight: the combatant leaves it for good (the GM's reason). */
  takeOut(ctx: Ctx, id: string, reason: string): Ctx;
  /** The GM ends the fight with this outcome (the text as sent, maybe empty). */
  close(ctx: Ctx, outcome: string): Ctx;
}

/** Like XState's assertEvent: the event a roster guard or action was named for, typed. */
function expectEvent<T extends RosterEvent['type']>(event: EventObject, type: T): Extract<RosterEvent, { type: T }> {
  if (!isRosterEvent(event, type)) throw new Error(`Expected event "${type}" but got "${event.type}".`);
  return event;
}

function isRosterEvent<T extends RosterEvent['type']>(event: EventObject, type: T): event is Extract<RosterEvent, { type: T }> {
  return event.type === type;
}

/** The late arrival's refusal under this spec (also what the ruleset's refusal sentence uses). */
export function lateRefusal<Ctx extends RosterContext<C>, C extends Named>(spec: RosterMachineSpec<Ctx, C>, ctx: Ctx, event: AddLateCombatantEvent): string | null {
  return spec.lateProblem ? spec.lateProblem(ctx, event) : checkAdd(spec, ctx, [event.combatant]);
}

interface Args<Ctx> { context: Ctx; event: EventObject }

export function rosterGuards<Ctx extends RosterContext<C>, C extends Named>(spec: RosterMachineSpec<Ctx, C>) {
  return {
    canAdd: ({ context, event }: Args<Ctx>) => checkAdd(spec, context, expectEvent(event, 'ADD_COMBATANTS').combatants) === null,
    canDrop: ({ context, event }: Args<Ctx>) => checkRemove(spec, context, expectEvent(event, 'REMOVE_COMBATANT').combatantId) === null,
    canRemove: ({ context, event }: Args<Ctx>) => !spec.blocked(context) && checkRemove(spec, context, expectEvent(event, 'REMOVE_COMBATANT').combatantId) === null,
    canAddLate: ({ context, event }: Args<Ctx>) => !spec.blocked(context) && lateRefusal(spec, context, expectEvent(event, 'ADD_LATE_COMBATANT')) === null,
    notBlocked: ({ context }: Args<Ctx>) => !spec.blocked(context),
  };
}

/** `Ev` is the machine's event union (its actions are typed by it). */
export function rosterActions<Ctx extends RosterContext<C>, C extends Named, Ev extends EventObject>(spec: RosterMachineSpec<Ctx, C>) {
  const reducer = (reduce: (context: Ctx, event: EventObject) => Ctx) => assign<Ctx, Ev, undefined, Ev, never>(({ context, event }) => reduce(context, event));
  return {
    addCombatants: reducer((context, event) => addSeeds(spec, context, expectEvent(event, 'ADD_COMBATANTS').combatants)),
    dropFromRoster: reducer((context, event) => dropFromRoster(spec, context, expectEvent(event, 'REMOVE_COMBATANT').combatantId)),
    removeCombatant: reducer((context, event) => {
      const { combatantId: id, reason } = expectEvent(event, 'REMOVE_COMBATANT');
      return spec.takeOut(context, id, reason);
    }),
    addLate: reducer((context, event) => {
      const late = expectEvent(event, 'ADD_LATE_COMBATANT');
      return spec.addLate ? spec.addLate(context, late) : addSeeds(spec, context, [late.combatant]);
    }),
    recordOutcome: reducer((context, event) => spec.close(context, expectEvent(event, 'END_COMBAT').outcome)),
  };
}

/** The setup state's roster transitions, the same in every ruleset: spread into its `on`. */
export const SETUP_ROSTER = {
  ADD_COMBATANTS: { guard: 'canAdd', actions: 'addCombatants' },
  REMOVE_COMBATANT: { guard: 'canDrop', actions: 'dropFromRoster' },
} as const;

/** The running fight's roster transitions of a ruleset whose removals and late arrivals stay in the state they happen in, and whose end is `ended`. */
export const RUNNING_ROSTER = {
  REMOVE_COMBATANT: { guard: 'canRemove', actions: 'removeCombatant' },
  ADD_LATE_COMBATANT: { guard: 'canAddLate', actions: 'addLate' },
  END_COMBAT: { guard: 'notBlocked', target: 'ended', actions: 'recordOutcome' },
} as const;
