// Cairn-Errant's rulings (RULES.md §4, Appendix A; the hack is Block, Dodge & Parry): each R-C ruling is a named
// option with the digest's default. The hack's optional modules (§4.2 initiative mode and melee clashes, §4.4 the
// Block/Dodge variants and hit locations, §4.6 wounds) are options too, filed under the ruling they belong with.
import { choice, defineOptions, flag, number, optionsReader } from '../options.ts';

/**
 * Rulings the digest gives one reading for are constants of the engine, not options (docs/rulesets/cairn-errant.md,
 * "Rulings the app applies as constants"): R-C2 clashSortKeys, R-C3 clashScope, R-C4 lockedIntents, R-C5 bucketOrder,
 * R-C6 legInjuryInitiative, R-C6b fastMovementLoss, R-C7 endOfFight, R-C9 defenceCap, R-C10 failedRetreat,
 * R-C20 highestDieTie, R-C21 exactlyZeroHp, R-C25 fatigueClears, R-C26 woundSlotOverflow.
 * A campaign that stored one still opens and saves: the stored value is accepted and dropped.
 */
export const RETIRED_CAIRN_ERRANT_OPTIONS = [
  { key: 'clashSortKeys', ruling: 'R-C2' },
  { key: 'clashScope', ruling: 'R-C3' },
  { key: 'lockedIntents', ruling: 'R-C4' },
  { key: 'bucketOrder', ruling: 'R-C5' },
  { key: 'legInjuryInitiative', ruling: 'R-C6' },
  { key: 'fastMovementLoss', ruling: 'R-C6b' },
  { key: 'endOfFight', ruling: 'R-C7' },
  { key: 'defenceCap', ruling: 'R-C9' },
  { key: 'failedRetreat', ruling: 'R-C10' },
  { key: 'highestDieTie', ruling: 'R-C20' },
  { key: 'exactlyZeroHp', ruling: 'R-C21' },
  { key: 'fatigueClears', ruling: 'R-C25' },
  { key: 'woundSlotOverflow', ruling: 'R-C26' },
] as const;

