// Enigma's encounter machine (RULES.md §1.2, skeleton §6.2): setup → active (roundStart → selecting → turnStart →
// turn | choosingNpc | stalled) → ended. Every assignment is a pure function from rules.ts or combat.ts; every
// guard is the matching check, so a stored event the rules refuse can never change the state on replay.
import { assertEvent, assign, setup } from 'xstate';
import { rosterActions, rosterGuards, type RosterMachineSpec, SETUP_ROSTER } from '../../encounter/roster-machine.ts';
import type { EncounterInput } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import type { CombatEvent } from './combat.ts';
import * as rules from './rules.ts';
import type { EnigmaCombatant, EnigmaContext, EnigmaEvent } from './rules.ts';

type Combat<T extends CombatEvent['type']> = Extract<CombatEvent, { type: T }>;
const COMBAT_TYPES = ['MOVE', 'ATTACK', 'HIDE', 'NOTICE', 'USE_ITEM', 'USE_POWER', 'USE_REACTION', 'CHECK', 'APPLY_DAMAGE', 'AREA_DAMAGE', 'HEAL', 'RESOLVE_PERIL', 'SET_CAN_ACT', 'OVERRIDE'] as const;
const isCombat = (event: EnigmaEvent): event is CombatEvent => (COMBAT_TYPES as readonly string[]).includes(event.type);

/**
 * The shared roster guards and actions (core/encounter/roster-machine.ts): a Mortal Peril waiting for its answer holds
 * removals, late arrivals and the end; a late arrival takes its place in the order by R-E4 (rules.ts).
 */
const ROSTER_MACHINE: RosterMachineSpec<EnigmaContext, EnigmaCombatant> = {
  ...rules.ROSTER,
  blocked: (ctx) => ctx.pendingPeril.length > 0,
  lateProblem: (ctx, event) => rules.checkLateCombatant(ctx, event.combatant, event.position),
  addLate: (ctx, event) => rules.addLateCombatant(ctx, event.combatant, event.position),
  takeOut: (ctx, id, reason) => rules.removeCombatant(ctx, id, reason),
  close: (ctx, outcome) => ({ ...combat.closeCombat(ctx), outcome }),
};

/** The combat event is allowed in this state (the turn is open or not). */
const allowed = (context: EnigmaContext, event: EnigmaEvent, turnOpen: boolean) =>
  isCombat(event) && combat.combatRefusal(context, event, turnOpen) === null;

/** The event takes the active combatant out of the order (defeat, Sacrifice, removal): its turn ends (R-E3). */
function removesActive(context: EnigmaContext, event: EnigmaEvent): boolean {
  const id = rules.activeId(context);
  if (id === null) return false;
  const after = event.type === 'REMOVE_COMBATANT' ? rules.removeCombatant(context, event.combatantId, event.reason) : isCombat(event) ? combat.applyCombat(context, event) : context;
  return after.combatants[id]?.removed !== null;
}

