// Factions' rulings (RULES.md §3, Appendix A; the game is Murdham): each R-F ruling is a named option with the digest's default.
import type { RulingOption } from '../options.ts';

export const factionsOptions: readonly RulingOption[] = [
  {
    key: 'factionCycle', ruling: 'R-F1', kind: 'choice', default: 'gmCycle', label: 'Three or more factions',
    description: 'The GM sets a cyclic order of factions at setup; each round starts at the faction the initiative holder names and follows the cycle.',
    choices: [{ value: 'gmCycle', label: 'GM-set cycle, started where the holder names' }],
  },
  {
    key: 'ambushTurnLoop', ruling: 'R-F2', kind: 'choice', default: 'takeOrPass', label: 'Ambush bonus turn',
    description: 'In the ambush bonus turn, factions with concealed characters use the same take-a-turn-or-pass loop and the initiative holder picks the first faction.',
    choices: [{ value: 'takeOrPass', label: 'Same take-a-turn-or-pass loop' }],
  },
  {
    key: 'forcedPasses', ruling: 'R-F3', kind: 'choice', default: 'autoPassCounts', label: 'Forced passes',
    description: 'A faction with no eligible character passes automatically and the pass counts; a faction with eligible characters may still pass on purpose.',
    choices: [{ value: 'autoPassCounts', label: 'Automatic pass, counted' }],
  },
  {
    key: 'passCounting', ruling: 'R-F4', kind: 'choice', default: 'allInARow', label: 'Counting passes',
    description: 'The round (or phase) ends when every faction has passed in a row, wherever the run of passes began; a character\'s turn resets the count.',
    choices: [{ value: 'allInARow', label: 'Every faction passes in a row' }],
  },
  {
    key: 'reactionsOutsideCycle', ruling: 'R-F5', kind: 'choice', default: 'outsideCycle', label: 'Reactions and the cycle',
    description: 'A reaction uses up the reactor\'s turn for the round but does not move the faction cursor or reset the pass count.',
    choices: [{ value: 'outsideCycle', label: 'Outside the cycle' }],
  },
  {
    key: 'initiativePerPhase', ruling: 'R-F6', kind: 'choice', default: 'eachPhase', label: 'First faction with fast/slow phases',
    description: 'With fast and slow activations on, the initiative holder chooses the first faction separately in each phase.',
    choices: [
      { value: 'eachPhase', label: 'Chosen in each phase' },
      { value: 'oncePerRound', label: 'Chosen once per round' },
    ],
  },
  {
    key: 'pcMorale', ruling: 'R-F7', kind: 'flag', default: true, label: 'PCs check morale',
    description: 'Every group and lone fighter, PC or NPC, checks morale; turning this off is the NPC-only house rule. A group is GM-defined, one per faction by default.',
  },
  {
    key: 'moraleTrigger', ruling: 'R-F8', kind: 'choice', default: 'halfOrLess', label: 'Morale triggers',
    description: 'A group checks in the first morale phase after dropping to half or less of its starting number; one d20 is compared with each non-immune member\'s WIT, and passing grants immunity until the stretch ends.',
    choices: [{ value: 'halfOrLess', label: 'Half or less; one d20 against each WIT' }],
  },
  {
    key: 'loneFighter', ruling: 'R-F8b', kind: 'choice', default: 'startedAlone', label: 'Who fights alone',
    description: '"Fighting alone" means a group that began the fight with one member; it checks once damage leaves its health at half of maximum or less.',
    choices: [
      { value: 'startedAlone', label: 'A group that began with one member' },
      { value: 'lastStanding', label: 'Also the last one standing of a group' },
    ],
  },
  {
    key: 'surrender', ruling: 'R-F9', kind: 'choice', default: 'usesTurn', label: 'Surrender',
    description: 'Surrendering wastes the character\'s turn; if an enemy harms a surrendered character, surrender and failed morale are cleared and it may fight again.',
    choices: [{ value: 'usesTurn', label: 'Uses the turn; harm lifts it' }],
  },
  {
    key: 'endOfFight', ruling: 'R-F10', kind: 'choice', default: 'oneFactionLeft', label: 'End of the fight',
    description: 'A faction is out when every member is dead, incapacitated, surrendered or gone; the fight ends when at most one faction is still in, or when the GM ends it.',
    choices: [{ value: 'oneFactionLeft', label: 'At most one faction still in' }],
  },
  {
    key: 'whileMoving', ruling: 'R-F11', kind: 'choice', default: 'zoneMoveThisTurn', label: '"While moving"',
    description: 'An attacker is "moving" when it uses its zone move in the same turn, before or after the attack.',
    choices: [{ value: 'zoneMoveThisTurn', label: 'Zone move used this turn' }],
  },
  {
    key: 'counterMustBeLegal', ruling: 'R-F12', kind: 'flag', default: true, label: 'Counters must be legal attacks',
    description: 'A counter must be a legal attack on the attacker, including any WIT save to hit it would need.',
  },
  {
    key: 'counterOrder', ruling: 'R-F13', kind: 'choice', default: 'onlyIfDropped', label: 'Counter order',
    description: 'The larger hit lands first; order only matters when that hit incapacitates or kills, in which case the other attack does not land.',
    choices: [{ value: 'onlyIfDropped', label: 'A dropped combatant\'s attack does not land' }],
  },
  {
    key: 'grabbedMayReact', ruling: 'R-F14', kind: 'flag', default: false, label: 'Grabbed characters may react',
    description: 'A grabbed character used to hide behind gets no reaction of its own unless the GM rules that Entangled allows it.',
  },
  {
    key: 'redirectionChain', ruling: 'R-F15', kind: 'choice', default: 'noRepeats', label: 'Chained redirections',
    description: 'Hide behind and Guard may chain, but the same character cannot become the target twice.',
    choices: [
      { value: 'noRepeats', label: 'Chains allowed, no character twice' },
      { value: 'once', label: 'Only one redirection per attack' },
    ],
  },
  {
    key: 'impairedMode', ruling: 'R-F16', kind: 'choice', default: 'twiceKeepLower', label: 'Impaired damage',
    description: 'Impaired damage rolls the die twice and keeps the lower; impaired and enhanced cancel one for one, impaired twice deals 0, and several enhancements count as one.',
    choices: [
      { value: 'twiceKeepLower', label: 'Roll twice, keep the lower' },
      { value: 'flatD4', label: 'Roll a d4 instead (Cairn-style)' },
    ],
  },
  {
    key: 'armourFloor', ruling: 'R-F17', kind: 'choice', default: 'zero', label: 'Armour reduction',
    description: 'Damage after armour is max(0, damage − armour): armour can stop a hit completely.',
    choices: [
      { value: 'zero', label: 'Can reduce to 0' },
      { value: 'one', label: 'Minimum 1' },
    ],
  },
  {
    key: 'damagedWeaponBreaks', ruling: 'R-F18', kind: 'choice', default: 'afterAttack', label: 'Damaged weapon rolls a 1',
    description: 'A damaged weapon or shield whose damage die shows a 1 is destroyed after the attack resolves; the attack still lands.',
    choices: [{ value: 'afterAttack', label: 'Destroyed after the attack resolves' }],
  },
  {
    key: 'heavyHitDestroys', ruling: 'R-F18b', kind: 'choice', default: 'oneItem', label: 'Hits of 8 or more',
    description: 'One attack of 8 or more before armour destroys at most one item: the damaged shield if there is one, otherwise damaged armour.',
    choices: [
      { value: 'oneItem', label: 'At most one item, shield first' },
      { value: 'shieldAndArmour', label: 'Both damaged shield and armour' },
    ],
  },
  {
    key: 'meleeBlastDodgeable', ruling: 'R-F19', kind: 'flag', default: true, label: 'Melee blasts can be dodged',
    description: '"Can never miss" means a melee blast needs no WIT save; each target may still dodge.',
  },
  {
    key: 'healthModel', ruling: 'R-F20', kind: 'choice', default: 'murdham', label: 'Health model',
    description: 'Murdham\'s own rule: health equals STR; losing at least half of current health in one hit incapacitates, losing all of it means dying, and damage of at least maximum health kills outright.',
    choices: [
      { value: 'murdham', label: 'Murdham (health = STR, half in one hit incapacitates)' },
      { value: 'hpZeroIncapacitates', label: 'Plain HP, incapacitated at 0' },
    ],
  },
  {
    key: 'armourUsed', ruling: 'R-F21', kind: 'choice', default: 'attackedOrBlocked', label: 'Armour counts as used',
    description: 'After a fight, armour or a shield rolls durability if its wearer was attacked or it blocked damage.',
    choices: [{ value: 'attackedOrBlocked', label: 'Wearer attacked or it blocked damage' }],
  },
  {
    key: 'damagedFailsAgain', ruling: 'R-F22', kind: 'choice', default: 'staysDamaged', label: 'Damaged item fails durability',
    description: 'An already damaged item that fails its durability roll stays damaged; items are destroyed only by a 1 on the damage die or a hit of 8 or more.',
    choices: [
      { value: 'staysDamaged', label: 'Stays damaged' },
      { value: 'destroyed', label: 'Is destroyed' },
    ],
  },
  // Murdham's optional rules are not rulings on gaps, but campaigns choose them the same way (RULES.md §3.2).
  {
    key: 'fastSlow', ruling: 'Optional rule', kind: 'flag', default: false, label: 'Fast and slow activations',
    description: 'Each round rolls FAT: characters with WIT at or above it act in a fast phase, everyone left in a slow phase.',
  },
  {
    key: 'chaosOfCombat', ruling: 'Optional rule', kind: 'flag', default: false, label: 'Chaos of combat',
    description: 'A player who has not declared a turn within 15 seconds loses it. The GM\'s characters are not timed.',
  },
  {
    key: 'chaosTimeoutAtZero', ruling: 'Optional rule', kind: 'flag', default: true, label: 'Chaos of combat: the turn is lost at zero',
    description: 'With the chaos of combat in play, the countdown ends the player\'s turn by itself when it reaches zero; off, the GM sends "15 s passed".',
  },
];
