// Teams' character sheet (RULES.md §2.4–2.6, §6.5): the dice and bonuses the attack test reads, the defences,
// and the persistent pools (endurance, health, stamina, focus) plus the cheat-death difficulty.
import type { SheetSchema } from '../sheet.ts';

const TRAIT_SIZES = [4, 6, 8, 10, 12] as const;

export const teamsSheet: SheetSchema = {
  fields: [
    {
      kind: 'die', key: 'strength', label: 'Strength', group: 'Attributes', default: 6, sizes: TRAIT_SIZES,
      help: 'Rolled in attack tests with weapons that allow it, and in Fortify (strength + athletics + fortitude).',
    },
    {
      kind: 'die', key: 'dexterity', label: 'Dexterity', group: 'Attributes', default: 6, sizes: TRAIT_SIZES,
      help: 'Rolled in attack tests with weapons that allow it.',
    },
    {
      kind: 'die', key: 'combatSkill', label: 'Combat skill', group: 'Skills and proficiencies', default: 6, sizes: TRAIT_SIZES,
      help: 'Added to every attack test and to the killing-strike test (§2.4 steps 2 and 15).',
    },
    {
      kind: 'die', key: 'athletics', label: 'Athletics', group: 'Skills and proficiencies', default: 4, sizes: TRAIT_SIZES,
      help: 'Rolled in Fortify tests.',
    },
    {
      kind: 'integer', key: 'martial', label: 'Martial proficiency', group: 'Skills and proficiencies', default: 0, min: 0, max: 10,
      help: 'Bonus added to attack tests with weapons that allow martial.',
    },
    {
      kind: 'integer', key: 'finesse', label: 'Finesse proficiency', group: 'Skills and proficiencies', default: 0, min: 0, max: 10,
      help: 'Bonus added to attack tests with weapons that allow finesse.',
    },
    {
      kind: 'integer', key: 'fortitude', label: 'Fortitude proficiency', group: 'Skills and proficiencies', default: 0, min: 0, max: 10,
      help: 'Bonus added to Fortify tests.',
    },
    {
      kind: 'die', key: 'luckDie', label: 'Luck die', group: 'Luck', default: 20,
      help: 'Rolled with every test: a crit at or above the weapon\'s threshold, a stray shot at 1 or less, and the cheat-death test (§2.4).',
    },
    {
      kind: 'integer', key: 'cheatDeathDifficulty', label: 'Cheat-death difficulty', group: 'Luck', default: 10, min: 10, max: 200,
      help: 'Luck test to survive overkill at zero health; +5 permanently after every success (§2.4 step 13).',
    },
    {
      kind: 'integer', key: 'evasion', label: 'Evasion', group: 'Defences', default: 6, min: 0, max: 50,
      help: 'An attack hits if its test meets or beats this (§2.4 step 6).',
    },
    {
      kind: 'integer', key: 'physicalDeflection', label: 'Physical deflection', group: 'Defences', default: 0, min: 0, max: 50,
      help: 'Reduces bludgeoning, piercing and slashing damage, to a minimum of 1 (§2.4 step 9).',
    },
    {
      kind: 'integer', key: 'elementalDeflection', label: 'Elemental deflection', group: 'Defences', default: 0, min: 0, max: 50,
      help: 'Reduces arcane, cold, fire, radiant, shock and void damage; typeless damage is never reduced.',
    },
    {
      kind: 'integer', key: 'size', label: 'Size', group: 'Defences', default: 4, min: 1, max: 8,
      help: 'Medium 4, small 3; the difference shifts evasion and deflection for the attack (§2.4 step 5).',
    },
    {
      kind: 'integer', key: 'speed', label: 'Speed (m)', group: 'Defences', default: 6, min: 0, max: 50,
      help: 'Metres per Move; the value is set outside the combat chapter.',
    },
    {
      kind: 'integer', key: 'enduranceMax', label: 'Endurance maximum', group: 'Pools', default: 12, min: 0, max: 999,
      help: 'Harmed while endurance is at half this or less.',
    },
    {
      kind: 'integer', key: 'endurance', label: 'Endurance', group: 'Pools', default: 12, min: 0, max: 999,
      help: 'Soaks damage before health (§2.4 step 11).',
    },
    {
      kind: 'integer', key: 'healthMax', label: 'Health maximum', group: 'Pools', default: 12, min: 1, max: 999,
      help: 'Bloodied while health is below this.',
    },
    {
      kind: 'integer', key: 'health', label: 'Health', group: 'Pools', default: 12, min: 0, max: 999,
      help: 'Zero health means unconscious, and death risk on overkill (§2.4 step 13).',
    },
    {
      kind: 'integer', key: 'constitution', label: 'Constitution', group: 'Pools', default: 4, min: 0, max: 999,
      help: 'Missing health greater than this calls for Fortify or unconsciousness (§2.4 step 12).',
    },
    {
      kind: 'integer', key: 'staminaMax', label: 'Stamina maximum', group: 'Pools', default: 4, min: 0, max: 999,
    },
    {
      kind: 'integer', key: 'stamina', label: 'Stamina', group: 'Pools', default: 4, min: 0, max: 999,
      help: 'Spent on Block, Dodge, Fortify, Intercept, Parry and Sprint (§2.3).',
    },
    {
      kind: 'integer', key: 'focusMax', label: 'Focus maximum', group: 'Pools', default: 4, min: 0, max: 999,
    },
    {
      kind: 'integer', key: 'focus', label: 'Focus', group: 'Pools', default: 4, min: 0, max: 999,
      help: 'Spent on Resist (1) and Command (2) (§2.3).',
    },
    {
      kind: 'flag', key: 'unconscious', label: 'Unconscious', group: 'Condition', default: false,
      help: 'Cannot act and loses its turn until brought back (Resuscitate, §2.3).',
    },
    {
      kind: 'flag', key: 'unsurprisable', label: 'Cannot be surprised', group: 'Condition', default: false,
      help: 'Acts in a surprise round even when the team is surprised (e.g. danger sense, §2.2).',
    },
    { kind: 'text', key: 'notes', label: 'Notes', group: 'Details', default: '', maxLength: 4000, multiline: true },
  ],
};
