// Teams' encounter machine (RULES.md §2.2, skeleton §6.2): setup → running (roundStart → selecting → teamPick →
// turnStart → extendedChoice | turn → turnEnd → roundEnd, with interrupts {attackWindow, consciousnessCheck,
// deathCheck} and stalled) → ended. The surprise round is round 0 of the same loop with the eligibility filter.
// Every assignment is a pure function from rules.ts or combat.ts; every guard is the matching check, so a stored
// event the rules refuse can never change the state on replay. After each gameplay event the machine passes
// through `route`, which opens a blocking decision, ends a turn whose owner went down (R-T3), or goes back.
import { assertEvent, assign, setup } from 'xstate';
import { type AddCombatantsEvent, type AddLateCombatantEvent, type EndCombatEvent, type RemoveCombatantEvent, rosterActions, rosterGuards, type RosterMachineSpec, SETUP_ROSTER } from '../../encounter/roster-machine.ts';
import * as roster from '../../encounter/roster.ts';
import type { EncounterInput, EncounterSnapshot } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import type { CombatEvent } from './combat.ts';
import * as rules from './rules.ts';
import type { TeamsCombatant, TeamsContext } from './rules.ts';

export type SetupEvent =
  | AddCombatantsEvent
  | RemoveCombatantEvent
  | { type: 'ADD_TEAM'; key: string; label: string }
  | { type: 'SET_TEAM'; combatantId: string; team: string }
  | { type: 'SET_INSTIGATOR'; combatantId: string | null; attackedTeam?: string | null }
  | { type: 'SET_TEAM_ORDER'; teams: string[] }
  | { type: 'DECLARE_SURPRISE'; team: string | null }
  | { type: 'SET_UNSURPRISABLE'; combatantId: string; unsurprisable: boolean }
  | { type: 'SET_OBJECTIVE'; team: string; text: string }
  | { type: 'START' }
  | { type: 'SELECT_MEMBER'; combatantId: string }
  | { type: 'END_TURN' }
  | AddLateCombatantEvent
  | EndCombatEvent;

export type TeamsEvent = SetupEvent | CombatEvent;

/** Combat events handled the same way wherever play is; the three answers live on their interrupt states. */
export const COMBAT_TYPES = ['ATTACK', 'ACTION', 'KILLING_STRIKE', 'FREE_ACTION', 'FIRE_READIED', 'EXTENDED', 'OPENING_ATTACK', 'REACTION_TEST', 'APPLY_DAMAGE', 'HEAL', 'OVERRIDE'] as const;
export const ANSWER_TYPES = ['DEFEND', 'CONSCIOUSNESS', 'LUCK_TEST'] as const;
const ALL_COMBAT: readonly string[] = [...COMBAT_TYPES, ...ANSWER_TYPES];
export const isCombat = (event: TeamsEvent): event is CombatEvent => ALL_COMBAT.includes(event.type);

/** The shared roster guards and actions (core/encounter/roster-machine.ts): a pending decision blocks removals, late arrivals and the end. */
const ROSTER_MACHINE: RosterMachineSpec<TeamsContext, TeamsCombatant> = {
  ...rules.ROSTER,
  blocked: (ctx) => ctx.pending.length > 0,
  lateProblem: (ctx, event) => roster.checkAdd(rules.ROSTER, ctx, [event.combatant]),
  // Late arrivals join their team and may be picked from its next go (they have not acted this round).
  addLate: (ctx, event) => roster.addSeeds(rules.ROSTER, ctx, [event.combatant]),
  takeOut: (ctx, id, reason) => rules.removeCombatant(ctx, id, reason),
  close: (ctx, outcome) => ({ ...combat.closeCombat(ctx), outcome }),
};

const combatAllowed = (context: TeamsContext, event: TeamsEvent) => isCombat(event) && combat.combatRefusal(context, event) === null;
const head = (context: TeamsContext) => context.pending[0]?.kind ?? null;

