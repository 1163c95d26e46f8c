// Thrum's rulings (RULES.md §5, Appendix A): each R-H ruling is a named option with the digest's default.
import { choice, defineOptions, flag, number, optionsReader } from '../options.ts';

/**
 * Rulings the digest gives one reading for are constants of the engine, not options (docs/rulesets/thrum.md,
 * "Rulings the app applies as constants"): R-H3 delayTiming, R-H4 incapacitatedTurn, R-H5 panicOrder, R-H8
 * loadFloor, R-H12b loadPerHit. A campaign or an encounter export that stored one still opens and saves: the stored
 * value is accepted and dropped.
 */
export const RETIRED_THRUM_OPTIONS = [
  { key: 'delayTiming', ruling: 'R-H3' },
  { key: 'incapacitatedTurn', ruling: 'R-H4' },
  { key: 'panicOrder', ruling: 'R-H5' },
  { key: 'loadFloor', ruling: 'R-H8' },
  { key: 'loadPerHit', ruling: 'R-H12b' },
] as const;

export const thrumOptions = defineOptions([
  choice('initiativeTies', {
    ruling: 'R-H1', default: 'modifierThenPcs', label: 'Initiative ties',
    description: 'The higher Initiative modifier goes first; if still tied PCs go before NPCs; if still tied the GM chooses and it is logged.',
    choices: [
      { value: 'modifierThenPcs', label: 'Modifier, then PCs first, then GM' },
      { value: 'modifierThenGm', label: 'Modifier, then GM' },
      { value: 'gmChooses', label: 'GM chooses every tie' },
    ],
  }),
  choice('roundZeroNpcs', {
    ruling: 'R-H2', default: 'stanceOnly', label: 'NPCs in Round Zero',
    description: 'NPCs are already placed, so in Round Zero they only choose a stance; PCs pick a square in the Starting Area and a stance.',
    choices: [
      { value: 'stanceOnly', label: 'Stance only' },
      { value: 'positionToo', label: 'NPCs may also reposition' },
    ],
  }),
  choice('stunned', {
    ruling: 'R-H6', default: 'skipNextAction', label: 'Stunned',
    description: 'A Stunned combatant skips the Action step at its next Action opportunity, and Stunned then counts down at the end of turn.',
    choices: [
      { value: 'skipNextAction', label: 'Skips its next Action' },
      { value: 'gmAdjudicates', label: 'Only marked; the GM applies it' },
    ],
  }),
  choice('woundCheckOrder', {
    ruling: 'R-H7', default: 'afterDecrement', label: 'Incapacitated end-of-turn order',
    description: 'End of turn runs effects, status count-down, Fatigue Tolerance and Load −1, ends Incapacitated at Load 0, then gives a Wound if still Incapacitated at Tolerance 0.',
    choices: [
      { value: 'afterDecrement', label: 'Wound check after the −1' },
      { value: 'beforeDecrement', label: 'Wound check before the −1' },
    ],
  }),
  flag('zeroToleranceStaysOut', {
    ruling: 'R-H9', default: true, label: 'Fatigue Tolerance 0 keeps a PC out',
    description: 'A PC whose Fatigue Tolerance is 0 when combat ends stays Incapacitated until Downtime restores some; everyone else recovers.',
  }),
  flag('areasHitAllies', {
    ruling: 'R-H10', default: true, label: 'Areas hit allies',
    description: 'An area hits every character inside it, allies included, unless the ability says otherwise.',
  }),
  choice('boonsAndBanes', {
    ruling: 'R-H11', default: 'extraDice', label: 'Contested rolls, boons and banes',
    description: 'The attack and the defence are rolled (by the app, or typed from physical dice): 2d6 + modifier each; each net Boon adds a d6 and drops the lowest, each net Bane adds a d6 and drops the highest; the totals decide the outcome. Or the tool hands the counts over and the GM gives the outcome tier. An ability\'s alternative defence always takes its tier from the GM.',
    choices: [
      { value: 'extraDice', label: 'Roll both sides: a d6 per net Boon or Bane' },
      { value: 'countsToCoreRules', label: 'Hand counts over, take back a tier' },
    ],
  }),
  choice('contestTies', {
    ruling: 'R-H11', default: 'defenceHolds', label: 'Tied attack and defence',
    description: 'The source does not say who wins a tied contest. Like its Panic and Incapacity Rolls, which "must exceed (not tie)", the roller must exceed the opposition: a tied attack is the defence\'s success, a tied drop roll fails against the environment. Or the roller wins ties.',
    choices: [
      { value: 'defenceHolds', label: 'The roll must exceed: a tie goes to the defence or the environment' },
      { value: 'attackWins', label: 'The attacker (or the faller) wins ties' },
    ],
  }),
  number('criticalMargin', {
    ruling: 'R-H11', default: 5, min: 1, max: 10, label: 'Critical margin',
    description: 'The source names an Evasion "Critical" without a number. A Critical is a roll this many or more above the opposing roll (the core Dice Rolls chapter: "5 or more above the opposing roll"): an Evasion total that far above the attack avoids the effect without +1 Vulnerable.',
  }),
  number('slowedSpeedPerStack', {
    ruling: 'R-H12', default: 1, min: 0, max: 3, label: 'Speed lost per Slowed stack',
    description: 'Each Slowed stack lowers Speed by this many squares.',
  }),
  number('characterCoverHeight', {
    ruling: 'R-H13', default: 2, min: 0, max: 4, label: 'Height of a character as cover',
    description: 'A character used as a cover source counts as its square\'s elevation plus this, so characters give cover on flat ground.',
  }),
  choice('dividingLineCover', {
    ruling: 'R-H14', default: 'noCover', label: 'Attacker on the dividing line',
    description: 'An attacker standing exactly on the cover dividing line gets no cover penalty.',
    choices: [
      { value: 'noCover', label: 'No cover' },
      { value: 'cover', label: 'Cover applies' },
    ],
  }),
  choice('statusCountdown', {
    ruling: 'R-H15', default: 'perStatus', label: 'Status count-down',
    description: 'Each status definition says whether it counts down at the end of turn (Stunned, Slowed and Dazed do; Vulnerable\'s count-down is not specified, so it stays until cleared unless marked); or every status with stacks counts down.',
    choices: [
      { value: 'perStatus', label: 'Set per status definition' },
      { value: 'allStacksTick', label: 'Every status with stacks counts down' },
    ],
  }),
  flag('incapacitatedDefend', {
    ruling: 'R-H16', default: true, label: 'Incapacitated combatants defend',
    description: 'Targets can always defend, so Incapacitated combatants still make defence rolls.',
  }),
  choice('downtimeRestores', {
    ruling: 'R-H17', default: 'baseAndOneWound', label: 'What Downtime restores',
    description: 'One Downtime restores both tolerances to their base values and heals one Wound.',
    choices: [
      { value: 'baseAndOneWound', label: 'Tolerances to base, one Wound' },
      { value: 'baseAndAllWounds', label: 'Tolerances to base, all Wounds' },
      { value: 'onePointPerDay', label: 'One tolerance point per day' },
    ],
  }),
], { retired: RETIRED_THRUM_OPTIONS });

/** The encounter's or the campaign's rulings, typed by their declarations (read once per options object). */
export const rulingsOf = optionsReader(thrumOptions);
export type ThrumRulings = ReturnType<typeof rulingsOf>;
