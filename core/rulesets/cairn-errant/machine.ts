// Cairn-Errant's encounter machine (RULES.md §4.2, skeleton §6.2): setup → running (roundStart → declaring →
// ordering → resolving (moment | question)) → ended. Every guard is the matching check and every assignment a pure
// reducer from rules.ts or combat.ts, so a stored event the rules refuse can never change the state on replay.
import { assertEvent, assign, setup } from 'xstate';
import { rosterActions, rosterGuards, type RosterMachineSpec, RUNNING_ROSTER, SETUP_ROSTER } from '../../encounter/roster-machine.ts';
import type { EncounterInput } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import type { CombatEvent } from './combat.ts';
import * as events from './events.ts';
import type { CairnEvent } from './events.ts';
import * as rules from './rules.ts';
import * as declarations from './declarations.ts';
import * as order from './order.ts';
import * as roster from './roster.ts';
import type { CairnCombatant, CairnContext } from './rules.ts';
import * as moment from './moment.ts';

/** Events answering a blocking question, and events the GM may send at any time of a running fight. */
export const STEP_TYPES = ['REDIRECT', 'GAMBIT', 'ATTACK_BACK', 'DEFENSE', 'STRIKE', 'TIE_BREAK', 'STR_SAVE', 'CRIT_D6', 'HIT_LOCATION', 'NPC_CRITICAL', 'HEAD_RESULT', 'FIGHT_BACK'] as const;
export const ANYTIME_TYPES = ['APPLY_DAMAGE', 'SET_AWARE', 'SET_BAND', 'TREAT', 'GAIN_WOUND', 'OVERRIDE'] as const;
/** The events combat.ts checks and applies. */
export const COMBAT_EVENTS = new Set<string>([...STEP_TYPES, ...ANYTIME_TYPES, 'RETREAT']);

/** The shared roster guards and actions (core/encounter/roster-machine.ts) with what Cairn-Errant adds. */
const ROSTER_MACHINE: RosterMachineSpec<CairnContext, CairnCombatant> = {
  ...roster.ROSTER,
  // A follow-up question (a save, a critical roll...) blocks everything but its answer and OVERRIDE.
  blocked: (ctx) => ctx.phase !== 'setup' && ctx.moment.pending.length > 0,
  takeOut: (ctx, id, reason) => combat.settle(roster.takeOut(ctx, id, 'removed', reason || 'left the fight')),
  close: (ctx, outcome) => ({ ...ctx, outcome: outcome || 'The GM ends the fight.' }),
};

const combatAllowed = ({ context, event }: { context: CairnContext; event: CairnEvent }) => combat.combatRefusal(context, event as CombatEvent) === null;