export const teamsMachine = setup({
  types: {
    context: {} as TeamsContext,
    events: {} as TeamsEvent,
    input: {} as EncounterInput,
  },
  guards: {
    ...rosterGuards(ROSTER_MACHINE),
    canAddTeam: ({ context, event }) => {
      assertEvent(event, 'ADD_TEAM');
      return rules.checkAddTeam(context, event.key, event.label) === null;
    },
    canSetTeam: ({ context, event }) => {
      assertEvent(event, 'SET_TEAM');
      return rules.checkSetTeam(context, event.combatantId, event.team) === null;
    },
    canSetInstigator: ({ context, event }) => {
      assertEvent(event, 'SET_INSTIGATOR');
      return rules.checkInstigator(context, event.combatantId, event.attackedTeam) === null;
    },
    teamOrderValid: ({ context, event }) => {
      assertEvent(event, 'SET_TEAM_ORDER');
      return rules.checkTeamOrder(context, event.teams) === null;
    },
    canDeclareSurprise: ({ context, event }) => {
      assertEvent(event, 'DECLARE_SURPRISE');
      return rules.checkSurprise(context, event.team) === null;
    },
    knownCombatant: ({ context, event }) => {
      assertEvent(event, 'SET_UNSURPRISABLE');
      return context.combatants[event.combatantId] !== undefined;
    },
    knownTeam: ({ context, event }) => {
      assertEvent(event, 'SET_OBJECTIVE');
      return context.teams.some((t) => t.key === event.team);
    },
    canStart: ({ context }) => rules.checkStart(context) === null,
    canSelect: ({ context, event }) => {
      assertEvent(event, 'SELECT_MEMBER');
      return context.pending.length === 0 && rules.checkSelectMember(context, event.combatantId) === null;
    },
    canEndTurn: ({ context }) => context.pending.length === 0 && context.turn !== null && context.turn.extendedDecided && !context.turn.openingAttack,
    combatAllowed: ({ context, event }) => combatAllowed(context, event),
    hasPending: ({ context }) => context.pending.length > 0,
    headIsDefence: ({ context }) => head(context) === 'defence',
    headIsConsciousness: ({ context }) => head(context) === 'consciousness',
    headIsDeath: ({ context }) => head(context) === 'death',
    activeIsDown: ({ context }) => combat.activeIsDown(context),
    awaitsExtendedChoice: ({ context }) => context.turn !== null && !context.turn.extendedDecided,
    turnOpen: ({ context }) => context.activeId !== null && context.turn !== null,
    stalls: ({ context }) => !context.surpriseRound && rules.nobodyCanAct(context),
    roundOver: ({ context }) => rules.nextTeamIndex(context) === null,
  },
  actions: {
    ...rosterActions<TeamsContext, TeamsCombatant, TeamsEvent>(ROSTER_MACHINE),
    addTeam: assign(({ context, event }) => {
      assertEvent(event, 'ADD_TEAM');
      return rules.addTeam(context, event.key, event.label);
    }),
    setTeam: assign(({ context, event }) => {
      assertEvent(event, 'SET_TEAM');
      return rules.setTeam(context, event.combatantId, event.team);
    }),
    setInstigator: assign(({ context, event }) => {
      assertEvent(event, 'SET_INSTIGATOR');
      return rules.setInstigator(context, event.combatantId, event.attackedTeam);
    }),
    setTeamOrder: assign(({ event }) => {
      assertEvent(event, 'SET_TEAM_ORDER');
      return { teamOrder: event.teams };
    }),
    declareSurprise: assign(({ event }) => {
      assertEvent(event, 'DECLARE_SURPRISE');
      return { surpriseTeam: event.team };
    }),
    setUnsurprisable: assign(({ context, event }) => {
      assertEvent(event, 'SET_UNSURPRISABLE');
      return roster.update(context, event.combatantId, { unsurprisable: event.unsurprisable });
    }),
    setObjective: assign(({ context, event }) => {
      assertEvent(event, 'SET_OBJECTIVE');
      return { objectives: { ...context.objectives, [event.team]: event.text } };
    }),
    openRound: assign(({ context }) => rules.openRound(context)),
    skipToTeam: assign(({ context }) => rules.skipToTeamWithMembers(context)),
    beginTurn: assign(({ context, event }) => {
      assertEvent(event, 'SELECT_MEMBER');
      return rules.beginTurn(context, event.combatantId);
    }),
    endTurn: assign(({ context }) => rules.endTurn(context)),
    applyCombat: assign(({ context, event }) => combat.applyCombat(context, event as CombatEvent)),
  },
}).createMachine({
  id: 'teams',
  context: ({ input }) => rules.initialContext(input),
  initial: 'setup',
  states: {
    setup: {
      on: {
        ...SETUP_ROSTER,
        ADD_TEAM: { guard: 'canAddTeam', actions: 'addTeam' },
        SET_TEAM: { guard: 'canSetTeam', actions: 'setTeam' },
        SET_INSTIGATOR: { guard: 'canSetInstigator', actions: 'setInstigator' },
        SET_TEAM_ORDER: { guard: 'teamOrderValid', actions: 'setTeamOrder' },
        DECLARE_SURPRISE: { guard: 'canDeclareSurprise', actions: 'declareSurprise' },
        SET_UNSURPRISABLE: { guard: 'knownCombatant', actions: 'setUnsurprisable' },
        SET_OBJECTIVE: { guard: 'knownTeam', actions: 'setObjective' },
        START: { guard: 'canStart', target: 'running' },
      },
    },
    running: {
      initial: 'roundStart',
      on: {
        REMOVE_COMBATANT: { guard: 'canRemove', target: '.route', actions: 'removeCombatant' },
        ADD_LATE_COMBATANT: { guard: 'canAddLate', target: '.route', actions: 'addLate' },
        SET_OBJECTIVE: { guard: 'knownTeam', actions: 'setObjective' }, // R-T11: objectives may change between rounds
        END_COMBAT: { guard: 'notBlocked', target: 'ended', actions: 'recordOutcome' },
        ...Object.fromEntries(COMBAT_TYPES.map((type) => [type, { guard: 'combatAllowed', target: '.route', actions: 'applyCombat' }])),
      },
      states: {
        roundStart: {
          entry: 'openRound',
          always: 'selecting',
        },
        /** ORDER POLICY: the team under the cursor, or the next with an eligible member; none left ends the round. */
        selecting: {
          always: [
            { guard: 'hasPending', target: 'interrupts' },
            { guard: 'stalls', target: 'stalled' },
            { guard: 'roundOver', target: 'roundEnd' },
            { target: 'teamPick', actions: 'skipToTeam' },
          ],
        },
        teamPick: {
          on: {
            SELECT_MEMBER: { guard: 'canSelect', target: 'turnStart', actions: 'beginTurn' },
          },
        },
        turnStart: {
          always: [{ guard: 'awaitsExtendedChoice', target: 'extendedChoice' }, { target: 'turn' }],
        },
        /** R-T10: an unfinished extended action is continued or abandoned before anything else (combat guards refuse the rest). */
        extendedChoice: {},
        turn: {
          on: {
            END_TURN: { guard: 'canEndTurn', target: 'turnEnd' },
          },
        },
        interrupts: {
          initial: 'choosing',
          states: {
            choosing: {
              always: [
                { guard: 'headIsDefence', target: 'attackWindow' },
                { guard: 'headIsConsciousness', target: 'consciousnessCheck' },
                { guard: 'headIsDeath', target: 'deathCheck' },
                { target: '#teams.running.route' },
              ],
            },
            attackWindow: { on: { DEFEND: { guard: 'combatAllowed', target: '#teams.running.route', actions: 'applyCombat' } } },
            consciousnessCheck: { on: { CONSCIOUSNESS: { guard: 'combatAllowed', target: '#teams.running.route', actions: 'applyCombat' } } },
            deathCheck: { on: { LUCK_TEST: { guard: 'combatAllowed', target: '#teams.running.route', actions: 'applyCombat' } } },
          },
        },
        /** Where play goes after an event: a blocking decision, the end of a downed turn (R-T3), or back. */
        route: {
          always: [
            { guard: 'hasPending', target: 'interrupts' },
            { guard: 'activeIsDown', target: 'turnEnd' },
            { guard: 'awaitsExtendedChoice', target: 'extendedChoice' },
            { guard: 'turnOpen', target: 'turn' },
            { target: 'selecting' },
          ],
        },
        turnEnd: {
          entry: 'endTurn',
          always: 'selecting',
        },
        roundEnd: {
          always: 'roundStart',
        },
        /** Nobody can act (everyone down): a revival, a late arrival or the end of combat moves on. */
        stalled: {},
      },
    },
    ended: { type: 'final' },
  },
});

/** The Teams context inside a kernel snapshot of this machine. */
export const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as TeamsContext;
