// Factions' encounter machine (RULES.md §3.2, skeleton §6.2): setup → running (resume → initiative | opening |
// roundStart → awaitFat → phaseStart → chooseFirst → selecting → factionTurn → turn (acting | stunt | reaction |
// resolve) → … → morale (moraleRoll | moraleOutcome) → roundEnd) → aftermath (durability) → ended.
// `resume` routes from the context alone, so every event that may change the picture (damage, a removal, an
// override) simply goes back through it. Every assignment is a pure function from rules.ts or combat.ts; every
// guard is the matching check, so a stored event the rules refuse can never change the state on replay.
import { assertEvent, assign, setup } from 'xstate';
import { type AddCombatantsEvent, type AddLateCombatantEvent, type EndCombatEvent, type RemoveCombatantEvent, rosterActions, rosterGuards, type RosterMachineSpec, SETUP_ROSTER } from '../../encounter/roster-machine.ts';
import type { EncounterInput } from '../../encounter/types.ts';
import { nameOf } from '../../encounter/roster.ts';
import * as combat from './combat.ts';
import type { CombatEvent } from './combat.ts';
import * as rules from './rules.ts';
import * as turnOrder from './order.ts';
import * as setupRules from './setup.ts';
import type { FactionsCombatant, FactionsContext, Roll } from './rules.ts';

export type FactionsEvent =
  | CombatEvent
  | AddCombatantsEvent
  | RemoveCombatantEvent
  | { type: 'ADD_FACTION'; key: string; label: string }
  | { type: 'RENAME_FACTION'; key: string; label: string }
  | { type: 'SET_FACTION'; combatantId: string; faction: string }
  | { type: 'SET_FACTION_CYCLE'; keys: string[] }
  | { type: 'SET_GROUP'; groupId?: string; label: string; memberIds: string[] }
  | { type: 'SET_INITIATIVE'; faction: string; roll?: Roll | null }
  | { type: 'SET_CONCEALED'; combatantId: string; concealed: boolean }
  | { type: 'SET_OPTIONAL_RULES'; fastSlow: boolean; chaos: boolean }
  | { type: 'START' }
  | { type: 'ROLL_FAT'; roll?: Roll | null }
  | { type: 'CHOOSE_FIRST_FACTION'; faction: string }
  | { type: 'SELECT_CHARACTER'; combatantId?: string; pass?: true }
  | { type: 'PASS' }
  | { type: 'END_TURN' }
  | { type: 'MORALE_ROLL'; roll?: Roll | null }
  | { type: 'MORALE_OUTCOME'; outcome: 'surrender' | 'retreat' }
  | { type: 'DURABILITY_RESULT'; result: 'ok' | 'damaged' }
  | AddLateCombatantEvent
  | EndCombatEvent;

type Args = { context: FactionsContext; event: FactionsEvent };
type Of<T extends FactionsEvent['type']> = Extract<FactionsEvent, { type: T }>;

/** Events that may come between turns as well as in one: damage, healing, statuses, zones, chases, removals. */
const ANYTIME = ['APPLY_DAMAGE', 'HEAL', 'SET_STATUS', 'SET_ZONE', 'CHASE'] as const;
/** Events of the active character's turn (an opportunity attack is an ATTACK from someone else). */
const TURN_ACTIONS = ['ATTACK', 'FINAL_BLOW', 'MOVE_ZONE', 'BONUS_ACTION', 'MAIN_ACTION', 'SHOVE'] as const;

/**
 * The shared roster guards and actions (core/encounter/roster-machine.ts): a blocking question (RULES.md §6.8) holds
 * removals, late arrivals and the end; a late arrival joins its faction's group, counted (rules.ts).
 */
const ROSTER_MACHINE: RosterMachineSpec<FactionsContext, FactionsCombatant> = {
  ...setupRules.ROSTER,
  blocked: (ctx) => turnOrder.blockingReason(ctx) !== null,
  lateProblem: (ctx, event) => turnOrder.checkLateCombatant(ctx, event.combatant),
  addLate: (ctx, event) => turnOrder.addLateCombatant(ctx, event.combatant),
  takeOut: (ctx, id, reason) => turnOrder.removeCombatant(ctx, id, reason),
  close: (ctx, outcome) => combat.closeFight(ctx, outcome),
};

const combatOk = (context: FactionsContext, event: FactionsEvent, turnOpen: boolean) =>
  combat.combatRefusal(context, event as CombatEvent, turnOpen) === null;

