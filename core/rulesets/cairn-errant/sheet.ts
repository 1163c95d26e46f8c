// Cairn-Errant's character sheet (RULES.md §4.2–4.6, §6.5): HP over STR/DEX/WIL (current and max), Armor, the weapon
// die, inventory slot use, limb losses and the death clock. Injuries and wounds are kept as separate records.
import { pool, type SheetSchema } from '../sheet.ts';

const WEAPON_SIZES = [4, 6, 8, 10, 12] as const;
/** An attribute's range: 10 to start, its maximum 1–18, its current value down to 0. */
const ATTRIBUTE = { default: 10, min: 0, max: 18, maxMin: 1 };

export const cairnErrantSheet: SheetSchema = {
  mainPool: { label: 'HP', keys: ['hpMax', 'hp'] },
  fields: [
    ...pool('hp', 'HP', { default: 4, min: 0, max: 20 }, {
      group: 'Health', maxLabel: 'Maximum HP',
      help: 'Damage below 0 HP goes to STR and calls for a Critical Damage save (§4.4 steps 9–10).',
    }),
    {
      kind: 'integer', key: 'armor', label: 'Armor', group: 'Health', default: 0, min: 0, max: 3,
      help: 'Subtracted from every damage roll; at Armor 3 the restrict variant forbids dodging (§4.4 step 5).',
    },
    ...pool('str', 'STR', ATTRIBUTE, { group: 'Attributes', help: 'STR 0 is death; the Critical Damage save uses the new STR.' }),
    ...pool('dex', 'DEX', ATTRIBUTE, { group: 'Attributes', help: 'Initiative and retreat saves; DEX 0 is paralysed or knocked out (R-C24).' }),
    ...pool('wil', 'WIL', ATTRIBUTE, { group: 'Attributes', help: 'WIL 0 is delirious (R-C24).' }),
    {
      kind: 'die', key: 'weaponDie', label: 'Weapon damage die', short: 'Weapon', group: 'Weapon', default: 6, sizes: WEAPON_SIZES,
      help: 'd6 fast, d8 balanced, d10 slow; unarmed d4 (§4.4 step 2).',
    },
    {
      kind: 'choice', key: 'offhandDie', label: 'Second weapon', group: 'Weapon', default: 'none',
      choices: [
        { value: 'none', label: 'None' }, { value: '4', label: 'd4' }, { value: '6', label: 'd6 (fast)' },
        { value: '8', label: 'd8 (balanced)' }, { value: '10', label: 'd10 (slow)' }, { value: '12', label: 'd12' },
      ],
      help: 'Dual weapons roll both dice and keep the higher; a lost arm forbids dual wielding (§4.3).',
    },
    {
      kind: 'flag', key: 'twoHanded', label: 'Weapon is two-handed', group: 'Weapon', default: false,
      help: 'A character who lost the use of an arm cannot wield it (hit locations, §4.4 step 10).',
    },
    {
      kind: 'flag', key: 'weaponReach', label: 'Weapon has Reach', group: 'Weapon', default: false,
      help: 'Strikes first when entering Close in a melee clash, last when already Close (§4.2).',
    },
    {
      kind: 'flag', key: 'rangedWeapon', label: 'Weapon is a ranged weapon (bow, crossbow, sling)', group: 'Weapon', default: false,
      help: 'No melee weapon: it cannot block under the restrict and graded variants (§4.4 step 5), and it fights back at range.',
    },
    {
      kind: 'flag', key: 'shield', label: 'Carries a shield', group: 'Weapon', default: false,
      help: 'Allows blocking under the restrict and graded Block/Dodge variants (§4.4 step 5).',
    },
    {
      kind: 'flag', key: 'canDefend', label: 'Can Block, Dodge, Parry or Fight back (NPC)', group: 'Weapon', default: false,
      help: 'PCs always can; some enemies have these reactions too (§4.4 step 4).',
    },
    {
      kind: 'integer', key: 'fatigue', label: 'Fatigue', group: 'Inventory', default: 0, min: 0, max: 10,
      help: 'Each takes a slot; +1 for Fight back, Block or Dodge; cleared by a safe night\'s rest (R-C25).',
    },
    {
      kind: 'integer', key: 'gearSlots', label: 'Slots filled by gear', short: 'Gear slots', group: 'Inventory', default: 0, min: 0, max: 10,
      help: 'With Fatigue, injuries and wounds, all 10 slots full means overburdened: no defence (§4.4 step 3).',
    },
    {
      kind: 'integer', key: 'leftLegHits', label: 'Left leg hits', short: 'Left leg', group: 'Injuries', default: 0, min: 0, max: 2,
      help: '1: next initiative save at disadvantage and no quick-turn movement; 2: loses every initiative roll (R-C6).',
    },
    {
      kind: 'integer', key: 'rightLegHits', label: 'Right leg hits', short: 'Right leg', group: 'Injuries', default: 0, min: 0, max: 2,
      help: '1: next initiative save at disadvantage and no quick-turn movement; 2: loses every initiative roll (R-C6).',
    },
    {
      kind: 'flag', key: 'nextInitiativeDisadvantage', label: 'Next initiative save at disadvantage', group: 'Injuries', default: false,
      help: 'Set by a leg result and cleared after the next initiative DEX save (R-C6).',
    },
    { kind: 'flag', key: 'leftArmLost', label: 'Left arm lost', group: 'Injuries', default: false, help: 'No dual wielding or two-handed weapons.' },
    { kind: 'flag', key: 'rightArmLost', label: 'Right arm lost', group: 'Injuries', default: false, help: 'No dual wielding or two-handed weapons.' },
    {
      kind: 'flag', key: 'failedCriticalSave', label: 'Failed a Critical Damage save', group: 'Condition', default: false,
      help: 'Its attacks are impaired from now on and attacks against it are usually enhanced (§4.4 step 10).',
    },
    {
      kind: 'flag', key: 'incapacitated', label: 'Incapacitated', group: 'Condition', default: false,
      help: 'Cannot defend; stays out of the fight until healed, even once treated (R-C27).',
    },
    {
      kind: 'integer', key: 'deathClockMinutes', label: 'Death clock (minutes left)', group: 'Condition', default: 0, min: 0, max: 60,
      help: 'An untreated incapacitated PC dies within the hour; 0 means no clock is running (§4.4 step 10).',
    },
    {
      kind: 'flag', key: 'unconscious', label: 'Unconscious', group: 'Condition', default: false,
      help: 'From a failed save against unarmed or non-lethal damage.',
    },
    { kind: 'text', key: 'notes', label: 'Notes', group: 'Details', default: '', maxLength: 4000, multiline: true },
  ],
};
