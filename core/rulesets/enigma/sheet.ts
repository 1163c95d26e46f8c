// Enigma's character sheet (RULES.md §1.1, §1.5): six capacity dice, each with a base and a current size.
import type { SheetSchema } from '../sheet.ts';

const capacities = ['endure', 'navigate', 'glean', 'attack', 'influence', 'manifest'] as const;
export type Capacity = (typeof capacities)[number];
export const CAPACITIES: readonly Capacity[] = capacities;

const capacityHelp: Record<Capacity, string> = {
  endure: 'Max LP is the base Endure die\'s highest face (R-E21); defends against melee.',
  navigate: 'Speed is the current Navigate die\'s highest face; defends against ranged attacks.',
  glean: 'Ranged band: up to the Glean die normal, up to twice with disadvantage.',
  attack: 'Rolled with the Escalation modifier to hit.',
  influence: 'Social checks.',
  manifest: 'Powers and will.',
};

const ENIGMA_SIZES = [4, 6, 8, 10, 12] as const;

export const enigmaSheet: SheetSchema = {
  mainPool: { label: 'LP (Endure die)', keys: ['endure'] },
  fields: [
    ...capacities.map((capacity) => ({
      kind: 'die' as const,
      key: capacity,
      label: capacity[0]!.toUpperCase() + capacity.slice(1),
      help: capacityHelp[capacity],
      group: 'Capacity dice',
      default: 8 as const,
      sizes: ENIGMA_SIZES,
    })),
    {
      kind: 'flag', key: 'armoured', label: 'Wears armour', group: 'Details', default: false,
      help: 'Armor-Restrictive injuries put disadvantage on every capacity check while armour is worn (§1.6).',
    },
    {
      kind: 'flag', key: 'namedNpc', label: 'Named NPC (faces Mortal Peril)', group: 'Details', default: false,
      help: 'R-E8: an NPC at 0 LP is defeated unless flagged here.',
    },
    { kind: 'text', key: 'notes', label: 'Notes', group: 'Details', default: '', maxLength: 4000, multiline: true },
  ],
};

/** Max LP = highest face of the base Endure die (R-E21). */
export function maxLifePoints(sheet: { endure: number }): number {
  return sheet.endure;
}
