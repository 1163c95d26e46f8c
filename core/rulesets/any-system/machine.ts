// "Any system"'s encounter machine: setup → initiative → running → ended, composed with the shared roster guards and
// actions (core/encounter/roster-machine.ts). Every other event has one guard (play.ts `refusal` is null) and one
// action (play.ts `reduce`), so what the machine takes and what the runner says about it never disagree.
import { assign, setup } from 'xstate';
import { rosterActions, rosterGuards, type RosterMachineSpec, RUNNING_ROSTER, SETUP_ROSTER } from '../../encounter/roster-machine.ts';
import type { EncounterInput } from '../../encounter/types.ts';
import type { AnyEvent } from './events.ts';
import * as order from './order.ts';
import { addLate, blocked, refusal, reduce, ANYTIME } from './play.ts';
import { initialContext, type AnyCombatant, type AnyContext } from './rules.ts';

const ROSTER_MACHINE: RosterMachineSpec<AnyContext, AnyCombatant> = {
  ...order.ROSTER,
  blocked,
  lateProblem: (ctx, event) => refusal(ctx, { ...event, type: 'ADD_LATE_COMBATANT' }),
  addLate: (ctx, event) => addLate(ctx, { ...event, type: 'ADD_LATE_COMBATANT' }),
  takeOut: (ctx, id, reason) => order.takeOut(ctx, id, reason || 'left the fight'),
  close: (ctx, outcome) => ({ ...ctx, stage: 'ended', pendingSave: null, outcome: outcome || 'The GM ends the fight.' }),
};

const INITIATIVE = ['ROLL_INITIATIVE', 'ROLL_ALL_INITIATIVE', 'SET_INITIATIVE', 'REORDER', 'ADD_FIXED'] as const;
const TURNS = ['END_TURN', 'DELAY', 'READY', 'DEATH_SAVE', 'SET_INITIATIVE', 'ADD_FIXED', ...ANYTIME] as const;
const apply = { guard: 'allowed', actions: 'reduce' } as const;

export const anySystemMachine = setup({
  types: {
    context: {} as AnyContext,
    events: {} as AnyEvent,
    input: {} as EncounterInput,
  },
  guards: {
    ...rosterGuards(ROSTER_MACHINE),
    allowed: ({ context, event }) => refusal(context, event) === null,
  },
  actions: {
    ...rosterActions<AnyContext, AnyCombatant, AnyEvent>(ROSTER_MACHINE),
    reduce: assign(({ context, event }) => reduce(context, event)),
  },
}).createMachine({
  id: 'anySystem',
  context: ({ input }) => initialContext(input),
  initial: 'setup',
  states: {
    setup: {
      on: {
        ...SETUP_ROSTER,
        ADD_FIXED: apply,
        START: { ...apply, target: 'initiative' },
      },
    },
    /** Everyone rolls or is given an initiative; the GM orders the ties the rulings leave; START_COMBAT opens round 1. */
    initiative: {
      on: {
        ...Object.fromEntries(INITIATIVE.map((type) => [type, apply])),
        START_COMBAT: { ...apply, target: 'running' },
        ...RUNNING_ROSTER,
      },
    },
    running: {
      on: {
        ...Object.fromEntries(TURNS.map((type) => [type, apply])),
        ...RUNNING_ROSTER,
      },
    },
    ended: { type: 'final' },
  },
});
