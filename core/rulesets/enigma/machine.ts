// Enigma's encounter machine (RULES.md §1.2, skeleton §6.2): setup → active (roundStart → selecting → turn |
// choosingNpc) → ended. Every assignment is a pure function from rules.ts; every guard is the matching check.
import { assertEvent, assign, setup } from 'xstate';
import type { EncounterInput } from '../../encounter/types.ts';
import * as rules from './rules.ts';
import type { EnigmaContext, EnigmaEvent } from './rules.ts';

export const enigmaMachine = setup({
  types: {
    context: {} as EnigmaContext,
    events: {} as EnigmaEvent,
    input: {} as EncounterInput,
  },
  guards: {
    canAdd: ({ context, event }) => {
      assertEvent(event, 'ADD_COMBATANTS');
      return rules.checkAddCombatants(context, event.combatants) === null;
    },
    canRemove: ({ context, event }) => {
      assertEvent(event, 'REMOVE_COMBATANT');
      return rules.checkRemove(context, event.id) === null;
    },
    removesActive: ({ context, event }) => {
      assertEvent(event, 'REMOVE_COMBATANT');
      return rules.checkRemove(context, event.id) === null && rules.activeId(context) === event.id;
    },
    partyOrderValid: ({ context, event }) => {
      assertEvent(event, 'SET_PARTY_ORDER');
      return rules.checkPartyOrder(context, event.ids) === null;
    },
    gmOrderValid: ({ context, event }) => {
      assertEvent(event, 'SET_GM_ORDER');
      return rules.checkGmOrder(context, event.ids) === null;
    },
    canStart: ({ context }) => rules.checkStart(context) === null,
    canChooseNpc: ({ context, event }) => {
      assertEvent(event, 'CHOOSE_NPC');
      return rules.checkChooseNpc(context, event.id) === null;
    },
    canRaise: ({ event }) => {
      assertEvent(event, 'RAISE_ESCALATION');
      return rules.checkRaiseEscalation(event.by) === null;
    },
    canAddLate: ({ context, event }) => {
      assertEvent(event, 'ADD_LATE_COMBATANT');
      return rules.checkLateCombatant(context, event.combatant) === null;
    },
    hasSlotAtCursor: ({ context }) => rules.hasSlotAtCursor(context),
    placementKnown: ({ context }) => rules.nextPlacement(context) !== null,
    awaitsNpcChoice: ({ context }) => rules.awaitsNpcChoice(context),
    nobodyLeft: ({ context }) => rules.nobodyLeft(context),
  },
  actions: {
    addCombatants: assign(({ context, event }) => {
      assertEvent(event, 'ADD_COMBATANTS');
      return rules.addCombatants(context, event.combatants);
    }),
    dropFromRoster: assign(({ context, event }) => {
      assertEvent(event, 'REMOVE_COMBATANT');
      return rules.dropFromRoster(context, event.id);
    }),
    removeCombatant: assign(({ context, event }) => {
      assertEvent(event, 'REMOVE_COMBATANT');
      return rules.removeCombatant(context, event.id, event.reason);
    }),
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
      return rules.place(context, event.id);
    }),
    advance: assign(({ context }) => ({ cursor: context.cursor + 1 })),
    raiseEscalation: assign(({ context, event }) => {
      assertEvent(event, 'RAISE_ESCALATION');
      return { escalation: context.escalation + event.by };
    }),
    addLate: assign(({ context, event }) => {
      assertEvent(event, 'ADD_LATE_COMBATANT');
      return rules.addLateCombatant(context, event.combatant, event.position);
    }),
    recordOutcome: assign(({ event }) => {
      assertEvent(event, 'END_COMBAT');
      return { outcome: event.outcome };
    }),
  },
}).createMachine({
  id: 'enigma',
  context: ({ input }) => rules.initialContext(input),
  initial: 'setup',
  states: {
    setup: {
      on: {
        ADD_COMBATANTS: { guard: 'canAdd', actions: 'addCombatants' },
        REMOVE_COMBATANT: { guard: 'canRemove', actions: 'dropFromRoster' },
        SET_PARTY_ORDER: { guard: 'partyOrderValid', actions: 'setPartyOrder' },
        SET_GM_ORDER: { guard: 'gmOrderValid', actions: 'setGmOrder' },
        SET_FIRST_SIDE: { actions: 'setFirstSide' },
        START: { guard: 'canStart', target: 'active' },
      },
    },
    active: {
      initial: 'roundStart',
      on: {
        REMOVE_COMBATANT: [
          // R-E3: removing the active combatant ends its turn; the next creature has slid into its index.
          { guard: 'removesActive', target: '.selecting', actions: 'removeCombatant' },
          { guard: 'canRemove', actions: 'removeCombatant' },
        ],
        RAISE_ESCALATION: { guard: 'canRaise', actions: 'raiseEscalation' },
        END_COMBAT: { target: 'ended', actions: 'recordOutcome' },
      },
      states: {
        roundStart: {
          entry: 'openRound',
          always: 'selecting',
        },
        selecting: {
          always: [
            { guard: 'hasSlotAtCursor', target: 'turn' },
            { guard: 'placementKnown', target: 'turn', actions: 'placeNext' },
            { guard: 'awaitsNpcChoice', target: 'choosingNpc' },
            { guard: 'nobodyLeft', target: 'stalled' },
            { target: 'roundStart' },
          ],
        },
        choosingNpc: {
          on: {
            CHOOSE_NPC: { guard: 'canChooseNpc', target: 'turn', actions: 'placeChosen' },
            ADD_LATE_COMBATANT: { guard: 'canAddLate', target: 'selecting', actions: 'addLate' },
          },
        },
        turn: {
          on: {
            END_TURN: { target: 'selecting', actions: 'advance' },
            ADD_LATE_COMBATANT: { guard: 'canAddLate', actions: 'addLate' },
          },
        },
        /** Everyone has left the order: only a late arrival or the end of combat moves on. */
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
