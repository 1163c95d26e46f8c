// Teams' character sheet (RULES.md §2.4–2.6, §6.5): the dice and bonuses the attack test reads, the defences,
// and the persistent pools (endurance, health, stamina, focus) plus the cheat-death difficulty.
import { pool, type SheetSchema } from '../sheet.ts';

const TRAIT_SIZES = [4, 6, 8, 10, 12] as const;

export const teamsSheet: SheetSchema = {
  mainPool: { label: 'Health', keys: ['healthMax', 'health'] },
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
      kind: 'die', key: 'combatSkill', label: 'Combat skill', short: 'Combat', group: 'Skills and proficiencies', default: 6, sizes: TRAIT_SIZES,
      help: 'Added to every attack test and to the killing-strike test (§2.4 steps 2 and 15).',
    },
    {
      kind: 'die', key: 'athletics', label: 'Athletics', group: 'Skills and proficiencies', default: 4, sizes: TRAIT_SIZES,
      help: 'Rolled in Fortify tests.',
    },
    {
      kind: 'integer', key: 'martial', label: 'Martial proficiency', short: 'Martial', group: 'Skills and proficiencies', default: 0, min: 0, max: 10,
      help: 'Bonus added to attack tests with weapons that allow martial.',
    },
    {
      kind: 'integer', key: 'finesse', label: 'Finesse proficiency', short: 'Finesse', group: 'Skills and proficiencies', default: 0, min: 0, max: 10,
      help: 'Bonus added to attack tests with weapons that allow finesse.',
    },
    {
      kind: 'integer', key: 'fortitude', label: 'Fortitude proficiency', short: 'Fortitude', group: 'Skills and proficiencies', default: 0, min: 0, max: 10,
      help: 'Bonus added to Fortify tests.',
    },
    {
      kind: 'die', key: 'luckDie', label: 'Luck die', short: 'Luck', group: 'Luck', default: 20,
      help: 'Rolled with every test: a crit at or above the weapon\'s threshold, a stray shot at 1 or less, and the cheat-death test (§2.4).',
    },
    {
      kind: 'integer', key: 'cheatDeathDifficulty', label: 'Cheat-death difficulty', short: 'Cheat death', group: 'Luck', default: 10, min: 10, max: 200,
      help: 'Luck test to survive overkill at zero health; +5 permanently after every success (§2.4 step 13).',
    },
    {
      kind: 'integer', key: 'evasion', label: 'Evasion', group: 'Defences', default: 6, min: 0, max: 50,
      help: 'An attack hits if its test meets or beats this (§2.4 step 6).',
    },
    {
      kind: 'integer', key: 'physicalDeflection', label: 'Physical deflection', short: 'Phys. defl.', group: 'Defences', default: 0, min: 0, max: 50,
      help: 'Reduces bludgeoning, piercing and slashing damage, to a minimum of 1 (§2.4 step 9).',
    },
    {
      kind: 'integer', key: 'elementalDeflection', label: 'Elemental deflection', short: 'Elem. defl.', group: 'Defences', default: 0, min: 0, max: 50,
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
    ...pool('endurance', 'Endurance', { default: 12, min: 0, max: 999 }, {
      group: 'Pools', maxHelp: 'Harmed while endurance is at half this or less.', help: 'Soaks damage before health (§2.4 step 11).',
    }),
    ...pool('health', 'Health', { default: 12, min: 0, max: 999, maxMin: 1 }, {
      group: 'Pools', maxHelp: 'Bloodied while health is below this.', help: 'Zero health means unconscious, and death risk on overkill (§2.4 step 13).',
    }),
    {
      kind: 'integer', key: 'constitution', label: 'Constitution', group: 'Pools', default: 4, min: 0, max: 999,
      help: 'Missing health greater than this calls for Fortify or unconsciousness (§2.4 step 12).',
    },
    ...pool('stamina', 'Stamina', { default: 4, min: 0, max: 999 }, { group: 'Pools', help: 'Spent on Block, Dodge, Fortify, Intercept, Parry and Sprint (§2.3).' }),
    ...pool('focus', 'Focus', { default: 4, min: 0, max: 999 }, { group: 'Pools', help: 'Spent on Resist (1) and Command (2) (§2.3).' }),
    {
      kind: 'flag', key: 'unconscious', label: 'Unconscious', group: 'Condition', default: false,
      help: 'Cannot act and loses its turn until brought back (Resuscitate, §2.3).',
    },
    {
      kind: 'flag', key: 'unsurprisable', label: 'Cannot be surprised', group: 'Condition', default: false,
      help: 'Acts in a surprise round even when the team is surprised (e.g. danger sense, §2.2).',
    },
    // The wielded weapon (§2.4): what an attack uses unless the event names another profile.
    { kind: 'text', key: 'weaponName', label: 'Weapon', group: 'Weapon', default: 'Weapon', maxLength: 80 },
    {
      kind: 'choice', key: 'weaponAttributes', label: 'Weapon attributes', group: 'Weapon', default: 'strengthOrDexterity',
      help: 'The attributes an attack test with this weapon may use (§2.4 step 1).',
      choices: [
        { value: 'strength', label: 'Strength' },
        { value: 'dexterity', label: 'Dexterity' },
        { value: 'strengthOrDexterity', label: 'Strength or dexterity' },
      ],
    },
    {
      kind: 'choice', key: 'weaponProficiencies', label: 'Weapon proficiencies', group: 'Weapon', default: 'martialOrFinesse',
      help: 'The proficiencies an attack test with this weapon may add.',
      choices: [
        { value: 'martial', label: 'Martial' },
        { value: 'finesse', label: 'Finesse' },
        { value: 'martialOrFinesse', label: 'Martial or finesse' },
        { value: 'none', label: 'None' },
      ],
    },
    { kind: 'integer', key: 'weaponDamage', label: 'Weapon damage', group: 'Weapon', default: 4, min: 0, max: 99, help: 'Added to the test result on a hit (§2.4 step 8).' },
    { kind: 'integer', key: 'weaponCritDamage', label: 'Critical damage', group: 'Weapon', default: 8, min: 0, max: 99, help: 'Used instead of the damage on a critical.' },
    {
      kind: 'integer', key: 'weaponCritThreshold', label: 'Critical threshold', group: 'Weapon', default: 20, min: 2, max: 99,
      help: 'A luck roll at or above this cannot miss and deals critical damage (§2.4 step 3).',
    },
    {
      kind: 'choice', key: 'weaponDamageType', label: 'Damage type', group: 'Weapon', default: 'piercing',
      choices: [
        { value: 'bludgeoning', label: 'Bludgeoning (physical)' },
        { value: 'piercing', label: 'Piercing (physical)' },
        { value: 'slashing', label: 'Slashing (physical)' },
        { value: 'arcane', label: 'Arcane (elemental)' },
        { value: 'cold', label: 'Cold (elemental)' },
        { value: 'fire', label: 'Fire (elemental)' },
        { value: 'radiant', label: 'Radiant (elemental)' },
        { value: 'shock', label: 'Shock (elemental)' },
        { value: 'void', label: 'Void (elemental)' },
        { value: 'psychic', label: 'Psychic (typeless)' },
        { value: 'typeless', label: 'Typeless' },
      ],
    },
    {
      kind: 'choice', key: 'weaponDelivery', label: 'Weapon kind', group: 'Weapon', default: 'melee',
      help: 'Thrown and projectile weapons can stray onto a character within 1 m of the target on a luck roll of 1 or less.',
      choices: [
        { value: 'melee', label: 'Melee' },
        { value: 'thrown', label: 'Thrown' },
        { value: 'projectile', label: 'Projectile' },
      ],
    },
    { kind: 'flag', key: 'weaponNonlethal', label: 'Nonlethal weapon', group: 'Weapon', default: false, help: 'Overkill from a nonlethal source does not risk death at once (§2.4 step 14).' },
    { kind: 'integer', key: 'weaponParry', label: 'Weapon parry value', group: 'Weapon', default: 0, min: 0, max: 20, help: '0 when it has none: a parry then adds 1.' },
    { kind: 'integer', key: 'weaponDurability', label: 'Weapon durability', group: 'Weapon', default: 0, min: 0, max: 99, help: '0 when not listed: 10 if metal, 4 otherwise.' },
    { kind: 'flag', key: 'weaponMetal', label: 'Weapon is metal', group: 'Weapon', default: true },
    // A wielded shield or other off-hand item with the block property.
    { kind: 'text', key: 'shieldName', label: 'Shield', group: 'Shield', default: '', maxLength: 80, help: 'Empty when no shield is wielded.' },
    { kind: 'integer', key: 'shieldBlock', label: 'Block value', group: 'Shield', default: 0, min: 0, max: 99, help: 'Replaces deflection when blocking; 0 means the item cannot block.' },
    { kind: 'integer', key: 'shieldParry', label: 'Shield parry value', group: 'Shield', default: 0, min: 0, max: 20 },
    { kind: 'integer', key: 'shieldDurability', label: 'Shield durability', group: 'Shield', default: 0, min: 0, max: 99, help: '0 when not listed: 10 if metal, 4 otherwise.' },
    { kind: 'flag', key: 'shieldMetal', label: 'Shield is metal', group: 'Shield', default: false },
    { kind: 'text', key: 'notes', label: 'Notes', group: 'Details', default: '', maxLength: 4000, multiline: true },
  ],
};