export const enigmaMachine = setup({
  types: {
    context: {} as EnigmaContext,
    events: {} as EnigmaEvent,
    input: {} as EncounterInput,
  },
  guards: {
    ...rosterGuards(ROSTER_MACHINE),
    partyOrderValid: ({ context, event }) => {
      assertEvent(event, 'SET_PARTY_ORDER');
      return rules.checkPartyOrder(context, event.ids) === null;
    },
    gmOrderValid: ({ context, event }) => {
      assertEvent(event, 'SET_GM_ORDER');
      return rules.checkGmOrder(context, event.ids) === null;
    },
    canStart: ({ context }) => rules.checkStart(context) === null,
    firstSideAllowed: ({ context, event }) => {
      assertEvent(event, 'SET_FIRST_SIDE');
      return rules.checkFirstSide(context, event.side) === null;
    },
    canChooseNpc: ({ context, event }) => {
      assertEvent(event, 'CHOOSE_NPC');
      return context.pendingPeril.length === 0 && rules.checkChooseNpc(context, event.combatantId) === null;
    },
    canRaise: ({ context, event }) => {
      assertEvent(event, 'RAISE_ESCALATION');
      return context.pendingPeril.length === 0 && rules.checkRaiseEscalation(event.by) === null;
    },
    noPendingPeril: ({ context }) => context.pendingPeril.length === 0,
    combatInTurn: ({ context, event }) => allowed(context, event, true),
    combatOutOfTurn: ({ context, event }) => allowed(context, event, false),
    removesActive: ({ context, event }) => removesActive(context, event),
    hasSlotAtCursor: ({ context }) => rules.hasSlotAtCursor(context),
    nobodyCanAct: ({ context }) => rules.nextSlotSide(context) === null && context.order.every((id) => !context.combatants[id]!.canAct),
    skipActive: ({ context }) => rules.hasSlotAtCursor(context) && combat.activeCannotAct(context),
    noActionsLeft: ({ context }) => context.actionsLeft === 0,
    placementKnown: ({ context }) => rules.nextPlacement(context) !== null,
    awaitsNpcChoice: ({ context }) => rules.awaitsNpcChoice(context),
    nobodyLeft: ({ context }) => rules.nobodyLeft(context),
  },
  actions: {
    ...rosterActions<EnigmaContext, EnigmaCombatant, EnigmaEvent>(ROSTER_MACHINE),
    setPartyOrder: assign(({ event }) => {
      assertEvent(event, 'SET_PARTY_ORDER');
      return { partyOrder: event.ids };
    }),
    setGmOrder: assign(({ event }) => {
      assertEvent(event, 'SET_GM_ORDER');
      return { gmOrder: event.ids };
    }),
    setFirstSide: assign(({ event }) => {
      assertEvent(event, 'SET_FIRST_SIDE');
      return { firstSide: event.side };
    }),
    openRound: assign(({ context }) => rules.openRound(context)),
    placeNext: assign(({ context }) => rules.place(context, rules.nextPlacement(context)!)),
    placeChosen: assign(({ context, event }) => {
      assertEvent(event, 'CHOOSE_NPC');
      return rules.place(context, event.combatantId);
    }),
    beginTurn: assign(({ context }) => combat.beginTurn(context)),
    advance: assign(({ context }) => ({ cursor: context.cursor + 1 })),
    raiseEscalation: assign(({ context, event }) => {
      assertEvent(event, 'RAISE_ESCALATION');
      return { escalation: context.escalation + event.by };
    }),
    applyCombat: assign(({ context, event }) => combat.applyCombat(context, event as Combat<CombatEvent['type']>)),
  },
}).createMachine({
  id: 'enigma',
  context: ({ input }) => rules.initialContext(input),
  initial: 'setup',
  states: {
    setup: {
      on: {
        ...SETUP_ROSTER,
        SET_PARTY_ORDER: { guard: 'partyOrderValid', actions: 'setPartyOrder' },
        SET_GM_ORDER: { guard: 'gmOrderValid', actions: 'setGmOrder' },
        SET_FIRST_SIDE: { guard: 'firstSideAllowed', actions: 'setFirstSide' },
        START: { guard: 'canStart', target: 'active' },
      },
    },
    active: {
      initial: 'roundStart',
      on: {
        REMOVE_COMBATANT: [
          // R-E3: removing the active combatant ends its turn; the next creature has slid into its index.
          { guard: ({ context, event }) => rules.checkRemove(context, (event as { combatantId: string }).combatantId) === null && context.pendingPeril.length === 0 && removesActive(context, event), target: '.selecting', actions: 'removeCombatant' },
          { guard: 'canRemove', actions: 'removeCombatant' },
        ],
        RAISE_ESCALATION: { guard: 'canRaise', actions: 'raiseEscalation' },
        END_COMBAT: { guard: 'notBlocked', target: 'ended', actions: 'recordOutcome' },
        // Events that may come outside a turn: damage, healing, the peril answer, statuses and overrides.
        ...Object.fromEntries(
          (['APPLY_DAMAGE', 'AREA_DAMAGE', 'HEAL', 'RESOLVE_PERIL', 'SET_CAN_ACT', 'OVERRIDE'] as const).map((type) => [
            type,
            [
              { guard: ({ context, event }: { context: EnigmaContext; event: EnigmaEvent }) => allowed(context, event, false) && removesActive(context, event), target: '.selecting', actions: 'applyCombat' },
              { guard: 'combatOutOfTurn', actions: 'applyCombat' },
            ],
          ]),
        ),
      },
      states: {
        roundStart: {
          entry: 'openRound',
          always: 'selecting',
        },
        selecting: {
          always: [
            { guard: 'nobodyCanAct', target: 'stalled' },
            { guard: 'skipActive', actions: 'advance' }, // R-E5: skipped, then selecting looks again
            { guard: 'hasSlotAtCursor', target: 'turnStart' },
            { guard: 'placementKnown', actions: 'placeNext' },
            { guard: 'awaitsNpcChoice', target: 'choosingNpc' },
            { guard: 'nobodyLeft', target: 'stalled' },
            { target: 'roundStart' },
          ],
        },
        turnStart: {
          entry: 'beginTurn',
          // Two reactions owed: the turn has no actions and passes at once (R-E6).
          always: [{ guard: 'noActionsLeft', target: 'selecting', actions: 'advance' }, { target: 'turn' }],
        },
        choosingNpc: {
          on: {
            CHOOSE_NPC: { guard: 'canChooseNpc', target: 'selecting', actions: 'placeChosen' },
            ADD_LATE_COMBATANT: { guard: 'canAddLate', target: 'selecting', actions: 'addLate' },
          },
        },
        turn: {
          on: {
            END_TURN: { guard: 'noPendingPeril', target: 'selecting', actions: 'advance' },
            ADD_LATE_COMBATANT: { guard: 'canAddLate', actions: 'addLate' },
            ...Object.fromEntries(
              COMBAT_TYPES.map((type) => [
                type,
                [
                  { guard: ({ context, event }: { context: EnigmaContext; event: EnigmaEvent }) => allowed(context, event, true) && removesActive(context, event), target: 'selecting', actions: 'applyCombat' },
                  { guard: 'combatInTurn', actions: 'applyCombat' },
                ],
              ]),
            ),
          },
        },
        /** Nobody is left who can act: only a late arrival, a status change or the end of combat moves on. */
        stalled: {
          on: {
            ADD_LATE_COMBATANT: { guard: 'canAddLate', target: 'selecting', actions: 'addLate' },
            SET_CAN_ACT: { guard: 'combatOutOfTurn', target: 'selecting', actions: 'applyCombat' },
          },
        },
      },
    },
    ended: { type: 'final' },
  },
});
