// Factions' character sheet (RULES.md §3.2–3.6, §6.5; the game is Murdham): the three saves, health (= STR under
// R-F20), armour, the usual weapon die, the state of weapon, shield and armour, and the persistent morale flags.
import { pool, type SheetSchema } from '../sheet.ts';

export const factionsSheet: SheetSchema = {
  mainPool: { label: 'Health', keys: ['str', 'healthMax', 'health'] },
  fields: [
    {
      kind: 'integer', key: 'str', label: 'STR', group: 'Attributes', default: 10, min: 0, max: 20,
      help: 'STR saves resist disarm and grapple; under R-F20 maximum health equals STR.',
    },
    {
      kind: 'integer', key: 'agi', label: 'AGI', group: 'Attributes', default: 10, min: 0, max: 20,
      help: 'AGI saves dodge attacks and escape long chases (§3.4, §3.6).',
    },
    {
      kind: 'integer', key: 'wit', label: 'WIT', group: 'Attributes', default: 10, min: 0, max: 20,
      help: 'WIT saves to hit in hard circumstances and for morale; acts in the fast phase if WIT ≥ FAT (§3.2).',
    },
    ...pool('health', 'Health', { default: 10, min: 0, max: 99, maxMin: 1 }, {
      group: 'Health', maxLabel: 'Maximum health',
      maxHelp: 'Read only with plain HP (R-F20 alternative); under Murdham\'s rule (default) maximum health is STR. A lone fighter checks morale at half of the maximum or less (R-F8).',
      help: 'Current health; at or above the maximum-health field means unhurt (full health: STR under R-F20). Losing half of current health in one hit incapacitates; losing all of it means dying.',
    }),
    {
      kind: 'flag', key: 'incapacitated', label: 'Incapacitated', group: 'Health', default: false,
      help: 'A nearby enemy may deliver a final blow (§3.4 step 11).',
    },
    {
      kind: 'flag', key: 'dying', label: 'Dying', group: 'Health', default: false,
      help: 'All health lost (R-F20); what dying does is set by the core rules.',
    },
    {
      kind: 'integer', key: 'armour', label: 'Armour', group: 'Gear', default: 0, min: 0, max: 10,
      help: 'Subtracted from damage, down to 0 (R-F17); cover adds 1.',
    },
    {
      kind: 'die', key: 'weaponDie', label: 'Weapon damage die', short: 'Weapon', group: 'Gear', default: 6, sizes: [4, 6, 8, 10, 12],
      help: 'The weapon usually wielded; unarmed attacks deal d4 impaired (§3.4 step 5).',
    },
    {
      kind: 'flag', key: 'weaponDamaged', label: 'Weapon damaged', group: 'Gear', default: false,
      help: 'A damaged weapon is destroyed when its damage die shows a 1 (R-F18).',
    },
    {
      kind: 'flag', key: 'armourDamaged', label: 'Armour damaged', group: 'Gear', default: false,
      help: 'Damaged armour is destroyed by a hit of 8 or more before armour, after a damaged shield (R-F18b).',
    },
    {
      kind: 'flag', key: 'hasShield', label: 'Carries a shield', group: 'Gear', default: false,
      help: 'A shield adds its armour bonus while it lasts; it is used whenever its bearer is attacked (R-F21).',
    },
    {
      kind: 'integer', key: 'shieldArmour', label: 'Shield armour bonus', short: 'Shield', group: 'Gear', default: 1, min: 0, max: 3,
      help: 'Added to armour while the shield is carried and not destroyed.',
    },
    {
      kind: 'flag', key: 'shieldDamaged', label: 'Shield damaged', group: 'Gear', default: false,
      help: 'A damaged shield is destroyed first by a hit of 8 or more before armour (§3.4 step 8).',
    },
    {
      kind: 'flag', key: 'fearImmune', label: 'Immune to fear', group: 'Morale', default: false,
      help: 'Characters immune to fear are immune to morale checks.',
    },
    {
      kind: 'flag', key: 'moraleImmune', label: 'Passed morale this stretch', group: 'Morale', default: false,
      help: 'Immune to morale until the stretch ends (R-F8).',
    },
    {
      kind: 'flag', key: 'moraleFailed', label: 'Failed morale', group: 'Morale', default: false,
      help: 'Must surrender or retreat; cleared if an enemy harms it while surrendered (R-F9).',
    },
    { kind: 'text', key: 'notes', label: 'Notes', group: 'Details', default: '', maxLength: 4000, multiline: true },
  ],
};
