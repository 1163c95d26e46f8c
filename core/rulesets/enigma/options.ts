// Enigma's rulings (RULES.md §1, Appendix A): each R-E ruling is a named option with the digest's default.
import { choice, defineOptions, flag, number, optionsReader } from '../options.ts';

/**
 * Rulings the digest gives one reading for are constants of the engine, not options (docs/rulesets/enigma.md,
 * "Rulings the app applies as constants"): R-E3 removalCursor, R-E5 unableToAct, R-E9 perilQueue, R-E12 rangedBands,
 * R-E13 escalationModifier, R-E19 stackDice, R-E24 newInjuryRoll, R-E26 injuryEffectBy. A campaign that stored one
 * still opens and saves: the stored value is accepted and dropped.
 */
export const RETIRED_ENIGMA_OPTIONS = [
  { key: 'removalCursor', ruling: 'R-E3' },
  { key: 'unableToAct', ruling: 'R-E5' },
  { key: 'perilQueue', ruling: 'R-E9' },
  { key: 'rangedBands', ruling: 'R-E12' },
  { key: 'escalationModifier', ruling: 'R-E13' },
  { key: 'stackDice', ruling: 'R-E19' },
  { key: 'newInjuryRoll', ruling: 'R-E24' },
  { key: 'injuryEffectBy', ruling: 'R-E26' },
] as const;

