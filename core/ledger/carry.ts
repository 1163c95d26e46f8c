// The carry-over check: what ending an encounter writes onto each character, as fields a GM can read (and, for
// whole numbers, adjust with a logged override) before it is committed.
import type { CarryPreview } from '../api/contract.ts';

const LABELS: Record<string, string> = {
  lp: 'LP', hp: 'HP', str: 'STR', strMax: 'STR max', dex: 'DEX', dexMax: 'DEX max', wil: 'WIL', wilMax: 'WIL max',
  healingRestriction: 'Healing restriction', deathClockMinutes: 'Death clock (minutes)', gearSlots: 'Gear slots',
};

/** 'fatigueTolerance' → 'Fatigue tolerance'; known short names as the rules write them. */
export function carryLabel(key: string): string {
  if (LABELS[key]) return LABELS[key];
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type CarryField = CarryPreview['characters'][number]['fields'][number];

/** The fields an ending writes, with the value each one replaces (the screen marks the ones that change). */
export function carryFields(before: Record<string, unknown>, after: Record<string, unknown>): CarryField[] {
  return Object.entries(after)
    .map(([key, value]) => ({ key, label: carryLabel(key), before: before[key] ?? null, after: value, editable: typeof value === 'number' && Number.isInteger(value) }));
}
