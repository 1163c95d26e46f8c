// Teams' rulings (RULES.md §2, Appendix A): each R-T ruling is a named option with the digest's default.
import { choice, defineOptions, flag, optionsReader } from '../options.ts';

/**
 * Rulings the digest gives one reading for are constants of the engine, not options (docs/rulesets/teams.md,
 * "Rulings the app applies as constants"): R-T1 unclearInstigator, R-T3 knockedOutOnOwnTurn, R-T4 revivedAfterRound,
 * R-T9 command, R-T10 extendedActions, R-T11 teamRemains, R-T12 guardBonusScope, R-T16 strayShotPool,
 * R-T17 advantageLevels, R-T23 fortifyWithoutResources, R-T24 zeroHealthOverrides.
 * A campaign that stored one still opens and saves: the stored value is accepted and dropped.
 */
export const RETIRED_TEAMS_OPTIONS = [
  { key: 'unclearInstigator', ruling: 'R-T1' },
  { key: 'knockedOutOnOwnTurn', ruling: 'R-T3' },
  { key: 'revivedAfterRound', ruling: 'R-T4' },
  { key: 'command', ruling: 'R-T9' },
  { key: 'extendedActions', ruling: 'R-T10' },
  { key: 'teamRemains', ruling: 'R-T11' },
  { key: 'guardBonusScope', ruling: 'R-T12' },
  { key: 'strayShotPool', ruling: 'R-T16' },
  { key: 'advantageLevels', ruling: 'R-T17' },
  { key: 'fortifyWithoutResources', ruling: 'R-T23' },
  { key: 'zeroHealthOverrides', ruling: 'R-T24' },
] as const;

