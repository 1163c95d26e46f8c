// Thrum's encounter machine (RULES.md §5.2, skeleton §6.2): setup (NPC placement) → initiative → roundZero
// (selecting → turn) → rounds (roundStart → selecting → turn ⇄ interrupts | stalled) → ended. Every assignment is a
// pure function from rules.ts or combat.ts; every guard is the matching check, so a stored event the rules refuse
// can never change the state on replay. The end condition is checked after every event in the rounds (THRUM-22).
import { assertEvent, assign, setup } from 'xstate';
import { type AddCombatantsEvent, type EndCombatEvent, type RemoveCombatantEvent, rosterActions, rosterGuards, type RosterMachineSpec, SETUP_ROSTER } from '../../encounter/roster-machine.ts';
import { checkAdd, checkRemove, nameOf } from '../../encounter/roster.ts';
import type { CombatantSeed, EncounterInput } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import { beginTurn, closeCombat, combatOver, endTurn } from './turn.ts';
import type { CombatEvent, Stage } from './combat.ts';
import type { Board, Square } from './grid.ts';
import * as rules from './rules.ts';
import type { Roll, Side, ThrumCombatant, ThrumContext } from './rules.ts';

export type ThrumEvent =
  | CombatEvent
  | AddCombatantsEvent
  | RemoveCombatantEvent
  | { type: 'SET_SIDE'; combatantId: string; side: Side }
  | { type: 'SET_MAP'; map: Board | null }
  | { type: 'PLACE_NPC'; combatantId: string; square: Square | null }
  | { type: 'START' }
  | { type: 'ROLL_INITIATIVE'; combatantId: string; roll?: Roll | null }
  | { type: 'BREAK_TIE'; combatantId: string }
  | { type: 'DELAY'; combatantId: string; afterId: string | null }
  | { type: 'END_TURN' }
  | { type: 'ADD_LATE_COMBATANT'; combatant: CombatantSeed; position?: number | null; initiativeRoll?: Roll | null }
  | EndCombatEvent
  | { type: 'SET_CONDITION'; kind: 'win' | 'defeat'; text: string }
  | { type: 'CONDITION_MET'; n: number };

export const COMBAT_TYPES = [
  'PANIC_ROLL', 'INCAPACITY_ROLL', 'MOVE', 'FORCED_MOVE', 'ATTACK', 'DEFENSE_CHOICE', 'DEFENSE_RESULT', 'USE_ABILITY', 'RESUSCITATE', 'BUFF_CHOICE',
  'SET_STANCE', 'POSITION', 'TRIGGER', 'RESOLVE_TRIGGER', 'APPLY_LOAD', 'APPLY_STATUS', 'CLEAR_STATUS', 'SET_POSITION', 'OVERRIDE',
] as const;
export const isCombat = (event: { type: string }): event is CombatEvent => (COMBAT_TYPES as readonly string[]).includes(event.type);

type Args = { context: ThrumContext; event: ThrumEvent };
const allowedIn = (stage: Stage) => ({ context, event }: Args) => isCombat(event) && combat.combatRefusal(context, event, stage) === null;

/** A Delay is declared before start-of-turn effects: allowed while nothing is pending but the turn's own Panic Roll. */
export function delayRefusal(ctx: ThrumContext, id: string, afterId: string | null): string | null {
  const problem = rules.checkDelay(ctx, id, afterId);
  if (problem) return problem;
  const pending = ctx.stack.filter((f) => !(f.kind === 'roll' && f.reason === 'startOfTurn' && f.id === id));
  return pending.length ? `Waiting for ${combat.frameQuestion(ctx, pending.at(-1)!)}.` : null;
}

export function lateRefusal(ctx: ThrumContext, seed: CombatantSeed, roll: Roll | null | undefined, orderSet: boolean): string | null {
  const problem = checkAdd(rules.ROSTER, ctx, [seed]);
  if (problem) return problem;
  if (ctx.stack.length) return `Waiting for ${combat.frameQuestion(ctx, ctx.stack.at(-1)!)}.`;
  return orderSet ? rules.rollProblem(roll, `${seed.name}'s initiative`) : roll ? rules.rollProblem(roll, `${seed.name}'s initiative`) : null;
}

export function removeRefusal(ctx: ThrumContext, id: string): string | null {
  const problem = checkRemove(rules.ROSTER, ctx, id);
  if (problem) return problem;
  return ctx.stack.length ? `Waiting for ${combat.frameQuestion(ctx, ctx.stack.at(-1)!)}.` : null;
}

