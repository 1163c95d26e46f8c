// Factions' rulings (RULES.md §3, Appendix A; the game is Murdham): each R-F ruling is a named option with the digest's default.
import { choice, defineOptions, flag, optionsReader } from '../options.ts';

/**
 * Rulings the digest gives one reading for are constants of the engine, not options (docs/rulesets/factions.md,
 * "Rulings the app applies as constants"): R-F1 factionCycle, R-F2 ambushTurnLoop, R-F3 forcedPasses, R-F4
 * passCounting, R-F5 reactionsOutsideCycle, R-F8 moraleTrigger, R-F9 surrender, R-F10 endOfFight, R-F11 whileMoving,
 * R-F13 counterOrder, R-F18 damagedWeaponBreaks, R-F21 armourUsed. A campaign that stored one still opens and saves:
 * the stored value is accepted and dropped.
 */
export const RETIRED_FACTIONS_OPTIONS = [
  { key: 'factionCycle', ruling: 'R-F1' },
  { key: 'ambushTurnLoop', ruling: 'R-F2' },
  { key: 'forcedPasses', ruling: 'R-F3' },
  { key: 'passCounting', ruling: 'R-F4' },
  { key: 'reactionsOutsideCycle', ruling: 'R-F5' },
  { key: 'moraleTrigger', ruling: 'R-F8' },
  { key: 'surrender', ruling: 'R-F9' },
  { key: 'endOfFight', ruling: 'R-F10' },
  { key: 'whileMoving', ruling: 'R-F11' },
  { key: 'counterOrder', ruling: 'R-F13' },
  { key: 'damagedWeaponBreaks', ruling: 'R-F18' },
  { key: 'armourUsed', ruling: 'R-F21' },
] as const;

export const factionsOptions = defineOptions([
  choice('initiativePerPhase', {
    ruling: 'R-F6', default: 'eachPhase', label: 'First faction with fast/slow phases',
    description: 'With fast and slow activations on, the initiative holder chooses the first faction separately in each phase.',
    choices: [
      { value: 'eachPhase', label: 'Chosen in each phase' },
      { value: 'oncePerRound', label: 'Chosen once per round' },
    ],
  }),
  flag('pcMorale', {
    ruling: 'R-F7', default: true, label: 'PCs check morale',
    description: 'Every group and lone fighter, PC or NPC, checks morale; turning this off is the NPC-only house rule. A group is GM-defined, one per faction by default.',
  }),
  choice('loneFighter', {
    ruling: 'R-F8b', default: 'startedAlone', label: 'Who fights alone',
    description: '"Fighting alone" means a group that began the fight with one member; it checks once damage leaves its health at half of maximum or less.',
    choices: [
      { value: 'startedAlone', label: 'A group that began with one member' },
      { value: 'lastStanding', label: 'Also the last one standing of a group' },
    ],
  }),
  flag('counterMustBeLegal', {
    ruling: 'R-F12', default: true, label: 'Counters must be legal attacks',
    description: 'A counter must be a legal attack on the attacker, including any WIT save to hit it would need.',
  }),
  flag('grabbedMayReact', {
    ruling: 'R-F14', default: false, label: 'Grabbed characters may react',
    description: 'A grabbed character used to hide behind gets no reaction of its own unless the GM rules that Entangled allows it.',
  }),
  choice('redirectionChain', {
    ruling: 'R-F15', default: 'noRepeats', label: 'Chained redirections',
    description: 'Hide behind and Guard may chain, but the same character cannot become the target twice.',
    choices: [
      { value: 'noRepeats', label: 'Chains allowed, no character twice' },
      { value: 'once', label: 'Only one redirection per attack' },
    ],
  }),
  choice('impairedMode', {
    ruling: 'R-F16', default: 'twiceKeepLower', label: 'Impaired damage',
    description: 'Impaired damage rolls the die twice and keeps the lower; impaired and enhanced cancel one for one, impaired twice deals 0, and several enhancements count as one.',
    choices: [
      { value: 'twiceKeepLower', label: 'Roll twice, keep the lower' },
      { value: 'flatD4', label: 'Roll a d4 instead (Cairn-style)' },
    ],
  }),
  choice('armourFloor', {
    ruling: 'R-F17', default: 'zero', label: 'Armour reduction',
    description: 'Damage after armour is max(0, damage − armour): armour can stop a hit completely.',
    choices: [
      { value: 'zero', label: 'Can reduce to 0' },
      { value: 'one', label: 'Minimum 1' },
    ],
  }),
  choice('heavyHitDestroys', {
    ruling: 'R-F18b', default: 'oneItem', label: 'Hits of 8 or more',
    description: 'One attack of 8 or more before armour destroys at most one item: the damaged shield if there is one, otherwise damaged armour.',
    choices: [
      { value: 'oneItem', label: 'At most one item, shield first' },
      { value: 'shieldAndArmour', label: 'Both damaged shield and armour' },
    ],
  }),
  flag('meleeBlastDodgeable', {
    ruling: 'R-F19', default: true, label: 'Melee blasts can be dodged',
    description: '"Can never miss" means a melee blast needs no WIT save; each target may still dodge.',
  }),
  choice('healthModel', {
    ruling: 'R-F20', default: 'murdham', label: 'Health model',
    description: 'Murdham\'s own rule: health equals STR; losing at least half of current health in one hit incapacitates, losing all of it means dying, and damage of at least maximum health kills outright.',
    choices: [
      { value: 'murdham', label: 'Murdham (health = STR, half in one hit incapacitates)' },
      { value: 'hpZeroIncapacitates', label: 'Plain HP, incapacitated at 0' },
    ],
  }),
  choice('damagedFailsAgain', {
    ruling: 'R-F22', default: 'staysDamaged', label: 'Damaged item fails durability',
    description: 'An already damaged item that fails its durability roll stays damaged; items are destroyed only by a 1 on the damage die or a hit of 8 or more.',
    choices: [
      { value: 'staysDamaged', label: 'Stays damaged' },
      { value: 'destroyed', label: 'Is destroyed' },
    ],
  }),
  // Murdham's optional rules are not rulings on gaps, but campaigns choose them the same way (RULES.md §3.2).
  flag('fastSlow', {
    ruling: 'Optional rule', default: false, label: 'Fast and slow activations',
    description: 'Each round rolls FAT: characters with WIT at or above it act in a fast phase, everyone left in a slow phase.',
  }),
  flag('chaosOfCombat', {
    ruling: 'Optional rule', default: false, label: 'Chaos of combat',
    description: 'A player who has not declared a turn within 15 seconds loses it. The GM\'s characters are not timed.',
  }),
  flag('chaosTimeoutAtZero', {
    ruling: 'Optional rule', default: true, label: 'Chaos of combat: the turn is lost at zero',
    description: 'With the chaos of combat in play, the countdown ends the player\'s turn by itself when it reaches zero; off, the GM sends "15 s passed".',
  }),
], { retired: RETIRED_FACTIONS_OPTIONS });

/** The encounter's or the campaign's rulings, typed by their declarations (read once per options object). */
export const rulingsOf = optionsReader(factionsOptions);