export const teamsOptions = defineOptions([
  flag('prefillInstigatorAttack', {
    ruling: 'R-T1b', default: true, label: 'Pre-fill the instigating attack',
    description: 'The team may pick any member first; when the instigator\'s first turn comes, the attack that started the fight is pre-filled as their first action and the GM may waive it.',
  }),
  choice('roundStartTeam', {
    ruling: 'R-T2', default: 'firstTeam', label: 'Team that opens each round',
    description: 'Every round starts again with the first team in initiative; the cycle does not carry on from where the last round stopped.',
    choices: [
      { value: 'firstTeam', label: 'The first team in initiative' },
      { value: 'continueCycle', label: 'Carry on the cycle from the last round' },
    ],
  }),
  flag('surprisedCannotReact', {
    ruling: 'R-T5', default: true, label: 'Surprised characters cannot react',
    description: 'Surprised characters may take no reactions until the surprise round ends; unsurprisable characters may.',
  }),
  choice('reactionCap', {
    ruling: 'R-T6', default: 'both', label: 'Reaction limit',
    description: 'A reaction is available only if none was used since the owner\'s last turn start and none this round; Wait\'s extra reaction stays usable until the owner\'s next turn.',
    choices: [
      { value: 'both', label: 'Refreshed each turn and at most 1 per round' },
      { value: 'perTurnRefresh', label: 'Refreshed each turn, no per-round cap' },
      { value: 'strictPerRound', label: 'One per round, no turn-start refresh' },
    ],
  }),
  flag('readyUsesReaction', {
    ruling: 'R-T7', default: true, label: 'Ready uses the reaction',
    description: 'A readied action fires as a reaction and spends it; with no reaction available it cannot fire, and it expires at the owner\'s next turn start.',
  }),
  flag('stepExcludesMove', {
    ruling: 'R-T8', default: true, label: 'Step and Move exclude each other',
    description: 'In one turn a combatant may Step or Move, not both; a Step does not unlock Sprint.',
  }),
  choice('resuscitateDifficulty', {
    ruling: 'R-T13', default: 'missingHealth', label: 'Resuscitate difficulty',
    description: 'The GM sets the Resuscitate difficulty; the tool suggests the target\'s missing health.',
    choices: [
      { value: 'missingHealth', label: 'Suggest the target\'s missing health' },
      { value: 'gmSets', label: 'The GM enters it each time' },
    ],
  }),
  flag('freeReactionsPayResources', {
    ruling: 'R-T14', default: true, label: 'Free reactions still cost resources',
    description: 'A free reaction (after Intercept) does not use the reaction but its stamina or focus cost is still paid.',
  }),
  choice('multipleAttackPenaltyScope', {
    ruling: 'R-T15', default: 'allAttacks', label: 'Multiple attack penalty counts',
    description: 'Every attack this round counts toward the −2 per attack penalty, including attacks made as reactions, through Command, through maneuvers and killing strikes.',
    choices: [
      { value: 'allAttacks', label: 'All attacks, reactions and Command included' },
      { value: 'ownTurnOnly', label: 'Only attacks on one\'s own turn' },
    ],
  }),
  choice('killingStrikeTest', {
    ruling: 'R-T15b', default: 'attackTest', label: 'Killing strike test',
    description: 'The killing-strike test is built like an attack test (weapon attribute + combat skill + proficiency) with advantage against the target\'s constitution.',
    choices: [
      { value: 'attackTest', label: 'Attribute + combat skill + proficiency' },
      { value: 'combatSkillOnly', label: 'Combat skill only (literal text)' },
    ],
  }),
  choice('dodgeTarget', {
    ruling: 'R-T18', default: 'meetOrBeat', label: 'Dodge against the attack',
    description: 'The dodge test must meet or beat the attack\'s test total or the attack still hits; a crit cannot be dodged.',
    choices: [
      { value: 'meetOrBeat', label: 'Meet or beat the attack total' },
      { value: 'beat', label: 'Must exceed the attack total' },
    ],
  }),
  flag('parryAfterHit', {
    ruling: 'R-T19', default: true, label: 'Parry after the hit is known',
    description: 'Like Block, Parry may be chosen after the hit is known and before damage is applied. Off: a parry is declared with the attack, before the roll, and costs the reaction, 1 stamina and 1 durability even on a miss.',
  }),
  flag('damageUsesPenalisedTest', {
    ruling: 'R-T20', default: true, label: 'Damage uses the penalised test',
    description: 'Raw damage is the test result after the multiple attack penalty plus the weapon (or critical) damage.',
  }),
  choice('parryScope', {
    ruling: 'R-T21', default: 'physicalOnly', label: 'Parry adds to',
    description: 'Parry adds the item\'s parry value (or +1) to physical deflection only; it has no effect on elemental or typeless damage.',
    choices: [
      { value: 'physicalOnly', label: 'Physical deflection only' },
      { value: 'allDeflection', label: 'Physical and elemental deflection' },
    ],
  }),
  choice('blockOverflowDeflection', {
    ruling: 'R-T22', default: 'notApplied', label: 'Block overflow',
    description: 'Damage beyond a blocking item\'s durability hits the character as a normal hit without applying their deflection again.',
    choices: [
      { value: 'notApplied', label: 'No second deflection' },
      { value: 'applied', label: 'Apply the character\'s deflection too' },
    ],
  }),
  choice('killingStrikeWeapons', {
    ruling: 'R-T25', default: 'any', label: 'Killing strike weapons',
    description: 'Killing strikes may use any weapon, nonlethal ones included; lethal-only is an optional house rule.',
    choices: [
      { value: 'any', label: 'Any weapon, nonlethal included' },
      { value: 'lethalOnly', label: 'Lethal weapons only (house rule)' },
      { value: 'nonlethalOnly', label: 'Nonlethal weapons only (literal text)' },
    ],
  }),
  choice('poolsAfterCombat', {
    ruling: 'R-T26', default: 'keep', label: 'Pools after combat',
    description: 'Stamina, focus, endurance and health keep their current values when combat ends; recovery is a separate hook.',
    choices: [
      { value: 'keep', label: 'Keep current values' },
      { value: 'reset', label: 'Reset to maximum' },
    ],
  }),
  choice('overkillBasis', {
    ruling: 'R-T27', default: 'totalDamage', label: 'Overkill basis',
    description: 'A character at zero health risks death if the whole damage from the source (after reduction) exceeded the health left before it.',
    choices: [
      { value: 'totalDamage', label: 'Whole damage from the source' },
      { value: 'spilloverOnly', label: 'Only the part that reached health' },
    ],
  }),
], { retired: RETIRED_TEAMS_OPTIONS });

/** The encounter's or the campaign's rulings, typed by their declarations (read once per options object). */
export const rulingsOf = optionsReader(teamsOptions);