export const cairnErrantOptions = defineOptions([
  choice('initiativeMode', {
    ruling: 'R-C1', default: 'errant', label: 'Initiative',
    description: 'Errant (this hack): declare every round, quick turns before full turns, DEX saves inside each tier. Simple DEX (base Cairn): one DEX save at the start, passers before the enemies and failers after, every round.',
    choices: [
      { value: 'errant', label: 'Declared intents, quick and full turns (Errant)' },
      { value: 'simpleDex', label: 'One DEX save at the start (base Cairn)' },
    ],
  }),
  flag('bucketIsOneMoment', {
    ruling: 'R-C1', default: true, label: 'A bucket is one moment',
    description: 'Everything in one initiative bucket happens at the same moment, so several attackers on one target keep only the highest die.',
  }),
  flag('meleeClashes', {
    ruling: 'R-C2', default: false, label: 'Melee clashes (optional rule)',
    description: 'Two combatants attacking each other in melee strike in weapon order (entering Close: Reach, slow, balanced, fast; already Close: the reverse), enhanced before normal before impaired.',
  }),
  choice('blockDodge', {
    ruling: 'R-C9', default: 'default', label: 'Blocking and dodging (optional rule)',
    description: 'Default: Block impairs fast and balanced attacks, Dodge impairs balanced and slow ones. Restrict: blocking needs a shield or a balanced/heavy melee weapon; no dodging at Armor 3 or with a heavy weapon. Graded: with the gear they negate, without it they impair.',
    choices: [
      { value: 'default', label: 'As written' },
      { value: 'restrict', label: 'Restrict by gear' },
      { value: 'graded', label: 'Negate with the right gear, impair without' },
    ],
  }),
  choice('gambitOrder', {
    ruling: 'R-C2', default: 'withClashes', label: 'Gambits ranked by weapon size',
    description: 'Source: "For determining the priority of Gambits in the initiative order, use the size of your weapon as described in Melee Clashes." With clashes: only when the optional clash rule is on (the digest). Always: two combatants in a melee exchange where one makes a gambit are ranked by the clash order even without the optional rule.',
    choices: [
      { value: 'withClashes', label: 'Only with the melee clash rule' },
      { value: 'always', label: 'Always, for an exchange with a gambit' },
    ],
  }),
  number('parryFatigue', {
    ruling: 'R-C8', default: 0, min: 0, max: 1, label: 'Fatigue for a Parry',
    description: 'As written, Parry adds no Fatigue (Fight back, Block and Dodge add 1).',
  }),
  choice('enhancedMode', {
    ruling: 'R-C11', default: 'keepHighest', label: 'Enhanced damage',
    description: 'An enhanced attack rolls a d12 as well as its normal die and keeps the higher.',
    choices: [
      { value: 'keepHighest', label: 'Keep the higher die' },
      { value: 'sum', label: 'Add both dice' },
      { value: 'replace', label: 'Roll a d12 instead (base Cairn)' },
    ],
  }),
  flag('enhancedImpairedCancel', {
    ruling: 'R-C12', default: true, label: 'Enhanced and impaired cancel',
    description: 'An attack that is both enhanced and impaired rolls normally.',
  }),
  flag('directStrDamageSaves', {
    ruling: 'R-C13', default: true, label: 'Direct STR damage calls for a save',
    description: 'Damage that goes straight to STR (unaware or overburdened targets, after Armor) still calls for the Critical Damage save; only Parry is exempt.',
  }),
  flag('downedCannotFightBack', {
    ruling: 'R-C14', default: true, label: 'Downed PCs cannot fight back',
    description: 'If the incoming damage kills the PC or leaves them incapacitated or unconscious, their fight-back does not happen.',
  }),
  choice('fightBackReach', {
    ruling: 'R-C28', origin: 'app', default: 'inReach', label: 'Fight back against a ranged attacker',
    description: 'A fight-back deals "your damage against it", so the attacker must be in reach: a ranged attacker only when the range bands put it Close, or when the defender\'s weapon is a ranged one. Any attacker: the literal "Choose one attacker", at any distance.',
    choices: [
      { value: 'inReach', label: 'Only an attacker in reach (Close, or with a ranged weapon)' },
      { value: 'anyAttacker', label: 'Any attacker, at any distance' },
    ],
  }),
  choice('farMelee', {
    ruling: 'R-C29', origin: 'app', default: 'fullTurn', label: 'Melee strike at a Far foe',
    description: 'Far "takes one or multiple Move Actions in combat to get here". One move: closing in and striking is a full turn ("Moving close to an enemy before making a melee attack"). More: closing from Far is "moving two range bands", a full turn of its own, so no melee strike or gambit at a Far foe this round.',
    choices: [
      { value: 'fullTurn', label: 'One full turn: move close, then strike' },
      { value: 'outOfReach', label: 'Out of reach this round: close in first' },
    ],
  }),
  flag('parryIgnoresArmor', {
    ruling: 'R-C15', default: false, label: 'Parry ignores Armor',
    description: 'Parry damage goes straight to STR, skipping HP, but Armor is still subtracted unless this is on.',
  }),
  choice('naturalOneVsDifficulty', {
    ruling: 'R-C16', default: 'fails', label: 'Natural 1 against a gambit Difficulty',
    description: 'A save against a gambit passes only if it is at most the attribute and above the Difficulty, so a natural 1 fails when there is a Difficulty.',
    choices: [
      { value: 'fails', label: 'Fails' },
      { value: 'passes', label: 'Always passes' },
    ],
  }),
  flag('noReactionToAttackBack', {
    ruling: 'R-C17', default: true, label: 'No reaction to an attack back',
    description: 'The gambit user cannot react to the attack back from a target that passed its save. Off: if it could defend at all, it picks a reaction (Block, Dodge, Parry or fight back, with their Fatigue) before the attack back is rolled.',
  }),
  flag('fightBackAgainstGambits', {
    ruling: 'R-C18', default: false, label: 'Fight back against gambits',
    description: 'Gambits do no damage, so fight-back is not allowed against them (nor Block, Dodge or Parry).',
  }),
  choice('gambitDifficulty', {
    ruling: 'R-C19', default: 'literal', label: 'Gambit Difficulty',
    description: 'As written, a gambit roll of 1–3 is the Difficulty and 4+ means none, so the result does not rise steadily with the roll; "capped" uses min(roll, 3).',
    choices: [
      { value: 'literal', label: 'Literal: 1–3 is the Difficulty, 4+ none' },
      { value: 'capped', label: 'Capped: Difficulty = min(roll, 3)' },
    ],
  }),
  flag('hitLocations', {
    ruling: 'R-C22', default: false, label: 'Critical hit locations (optional rule)',
    description: 'A PC who suffers critical damage rolls a d10 on the hit-location table instead of the d6; every result adds an Injury to the inventory.',
  }),
  choice('headResult', {
    ruling: 'R-C22', default: 'death', label: 'Head hit location',
    description: 'A head result on the hit-location table means death unless the GM rules otherwise.',
    choices: [
      { value: 'death', label: 'Death unless the GM overrides' },
      { value: 'gmDecides', label: 'Ask the GM every time' },
    ],
  }),
  choice('npcCriticalDamage', {
    ruling: 'R-C23', default: 'defeated', label: 'NPC fails the Critical Damage save',
    description: 'An NPC that fails the save is defeated (dead or out, the GM\'s call); if the GM keeps it fighting, its attacks are impaired.',
    choices: [
      { value: 'defeated', label: 'Defeated' },
      { value: 'fightsOnImpaired', label: 'Keeps fighting, impaired' },
    ],
  }),
  choice('dexWilZero', {
    ruling: 'R-C24', default: 'either', label: 'DEX or WIL at 0',
    description: 'Either DEX or WIL at 0 leaves the character unable to act until an extended rest or something extraordinary restores it.',
    choices: [
      { value: 'either', label: 'Either one at 0' },
      { value: 'both', label: 'Only both at 0' },
    ],
  }),
  flag('wounds', {
    ruling: 'R-C26', default: true, label: 'Wounds (optional module)',
    description: 'Fire, electricity, cold and poison (and some creatures) inflict Light, Severe or Permanent wounds that take inventory slots.',
  }),
  flag('treatedStaysOut', {
    ruling: 'R-C27', default: true, label: 'Treated PCs stay out',
    description: 'Treating an incapacitated PC stops the death clock, but the PC stays out of the fight until healed.',
  }),
], { retired: RETIRED_CAIRN_ERRANT_OPTIONS });

/** The encounter's or the campaign's rulings, typed by their declarations (read once per options object). */
export const rulingsOf = optionsReader(cairnErrantOptions);