export const factionsMachine = setup({
  types: {
    context: {} as FactionsContext,
    events: {} as FactionsEvent,
    input: {} as EncounterInput,
  },
  guards: {
    // setup
    ...rosterGuards(ROSTER_MACHINE),
    canAddFaction: ({ context, event }) => setupRules.checkAddFaction(context, (event as Of<'ADD_FACTION'>).key, (event as Of<'ADD_FACTION'>).label) === null,
    canRenameFaction: ({ context, event }) => setupRules.checkRenameFaction(context, (event as Of<'RENAME_FACTION'>).key, (event as Of<'RENAME_FACTION'>).label) === null,
    canSetFaction: ({ context, event }) => setupRules.checkSetFaction(context, (event as Of<'SET_FACTION'>).combatantId, (event as Of<'SET_FACTION'>).faction) === null,
    cycleValid: ({ context, event }) => setupRules.checkCycle(context, (event as Of<'SET_FACTION_CYCLE'>).keys) === null,
    canSetGroup: ({ context, event }) => setupRules.checkSetGroup(context, setupRules.groupIdOf((event as Of<'SET_GROUP'>).groupId, (event as Of<'SET_GROUP'>).label), (event as Of<'SET_GROUP'>).memberIds) === null,
    initiativeBeforeStart: ({ context, event }) => setupRules.checkInitiative(context, (event as Of<'SET_INITIATIVE'>).faction, (event as Of<'SET_INITIATIVE'>).roll, false) === null,
    initiativeAfterStart: ({ context, event }) => setupRules.checkInitiative(context, (event as Of<'SET_INITIATIVE'>).faction, (event as Of<'SET_INITIATIVE'>).roll, true) === null,
    canConceal: ({ context, event }) => setupRules.checkConcealed(context, (event as Of<'SET_CONCEALED'>).combatantId) === null,
    canStart: ({ context }) => setupRules.checkStart(context) === null,
    // flow
    initiativeUnset: ({ context }) => context.initiative === null,
    ambushDue: ({ context }) => context.phase === null && context.round === 0 && turnOrder.hasAmbushers(context),
    betweenRounds: ({ context }) => context.phase === null && context.morale === null,
    inTurn: ({ context }) => context.activeId !== null,
    moraleOpen: ({ context }) => context.morale !== null,
    fatDue: ({ context }) => context.phase === 'fast' && context.fat === null,
    noFirstFaction: ({ context }) => context.current === null,
    firstFactionKnown: ({ context }) => turnOrder.firstFactionKnown(context),
    fatValid: ({ event }) => turnOrder.checkFat((event as Of<'ROLL_FAT'>).roll) === null,
    canChooseFirst: ({ context, event }) => turnOrder.checkChooseFirst(context, (event as Of<'CHOOSE_FIRST_FACTION'>).faction) === null,
    fightOver: ({ context }) => turnOrder.fightOver(context),
    phaseOver: ({ context }) => turnOrder.phaseOver(context),
    mustPass: ({ context }) => turnOrder.mustPass(context),
    canSelect: ({ context, event }) => turnOrder.checkSelect(context, event as Of<'SELECT_CHARACTER'>) === null,
    // turn and attacks
    turnAction: ({ context, event }) => combatOk(context, event, true),
    outOfTurn: ({ context, event }) => turnOrder.blockingReason(context) === null && combatOk(context, event, context.activeId !== null),
    overrideOk: ({ context, event }) => combatOk(context, event, context.activeId !== null),
    activeDropped: ({ context }) => context.pending === null && context.activeId !== null && !rules.canAct(context.combatants[context.activeId]!),
    stageStunt: ({ context }) => context.pending?.stage === 'stunt',
    stageReaction: ({ context }) => context.pending?.stage === 'reaction',
    resolvesWithoutRolls: ({ context }) => context.pending?.stage === 'resolve' && combat.resolveNeeds(context).length === 0,
    stageResolve: ({ context }) => context.pending?.stage === 'resolve',
    answerOk: ({ context, event }) => combatOk(context, event, true),
    // morale and the end
    moraleChecksDue: ({ context }) => Boolean(context.morale?.checks.length),
    moraleFailuresDue: ({ context }) => Boolean(context.morale?.failures.length),
    moraleRollOk: ({ context, event }) => combat.moraleRollProblem(context, (event as Of<'MORALE_ROLL'>).roll) === null,
    durabilityDue: ({ context }) => Boolean(context.durability?.length),
    chaseOk: ({ context, event }) => combatOk(context, event, false),
  },
  actions: {
    ...rosterActions<FactionsContext, FactionsCombatant, FactionsEvent>(ROSTER_MACHINE),
    addFaction: assign(({ context, event }) => {
      assertEvent(event, 'ADD_FACTION');
      return setupRules.addFaction(context, event.key, event.label);
    }),
    renameFaction: assign(({ context, event }) => {
      assertEvent(event, 'RENAME_FACTION');
      return setupRules.renameFaction(context, event.key, event.label);
    }),
    setFaction: assign(({ context, event }) => {
      assertEvent(event, 'SET_FACTION');
      return setupRules.setFaction(context, event.combatantId, event.faction);
    }),
    setCycle: assign(({ context, event }) => {
      assertEvent(event, 'SET_FACTION_CYCLE');
      return setupRules.setCycle(context, event.keys);
    }),
    setGroup: assign(({ context, event }) => {
      assertEvent(event, 'SET_GROUP');
      return setupRules.setGroup(context, setupRules.groupIdOf(event.groupId, event.label), event.label, event.memberIds);
    }),
    setInitiative: assign(({ context, event }) => {
      assertEvent(event, 'SET_INITIATIVE');
      return setupRules.setInitiative(context, event.faction, event.roll);
    }),
    setConcealed: assign(({ context, event }) => {
      assertEvent(event, 'SET_CONCEALED');
      return setupRules.setConcealed(context, event.combatantId, event.concealed);
    }),
    setOptionalRules: assign(({ context, event }) => {
      assertEvent(event, 'SET_OPTIONAL_RULES');
      return setupRules.setOptionalRules(context, event.fastSlow, event.chaos);
    }),
    start: assign(({ context }) => setupRules.start(context)),
    openAmbush: assign(({ context }) => turnOrder.openAmbush(context)),
    openRound: assign(({ context }) => turnOrder.openRound(context)),
    setFat: assign(({ context, event }) => turnOrder.setFat(context, (event as Of<'ROLL_FAT'>).roll!)),
    startAtKnownFirst: assign(({ context }) => turnOrder.startAtKnownFirst(context)),
    chooseFirst: assign(({ context, event }) => turnOrder.chooseFirst(context, (event as Of<'CHOOSE_FIRST_FACTION'>).faction)),
    autoEnd: assign(({ context }) => turnOrder.autoEnd(context)),
    endPhase: assign(({ context }) => {
      const closed = turnOrder.closePhase(context);
      return context.phase === 'normal' || context.phase === 'slow' ? combat.openMorale(closed) : closed;
    }),
    autoPass: assign(({ context }) => turnOrder.autoPass(context)),
    select: assign(({ context, event }) => turnOrder.selectOrPass(context, (event as Of<'SELECT_CHARACTER'>).combatantId ?? null)),
    pass: assign(({ context }) => turnOrder.selectOrPass(context, null)),
    endTurn: assign(({ context }) => {
      const what = context.turn.mainUsed || context.turn.bonusUsed || context.turn.moved ? '' : ' without doing anything';
      return turnOrder.endTurn(context, `${nameOf(context, context.activeId)} ends the turn${what}.`);
    }),
    endTurnDropped: assign(({ context }) => turnOrder.endTurn(context, `${nameOf(context, context.activeId)} can no longer act: the turn ends.`)),
    startAttack: assign(({ context, event }) => combat.startAttack(context, event as Of<'ATTACK'>)),
    turnAction: assign(({ context, event }) => {
      switch (event.type) {
        case 'ATTACK': return combat.startAttack(context, event);
        case 'FINAL_BLOW': return combat.finalBlow(context, event);
        case 'MOVE_ZONE': return combat.moveZone(context, event.to, Boolean(event.sneaking));
        case 'BONUS_ACTION': return combat.bonusAction(context, event);
        case 'MAIN_ACTION': return combat.mainAction(context, event);
        case 'SHOVE': return combat.shove(context, event);
        default: return context;
      }
    }),
    surrender: assign(({ context }) => combat.surrender(context)),
    declarationTimeout: assign(({ context }) => combat.declarationTimeout(context)),
    offerStunt: assign(({ context, event }) => combat.offerStunt(context, (event as Of<'OFFER_STUNT'>).text)),
    answerStunt: assign(({ context, event }) => combat.answerStunt(context, (event as Of<'STUNT_ANSWER'>).decision === 'accept')),
    react: assign(({ context, event }) => combat.react(context, event as Of<'REACT'>)),
    resolve: assign(({ context, event }) => combat.resolveAttack(context, event as Of<'RESOLVE_ATTACK'>)),
    resolveWithoutRolls: assign(({ context }) => combat.resolveAttack(context, null)),
    anytime: assign(({ context, event }) => {
      switch (event.type) {
        case 'APPLY_DAMAGE': return combat.applyHarm(context, event.targetId, event.amount, event.byId ?? null, event.source || 'Damage');
        case 'HEAL': return combat.heal(context, event);
        case 'SET_STATUS': return combat.setStatus(context, event);
        case 'SET_ZONE': return combat.setZone(context, event.combatantId, event.zone);
        case 'CHASE': return combat.chase(context, event);
        case 'OVERRIDE': return combat.override(context, event);
        default: return context;
      }
    }),
    moraleRoll: assign(({ context, event }) => combat.moraleRoll(context, (event as Of<'MORALE_ROLL'>).roll!)),
    moraleOutcome: assign(({ context, event }) => combat.moraleOutcome(context, (event as Of<'MORALE_OUTCOME'>).outcome)),
    closeRound: assign(({ context }) => ({ ...context, morale: null, phase: null })),
    openDurability: assign(({ context }) => combat.openDurability(context)),
    durabilityResult: assign(({ context, event }) => combat.durabilityResult(context, (event as Of<'DURABILITY_RESULT'>).result)),
  },
}).createMachine({
  id: 'factions',
  context: ({ input }) => rules.initialContext(input),
  initial: 'setup',
  states: {
    setup: {
      on: {
        ...SETUP_ROSTER,
        ADD_FACTION: { guard: 'canAddFaction', actions: 'addFaction' },
        RENAME_FACTION: { guard: 'canRenameFaction', actions: 'renameFaction' },
        SET_FACTION: { guard: 'canSetFaction', actions: 'setFaction' },
        SET_FACTION_CYCLE: { guard: 'cycleValid', actions: 'setCycle' },
        SET_GROUP: { guard: 'canSetGroup', actions: 'setGroup' },
        SET_INITIATIVE: { guard: 'initiativeBeforeStart', actions: 'setInitiative' },
        SET_CONCEALED: { guard: 'canConceal', actions: 'setConcealed' },
        SET_ZONE: { guard: 'outOfTurn', actions: 'anytime' },
        SET_OPTIONAL_RULES: { actions: 'setOptionalRules' },
        START: { guard: 'canStart', target: 'running', actions: 'start' },
      },
    },
    running: {
      initial: 'resume',
      on: {
        ...Object.fromEntries(ANYTIME.map((type) => [type, { guard: 'outOfTurn', target: '.resume', actions: 'anytime' }])),
        // The GM's way out of any blocking question (RULES.md §6.8).
        OVERRIDE: { guard: 'overrideOk', target: '.resume', actions: 'anytime' },
        REMOVE_COMBATANT: { guard: 'canRemove', target: '.resume', actions: 'removeCombatant' },
        ADD_LATE_COMBATANT: { guard: 'canAddLate', target: '.resume', actions: 'addLate' },
        END_COMBAT: { guard: 'notBlocked', target: 'aftermath', actions: 'recordOutcome' },
      },
      states: {
        resume: {
          always: [
            { guard: 'initiativeUnset', target: 'initiative' },
            { guard: 'ambushDue', target: 'opening' },
            { guard: 'inTurn', target: 'turn' },
            { guard: 'moraleOpen', target: 'morale' },
            { guard: 'betweenRounds', target: 'roundStart' },
            { guard: 'fatDue', target: 'awaitFat' },
            { guard: 'noFirstFaction', target: 'phaseStart' },
            { target: 'selecting' },
          ],
        },
        /** Nobody clearly started the fight: name the faction, or roll for it. */
        initiative: {
          on: { SET_INITIATIVE: { guard: 'initiativeAfterStart', target: 'resume', actions: 'setInitiative' } },
        },
        /** The ambush bonus turn (§3.2 rule 8, R-F2): only the concealed act, in the same take-or-pass loop. */
        opening: {
          entry: 'openAmbush',
          always: 'phaseStart',
        },
        roundStart: {
          entry: 'openRound',
          always: 'resume',
        },
        awaitFat: {
          on: { ROLL_FAT: { guard: 'fatValid', target: 'resume', actions: 'setFat' } },
        },
        phaseStart: {
          always: [{ guard: 'firstFactionKnown', target: 'selecting', actions: 'startAtKnownFirst' }, { target: 'chooseFirst' }],
        },
        /** The initiative holder names the faction that acts first (rule 2, R-F6). */
        chooseFirst: {
          on: { CHOOSE_FIRST_FACTION: { guard: 'canChooseFirst', target: 'selecting', actions: 'chooseFirst' } },
        },
        /** The order policy: the end of the fight, the end of the phase, automatic passes, or a faction's go. */
        selecting: {
          always: [
            { guard: 'fightOver', target: '#factions.aftermath', actions: 'autoEnd' },
            { guard: 'phaseOver', target: 'resume', actions: 'endPhase' },
            { guard: 'mustPass', actions: 'autoPass' }, // R-F3, then selecting looks again
            { target: 'factionTurn' },
          ],
        },
        /** The faction whose go it is sends one character or passes (rules 3–5). */
        factionTurn: {
          on: {
            SELECT_CHARACTER: [
              { guard: ({ event }) => (event as Of<'SELECT_CHARACTER'>).pass === true, target: 'resume', actions: 'pass' },
              { guard: 'canSelect', target: 'resume', actions: 'select' },
            ],
            PASS: { target: 'resume', actions: 'pass' },
          },
        },
        turn: {
          initial: 'route',
          states: {
            route: {
              always: [
                { guard: 'activeDropped', target: '#factions.running.resume', actions: 'endTurnDropped' },
                { guard: 'stageStunt', target: 'stunt' },
                { guard: 'stageReaction', target: 'reaction' },
                { guard: 'resolvesWithoutRolls', actions: 'resolveWithoutRolls' }, // then route looks again
                { guard: 'stageResolve', target: 'resolve' },
                { target: 'acting' },
              ],
            },
            acting: {
              on: {
                ...Object.fromEntries(TURN_ACTIONS.map((type) => [type, { guard: 'turnAction', target: 'route', actions: 'turnAction' }])),
                SURRENDER: { guard: 'turnAction', target: '#factions.running.resume', actions: 'surrender' },
                DECLARATION_TIMEOUT: { guard: 'turnAction', target: '#factions.running.resume', actions: 'declarationTimeout' },
                END_TURN: { target: '#factions.running.resume', actions: 'endTurn' },
              },
            },
            /** Blocking: the target accepts the stunt or resolves the attack as normal (§3.4 step 3). */
            stunt: { on: { STUNT_ANSWER: { guard: 'answerOk', target: 'route', actions: 'answerStunt' } } },
            /** Blocking: the reaction window of the current target (§3.4 step 4). */
            reaction: {
              on: {
                REACT: { guard: 'answerOk', target: 'route', actions: 'react' },
                OFFER_STUNT: { guard: 'answerOk', target: 'route', actions: 'offerStunt' },
              },
            },
            /** Blocking: the damage roll, STR saves and the counter's roll (§3.4 steps 5–12). */
            resolve: { on: { RESOLVE_ATTACK: { guard: 'answerOk', target: 'route', actions: 'resolve' } } },
          },
        },
        /** The morale phase after the round (rule 7, R-F8): blocking until every check and outcome is answered. */
        morale: {
          initial: 'route',
          states: {
            route: {
              always: [
                { guard: 'moraleChecksDue', target: 'moraleRoll' },
                { guard: 'moraleFailuresDue', target: 'moraleOutcome' },
                { target: '#factions.running.roundEnd', actions: 'closeRound' },
              ],
            },
            moraleRoll: { on: { MORALE_ROLL: { guard: 'moraleRollOk', target: 'route', actions: 'moraleRoll' } } },
            moraleOutcome: { on: { MORALE_OUTCOME: { target: 'route', actions: 'moraleOutcome' } } },
          },
        },
        roundEnd: {
          always: [{ guard: 'fightOver', target: '#factions.aftermath', actions: 'autoEnd' }, { target: 'roundStart' }],
        },
      },
    },
    /** After the fight (§3.6): a durability result for each item used (the party's first, then the NPCs'), then the end. */
    aftermath: {
      entry: 'openDurability',
      initial: 'route',
      on: {
        CHASE: { guard: 'chaseOk', actions: 'anytime' },
        OVERRIDE: { guard: 'overrideOk', target: '.route', actions: 'anytime' },
      },
      states: {
        route: { always: [{ guard: 'durabilityDue', target: 'durability' }, { target: '#factions.ended' }] },
        durability: { on: { DURABILITY_RESULT: { target: 'route', actions: 'durabilityResult' } } },
      },
    },
    // Not a final state: a long chase may still be resolved after the fight (§3.6 "Chases ... after combat").
    ended: {
      on: { CHASE: { guard: 'chaseOk', actions: 'anytime' } },
    },
  },
});