export const cairnErrantMachine = setup({
  types: {
    context: {} as CairnContext,
    events: {} as CairnEvent,
    input: {} as EncounterInput,
  },
  guards: {
    ...rosterGuards(ROSTER_MACHINE),
    canStart: ({ context }) => roster.checkStart(context) === null,
    canDeclare: ({ context, event }) => {
      assertEvent(event, ['DECLARE_INTENT', 'SET_NPC_INTENT']);
      return events.eventRefusal(context, event) === null;
    },
    canTelegraph: ({ context, event }) => {
      assertEvent(event, 'TELEGRAPH');
      return events.eventRefusal(context, event) === null;
    },
    canConfirmTier: ({ context, event }) => {
      assertEvent(event, 'CONFIRM_TIER');
      return events.eventRefusal(context, event) === null;
    },
    canLock: ({ context }) => declarations.checkLock(context) === null,
    canDexSave: ({ context, event }) => {
      assertEvent(event, 'DEX_SAVE');
      return events.eventRefusal(context, event) === null;
    },
    savesDone: ({ context }) => order.pendingDexSaves(context).length === 0,
    combatAllowed,
    canCloseMoment: ({ context }) => combat.closeMomentRefusal(context) === null,
    noQuestion: ({ context }) => moment.nextStep(context) === null || context.phase !== 'resolve',
    questionWaiting: ({ context }) => moment.nextStep(context) !== null,
    roundDone: ({ context }) => context.cursor >= context.moments.length,
    momentSettled: ({ context }) => moment.momentSettled(context),
    fightOver: ({ context }) => roster.fightOver(context) !== null && context.moment.pending.length === 0,
  },
  actions: {
    ...rosterActions<CairnContext, CairnCombatant, CairnEvent>(ROSTER_MACHINE),
    openRound: assign(({ context }) => order.openRound(context)),
    declare: assign(({ context, event }) => {
      assertEvent(event, ['DECLARE_INTENT', 'SET_NPC_INTENT']);
      return declarations.declare(context, event);
    }),
    telegraph: assign(({ context, event }) => {
      assertEvent(event, 'TELEGRAPH');
      return { telegraphs: { ...context.telegraphs, [event.combatantId]: event.text } };
    }),
    confirmTier: assign(({ context, event }) => {
      assertEvent(event, 'CONFIRM_TIER');
      return { intents: { ...context.intents, [event.combatantId]: { ...context.intents[event.combatantId]!, tier: event.tier, tierConfirmed: true } } };
    }),
    beginOrder: assign(({ context }) => order.beginOrder(context)),
    dexSave: assign(({ context, event }) => {
      assertEvent(event, 'DEX_SAVE');
      return order.recordDexSave(context, event.combatantId, event.roll!);
    }),
    buildMoments: assign(({ context }) => order.buildMoments(context)),
    applyCombat: assign(({ context, event }) => combat.applyCombat(context, event as CombatEvent)),
    advanceMoment: assign(({ context }) => combat.advanceMoment(context)),
    closeMoment: assign(({ context }) => combat.advanceMoment(context)),
    autoEnd: assign(({ context }) => ({ outcome: roster.fightOver(context) })),
  },
}).createMachine({
  id: 'cairnErrant',
  context: ({ input }) => rules.initialContext(input),
  initial: 'setup',
  states: {
    setup: {
      on: {
        ...SETUP_ROSTER,
        START: { guard: 'canStart', target: 'running' },
      },
    },
    running: {
      initial: 'roundStart',
      // R-C7: the fight ends by itself once one side is all dead, down or gone (and nothing waits for an answer).
      always: { guard: 'fightOver', target: 'ended', actions: 'autoEnd' },
      on: {
        ...RUNNING_ROSTER,
        // Answers to questions are accepted in any phase: a save can follow damage dealt between moments.
        ...Object.fromEntries([...ANYTIME_TYPES, ...STEP_TYPES].map((type) => [type, { guard: 'combatAllowed', actions: 'applyCombat' }])),
      },
      states: {
        roundStart: {
          entry: 'openRound',
          always: 'declaring',
        },
        /** §4.2 step 1–2: players declare, the Warden sets and telegraphs enemy intents, the app classifies. */
        declaring: {
          on: {
            DECLARE_INTENT: { guard: 'canDeclare', actions: 'declare' },
            SET_NPC_INTENT: { guard: 'canDeclare', actions: 'declare' },
            TELEGRAPH: { guard: 'canTelegraph', actions: 'telegraph' },
            CONFIRM_TIER: { guard: 'canConfirmTier', actions: 'confirmTier' },
            LOCK_INTENTS: { guard: 'canLock', target: 'ordering' },
          },
        },
        /** §4.2 step 3: the DEX saves of the PCs in contested tiers (a blocking question until all are in). */
        ordering: {
          entry: 'beginOrder',
          always: { guard: 'savesDone', target: 'resolving', actions: 'buildMoments' },
          on: {
            DEX_SAVE: { guard: 'canDexSave', actions: 'dexSave' },
          },
        },
        /** One moment (bucket) at a time: redirects, gambits, defence windows, damage, criticals, fight-backs. */
        resolving: {
          initial: 'moment',
          always: [
            // R-C7 is checked before the round turns over, so the last moment's result ends the fight.
            { guard: 'fightOver', target: '#cairnErrant.ended', actions: 'autoEnd' },
            { guard: 'roundDone', target: 'roundStart' },
            { guard: 'momentSettled', actions: 'advanceMoment' },
          ],
          on: {
            RETREAT: { guard: 'combatAllowed', actions: 'applyCombat' },
            END_TURN: { guard: 'canCloseMoment', actions: 'closeMoment' },
          },
          states: {
            /** The table plays out the moment's actions; END_TURN closes it. */
            moment: { always: { guard: 'questionWaiting', target: 'question' } },
            /** Blocking: only the answer (or an OVERRIDE) is accepted. */
            question: { always: { guard: 'noQuestion', target: 'moment' } },
          },
        },
      },
    },
    ended: { type: 'final' },
  },
});