export const enigmaOptions = defineOptions([
  choice('npcChoice', {
    ruling: 'R-E1', default: 'either', label: 'Round-1 NPC choice',
    description: 'The GM may fix the NPC order up front or pick an enemy at each GM slot; the sequence is frozen after round 1.',
    choices: [
      { value: 'either', label: 'Up front or slot by slot' },
      { value: 'slotBySlot', label: 'Always slot by slot' },
    ],
  }),
  flag('ambushStartsWithGm', {
    ruling: 'R-E2', default: true, label: 'Ambush starts with the GM side',
    description: 'On: an ambush lets the GM side take the first slot and the alternation starts with an NPC (there is no separate surprise round). Off: the party always takes the first slot.',
  }),
  choice('lateArrivalPosition', {
    ruling: 'R-E4', default: 'gmChooses', label: 'Late arrivals join',
    description: 'A late arrival is appended at the end of the order unless the GM picks a position; "always at the end" refuses a position.',
    choices: [
      { value: 'gmChooses', label: 'At the end, or where the GM chooses' },
      { value: 'end', label: 'Always at the end of the order' },
    ],
  }),
  number('reactionDebtCap', {
    ruling: 'R-E6', default: 2, min: 1, max: 2, label: 'Reaction debt cap',
    description: 'A reaction is allowed only while the reactor owes fewer actions than this; debt is dropped when combat ends.',
  }),
  number('fullActionCost', {
    ruling: 'R-E7', default: 1, min: 1, max: 2, label: 'Cost of a full action',
    description: 'A "full action" costs this many actions and cannot be split or used as a reaction.',
  }),
  choice('npcAtZero', {
    ruling: 'R-E8', default: 'defeated', label: 'NPCs at 0 LP',
    description: 'An NPC at 0 LP is defeated and removed; the GM may flag a named NPC to face Mortal Peril instead.',
    choices: [
      { value: 'defeated', label: 'Defeated (named NPCs may opt in to Mortal Peril)' },
      { value: 'mortalPeril', label: 'Every NPC faces Mortal Peril' },
    ],
  }),
  flag('spotlightOrder', {
    ruling: 'R-E10', default: true, label: 'Spotlight order helper',
    description: 'The frozen party order is offered as a spotlight order for exploration and conversation.',
  }),
  flag('pauseCostsSpace', {
    ruling: 'R-E11', default: true, label: 'Pauses cost a space',
    description: 'Each pause during a Move takes 1 space off that Move; an action taken in the pause is paid separately.',
  }),
  choice('opposedTies', {
    ruling: 'R-E14', default: 'defender', label: 'Opposed ties',
    description: 'In an opposed roll the side that started the contest must beat the other: a tie goes to the defender.',
    choices: [
      { value: 'defender', label: 'Tie goes to the defender' },
      { value: 'attacker', label: 'Tie goes to the attacker' },
    ],
  }),
  choice('halfEscalationRounding', {
    ruling: 'R-E15', default: 'downMin1', label: 'Half-Escalation damage',
    description: 'Half Escalation is rounded down with a minimum of 1.',
    choices: [
      { value: 'downMin1', label: 'Round down, minimum 1' },
      { value: 'up', label: 'Round up' },
    ],
  }),
  choice('rangedDamage', {
    ruling: 'R-E16', default: 'full', label: 'Ranged damage',
    description: 'Ranged attacks deal full Escalation like melee attacks.',
    choices: [
      { value: 'full', label: 'Full Escalation' },
      { value: 'half', label: 'Half Escalation' },
    ],
  }),
  flag('attackRevealsHidden', {
    ruling: 'R-E17', default: true, label: 'Attacks and powers reveal the user',
    description: 'An attack, or a power used on a target, reveals a hidden user to its targets and every observer with line of sight (unless the power says otherwise).',
  }),
  choice('fixedDifficulty', {
    ruling: 'R-E18', default: 'meetOrBeat', label: 'Fixed difficulties',
    description: 'Improvised actions and daring moves succeed when the roll meets or beats the difficulty.',
    choices: [
      { value: 'meetOrBeat', label: 'Meet or beat' },
      { value: 'beat', label: 'Must exceed' },
    ],
  }),
  choice('escalationAtStart', {
    ruling: 'R-E20', default: 'carry', label: 'Escalation at combat start',
    description: 'Escalation is party-wide: a combat that starts while it is raised keeps the value in round 1 and adds 1 from round 2.',
    choices: [
      { value: 'carry', label: 'Carry the party value into round 1' },
      { value: 'alwaysOne', label: 'Always 1 at combat start' },
      { value: 'carryPlusOne', label: '+1 at round 1 too' },
    ],
  }),
  choice('maxLpDie', {
    ruling: 'R-E21', default: 'base', label: 'Max LP die',
    description: 'Max LP uses the base Endure die, so a diminished Endure die does not lower it.',
    choices: [
      { value: 'base', label: 'Base Endure die' },
      { value: 'current', label: 'Current Endure die' },
    ],
  }),
  choice('surviveLp', {
    ruling: 'R-E22', default: 'halfDownMin1', label: 'LP after Survive',
    description: 'Survive sets LP to half the maximum, rounded down, minimum 1.',
    choices: [
      { value: 'halfDownMin1', label: 'Half, rounded down, minimum 1' },
      { value: 'halfUp', label: 'Half, rounded up' },
    ],
  }),
  choice('injuryMultiplier', {
    ruling: 'R-E23', default: 'nTimes', label: 'Injury multiplier',
    description: 'The nth Survive in an encounter multiplies the injury duration by n, beyond the third as well.',
    choices: [
      { value: 'nTimes', label: 'n × 1d4' },
      { value: 'capAt3', label: 'At most 3 × 1d4' },
    ],
  }),
  choice('survivalCount', {
    ruling: 'R-E25', default: 'survives', label: 'What n counts',
    description: 'n counts Survives in the encounter, not injuries.',
    choices: [
      { value: 'survives', label: 'Survives' },
      { value: 'injuries', label: 'Injuries' },
    ],
  }),
  choice('manifestRollOfTen', {
    ruling: 'R-E27', default: 'reroll', label: 'Manifest list roll of 10',
    description: 'The Manifest list has 9 entries: a 10 on the d10 is rerolled or the GM chooses.',
    choices: [
      { value: 'reroll', label: 'Reroll' },
      { value: 'gmChooses', label: 'GM chooses' },
    ],
  }),
  flag('injuryStacking', {
    ruling: 'R-E28', default: true, label: 'Injury effects stack',
    description: 'Effects from several injuries add up; speed never drops below 1.',
  }),
  number('breatherDieSteps', {
    ruling: 'R-E29', default: 1, min: 1, max: 5, label: 'Breather die steps',
    description: 'A Breather raises one diminished capacity die by this many steps towards its base.',
  }),
  flag('stitcherSeveralInjuries', {
    ruling: 'R-E30', default: true, label: 'One Stitcher, several injuries',
    description: 'Stitcher treatment is at most −1 per injury per day; one Stitcher may treat several injuries a day.',
  }),
  flag('restsAreDays', {
    ruling: 'R-E31', default: true, label: 'Rests and days are one counter',
    description: '"Rests" and "days" count the same; Breathers do not count towards injury recovery.',
  }),
], { retired: RETIRED_ENIGMA_OPTIONS });

/** The encounter's or the campaign's rulings, typed by their declarations (read once per options object). */
export const rulingsOf = optionsReader(enigmaOptions);
