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

/**
 * The fields an ending writes, with the value each one replaces (the screen marks the ones that change). `before` is
 * what the character holds now: the campaign's kept values over its sheet's. A set never kept whose every part is a
 * value of its own there (Enigma's capacity dice, each on the sheet) is read from those parts.
 */
export function carryFields(before: Record<string, unknown>, after: Record<string, unknown>): CarryField[] {
  const held = (key: string, value: unknown): unknown => {
    if (before[key] !== undefined) return before[key];
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const parts = Object.keys(value);
      if (parts.length && parts.every((part) => before[part] !== undefined)) return Object.fromEntries(parts.map((part) => [part, before[part]]));
    }
    return null;
  };
  return Object.entries(after)
    .map(([key, value]) => ({ key, label: carryLabel(key), before: held(key, value), after: value, editable: typeof value === 'number' && Number.isInteger(value) }));
}

/** Sets of die sizes, said as dice ("endure d8"). */
const DIE_SETS = new Set(['dice']);

/** A carried value as the review says it: yes/no, each die of a set ("endure d6, grip d8"), "none" for nothing. */
export function carryValueText(value: unknown, key = ''): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return 'none';
    const die = DIE_SETS.has(key) ? 'd' : '';
    return entries.map(([k, v]) => `${carryLabel(k).toLowerCase()} ${v !== null && typeof v === 'object' ? carryValueText(v) : `${die}${String(v)}`}`).join(', ');
  }
  return String(value);
}

const empty = (value: unknown) =>
  value === null || value === undefined || value === false || value === 0 || value === '' || value === 'none' ||
  (typeof value === 'object' && Object.keys(value as object).length === 0);

/**
 * Whether the ending changes this value. A value the campaign has never kept (`before` null: the character's first
 * fight, read from the sheet) changes only when the fight leaves something in it (not false, 0 or nothing).
 */
export function carryChanges(field: { before: unknown; after: unknown }): boolean {
  if (field.before === null || field.before === undefined) return !empty(field.after);
  return JSON.stringify(field.before) !== JSON.stringify(field.after ?? null);
}

/** A party-wide value in words: "Escalation goes from 1 to 2", "Escalation stays at 2", "Escalation is kept at 2". */
export function partyChangeText(value: { label: string; before: unknown; after: unknown }): string {
  const after = carryValueText(value.after);
  if (value.before === null || value.before === undefined) return `${value.label} is kept at ${after} (the campaign held none before)`;
  if (!carryChanges(value)) return `${value.label} stays at ${after}`;
  return `${value.label} goes from ${carryValueText(value.before)} to ${after}`;
}