export function initiativeRefusal(ctx: ThrumContext, id: string, roll: Roll | null | undefined): string | null {
  const c = ctx.combatants[id];
  if (!rules.inFight(c)) return 'That combatant is not in this encounter.';
  if (c.initiative) return `${c.name} has already rolled initiative (${c.initiative.total}).`;
  return rules.rollProblem(roll, `${c.name}'s initiative`);
}

export function tieRefusal(ctx: ThrumContext, id: string): string | null {
  const tie = rules.openTie(ctx);
  if (!tie) return 'No initiative tie is waiting for the GM.';
  return tie.includes(id) ? null : `${nameOf(ctx, id)} is not among the tied combatants (${tie.map((x) => nameOf(ctx, x)).join(', ')}).`;
}

export function setupRefusal(ctx: ThrumContext, event: ThrumEvent): string | null {
  switch (event.type) {
    case 'ADD_COMBATANTS': return checkAdd(rules.ROSTER, ctx, event.combatants);
    case 'REMOVE_COMBATANT': return checkRemove(rules.ROSTER, ctx, event.combatantId);
    case 'SET_SIDE': return ctx.combatants[event.combatantId] ? null : 'That combatant is not in this encounter.';
    case 'SET_CONDITION': return event.text.trim() ? ((ctx.conditions ?? []).length >= 10 ? 'An encounter has at most 10 Win and Defeat Conditions.' : null) : 'Say what the condition is.';
    case 'SET_MAP': {
      const map = event.map;
      if (!map) return null;
      const outside = [...Object.keys(map.elevation), ...map.difficult, ...map.startingArea].find((k) => {
        const [x, y] = k.split(',').map(Number);
        return !(x! >= 0 && y! >= 0 && x! < map.width && y! < map.height);
      });
      return outside ? `(${outside}) is outside a ${map.width}×${map.height} map.` : null;
    }
    case 'PLACE_NPC': {
      const c = ctx.combatants[event.combatantId];
      if (!c) return 'That combatant is not in this encounter.';
      if (event.square === null) return null;
      if (!ctx.board) return 'Set the map before placing NPCs.';
      if (c.pc) return `${c.name} is a PC: PCs take their starting squares in Round Zero.`;
      if (event.square.x < 0 || event.square.y < 0 || event.square.x >= ctx.board.width || event.square.y >= ctx.board.height) return `(${event.square.x},${event.square.y}) is off the map.`;
      const taken = Object.values(ctx.combatants).find((o) => o.id !== c.id && o.position && o.position.x === event.square!.x && o.position.y === event.square!.y);
      return taken ? `${taken.name} already stands on (${event.square.x},${event.square.y}).` : null;
    }
    case 'START': return rules.checkStart(ctx);
    default: return null;
  }
}

/**
 * The shared roster guards and actions (core/encounter/roster-machine.ts). Thrum keeps its own late arrival
 * (canAddLate, addLate: the initiative roll and its place in the order) and canRemoveActive.
 */
const ROSTER_MACHINE: RosterMachineSpec<ThrumContext, ThrumCombatant> = {
  ...rules.ROSTER,
  blocked: (ctx) => ctx.stack.length > 0,
  takeOut: (ctx, id, reason) => rules.removeCombatant(ctx, id, reason),
  close: (ctx, outcome) => closeCombat(ctx, outcome),
};

/** Removing the combatant whose turn it is passes the turn on (R-H4). */
const removesActive = (ctx: ThrumContext, id: string) => rules.activeId(ctx) === id;

function combatTransitions(stage: Stage) {
  return Object.fromEntries(COMBAT_TYPES.map((type) => [type, { guard: stage === 'rounds' ? 'combatInRounds' : 'combatInRoundZero', actions: 'applyCombat' }])) as Record<
    (typeof COMBAT_TYPES)[number],
    { guard: 'combatInRounds' | 'combatInRoundZero'; actions: 'applyCombat' }
  >;
}

export const thrumMachine = setup({
  types: {
    context: {} as ThrumContext,
    events: {} as ThrumEvent,
    input: {} as EncounterInput,
  },
  guards: {
    ...rosterGuards(ROSTER_MACHINE),
    canSetup: ({ context, event }) => setupRefusal(context, event) === null,
    canStart: ({ context }) => rules.checkStart(context) === null,
    canMarkCondition: ({ context, event }) => {
      assertEvent(event, 'CONDITION_MET');
      return rules.checkConditionMet(context, event.n) === null;
    },
    canRollInitiative: ({ context, event }) => {
      assertEvent(event, 'ROLL_INITIATIVE');
      return initiativeRefusal(context, event.combatantId, event.roll) === null;
    },
    canBreakTie: ({ context, event }) => {
      assertEvent(event, 'BREAK_TIE');
      return tieRefusal(context, event.combatantId) === null;
    },
    initiativeSettled: ({ context }) => rules.initiativeSettled(context),
    canRemoveActive: ({ context, event }) => {
      assertEvent(event, 'REMOVE_COMBATANT');
      return removeRefusal(context, event.combatantId) === null && removesActive(context, event.combatantId);
    },
    canAddLateBeforeOrder: ({ context, event }) => {
      assertEvent(event, 'ADD_LATE_COMBATANT');
      return lateRefusal(context, event.combatant, event.initiativeRoll, false) === null;
    },
    canAddLate: ({ context, event }) => {
      assertEvent(event, 'ADD_LATE_COMBATANT');
      return lateRefusal(context, event.combatant, event.initiativeRoll, true) === null;
    },
    canDelay: ({ context, event }) => {
      assertEvent(event, 'DELAY');
      return delayRefusal(context, event.combatantId, event.afterId) === null;
    },
    nothingPending: ({ context }) => context.stack.length === 0,
    pending: ({ context }) => context.stack.length > 0,
    combatInRounds: allowedIn('rounds'),
    combatInRoundZero: allowedIn('roundZero'),
    hasSlotAtCursor: ({ context }) => rules.hasSlotAtCursor(context),
    orderEmpty: ({ context }) => context.order.length === 0,
    combatOver: ({ context }) => combatOver(context),
  },
  actions: {
    ...rosterActions<ThrumContext, ThrumCombatant, ThrumEvent>(ROSTER_MACHINE),
    setSide: assign(({ context, event }) => {
      assertEvent(event, 'SET_SIDE');
      return rules.setSide(context, event.combatantId, event.side);
    }),
    setCondition: assign(({ context, event }) => {
      assertEvent(event, 'SET_CONDITION');
      return rules.addCondition(context, event.kind, event.text);
    }),
    markCondition: assign(({ context, event }) => {
      assertEvent(event, 'CONDITION_MET');
      return rules.markConditionMet(context, event.n);
    }),
    setMap: assign(({ context, event }) => {
      assertEvent(event, 'SET_MAP');
      return rules.setBoard(context, event.map);
    }),
    placeNpc: assign(({ context, event }) => {
      assertEvent(event, 'PLACE_NPC');
      return rules.place(context, event.combatantId, event.square);
    }),
    rollInitiative: assign(({ context, event }) => {
      assertEvent(event, 'ROLL_INITIATIVE');
      return rules.rollInitiative(context, event.combatantId, event.roll!);
    }),
    breakTie: assign(({ context, event }) => {
      assertEvent(event, 'BREAK_TIE');
      return { tieOrder: [...context.tieOrder, event.combatantId] };
    }),
    settleOrder: assign(({ context }) => rules.settleOrder(context)),
    addLateBeforeOrder: assign(({ context, event }) => {
      assertEvent(event, 'ADD_LATE_COMBATANT');
      return rules.addLateCombatant(context, event.combatant, event.initiativeRoll, event.position, false);
    }),
    addLate: assign(({ context, event }) => {
      assertEvent(event, 'ADD_LATE_COMBATANT');
      return rules.addLateCombatant(context, event.combatant, event.initiativeRoll, event.position, true);
    }),
    delay: assign(({ context, event }) => {
      assertEvent(event, 'DELAY');
      // The panic roll waits until the turn really begins at the new slot (R-H3).
      const stack = context.stack.filter((f) => !(f.kind === 'roll' && f.reason === 'startOfTurn' && f.id === event.combatantId));
      return rules.delay({ ...context, stack }, event.combatantId, event.afterId);
    }),
    beginRoundZeroTurn: assign(({ context }) => beginTurn(context, 'roundZero')),
    beginTurn: assign(({ context }) => beginTurn(context, 'rounds')),
    endRoundZeroTurn: assign(({ context }) => endTurn(context, 'roundZero')),
    endTurn: assign(({ context }) => endTurn(context, 'rounds')),
    openRound: assign(({ context }) => rules.openRound(context)),
    applyCombat: assign(({ context, event }) => (isCombat(event) ? combat.applyCombat(context, event) : context)),
    autoEnd: assign(({ context }) => closeCombat(context, rules.endCondition(context) ?? 'The fight is over.')),
  },
}).createMachine({
  id: 'thrum',
  context: ({ input }) => rules.initialContext(input),
  initial: 'setup',
  states: {
    /** The roster, the map and NPC placement (§5.2 rule 1). */
    setup: {
      on: {
        ...SETUP_ROSTER,
        SET_SIDE: { guard: 'canSetup', actions: 'setSide' },
        SET_CONDITION: { guard: 'canSetup', actions: 'setCondition' },
        SET_MAP: { guard: 'canSetup', actions: 'setMap' },
        PLACE_NPC: { guard: 'canSetup', actions: 'placeNpc' },
        START: { guard: 'canStart', target: 'initiative' },
      },
    },
    /** Every combatant rolls 2d6 + Initiative modifier; the GM breaks ties the rules cannot (R-H1). */
    initiative: {
      always: { guard: 'initiativeSettled', target: 'roundZero', actions: 'settleOrder' },
      on: {
        ROLL_INITIATIVE: { guard: 'canRollInitiative', actions: 'rollInitiative' },
        BREAK_TIE: { guard: 'canBreakTie', actions: 'breakTie' },
        REMOVE_COMBATANT: { guard: 'canRemove', actions: 'removeCombatant' },
        ADD_LATE_COMBATANT: { guard: 'canAddLateBeforeOrder', actions: 'addLateBeforeOrder' },
        END_COMBAT: { target: 'ended', actions: 'recordOutcome' },
      },
    },
    /** Round Zero: in initiative order, starting squares and first stances, no actions (R-H2, R-H3). */
    roundZero: {
      initial: 'selecting',
      on: {
        REMOVE_COMBATANT: [
          { guard: 'canRemoveActive', target: '.selecting', actions: 'removeCombatant' },
          { guard: 'canRemove', actions: 'removeCombatant' },
        ],
        ADD_LATE_COMBATANT: { guard: 'canAddLate', actions: 'addLate' },
        END_COMBAT: { guard: 'notBlocked', target: 'ended', actions: 'recordOutcome' },
      },
      states: {
        selecting: {
          always: [{ guard: 'hasSlotAtCursor', target: 'turn', actions: 'beginRoundZeroTurn' }, { target: '#thrum.rounds' }],
        },
        turn: {
          on: {
            DELAY: { guard: 'canDelay', target: 'selecting', actions: 'delay' },
            END_TURN: { target: 'selecting', actions: 'endRoundZeroTurn' },
            ...combatTransitions('roundZero'),
          },
        },
      },
    },
    rounds: {
      initial: 'roundStart',
      on: {
        REMOVE_COMBATANT: [
          { guard: 'canRemoveActive', target: '.selecting', actions: 'removeCombatant' },
          { guard: 'canRemove', actions: 'removeCombatant' },
        ],
        ADD_LATE_COMBATANT: { guard: 'canAddLate', actions: 'addLate' },
        END_COMBAT: { guard: 'notBlocked', target: 'ended', actions: 'recordOutcome' },
        // Marked at any moment; the fight ends once the triggers and the action under way resolve (combatOver).
        CONDITION_MET: { guard: 'canMarkCondition', actions: 'markCondition' },
        ...combatTransitions('rounds'),
      },
      always: { guard: 'combatOver', target: 'ended', actions: 'autoEnd' },
      states: {
        roundStart: {
          entry: 'openRound',
          always: 'selecting',
        },
        selecting: {
          always: [
            { guard: 'combatOver', target: '#thrum.ended', actions: 'autoEnd' },
            { guard: 'hasSlotAtCursor', target: 'turn', actions: 'beginTurn' },
            { guard: 'orderEmpty', target: 'stalled' },
            { target: 'roundStart' },
          ],
        },
        /** Start of turn → Move → Action → Stance → END_TURN runs the end-of-turn upkeep (R-H7). */
        turn: {
          always: { guard: 'pending', target: 'interrupts' },
          on: {
            DELAY: { guard: 'canDelay', target: 'selecting', actions: 'delay' },
            END_TURN: { guard: 'nothingPending', target: 'selecting', actions: 'endTurn' },
          },
        },
        /**
         * Blocking: a defence choice and its outcome, a Panic or Incapacity Roll, a buff choice, the trigger stack.
         * Only the answer (and what may interrupt it: a trigger, a GM override) is accepted (§6.8).
         */
        interrupts: {
          always: { guard: 'nothingPending', target: 'turn' },
          on: {
            DELAY: { guard: 'canDelay', target: 'selecting', actions: 'delay' },
          },
        },
        stalled: {
          on: {
            ADD_LATE_COMBATANT: { guard: 'canAddLate', target: 'selecting', actions: 'addLate' },
          },
        },
      },
    },
    ended: { type: 'final' },
  },
});
