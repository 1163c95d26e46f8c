// Test helpers for "Any system": seeds, an encounter with the campaign's rulings, a fight at round 1, short-hands.
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed, LogLine } from '../../encounter/types.ts';
import { defaultOptions, type OptionValues } from '../options.ts';
import { defaultSheet, type SheetValues } from '../sheet.ts';
import { anySystemEncounter } from './encounter.ts';
import { anySystemOptions } from './options.ts';
import type { AnyCombatant, AnyContext } from './rules.ts';
import { anySystemSheet } from './sheet.ts';

export const typed = (...faces: number[]) => ({ faces, source: 'manual' as const });

/** A combatant: `id` names it ("aria" → "Aria"); a party member has a character id. HP given alone sets the maximum too. */
export function seed(id: string, side: 'party' | 'enemies', sheet: SheetValues = {}, carried?: Record<string, unknown>): CombatantSeed {
  const hpMax: SheetValues = typeof sheet['hp'] === 'number' && !('hpMax' in sheet) ? { hpMax: sheet['hp'] } : {};
  return {
    id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: side === 'party' ? `char-${id}` : null,
    sheet: { ...defaultSheet(anySystemSheet), ...hpMax, ...sheet },
    ...(carried ? { carried } : {}),
  };
}

export function encounter(options: OptionValues = {}) {
  return EncounterEngine.create(anySystemEncounter, { options: { ...defaultOptions(anySystemOptions), ...options }, carried: {} });
}

/**
 * A fight in round 1: the seeds added and given initiative totals in the order given (the first acts first), each
 * `20 - index` typed.
 */
export function fight(seeds: CombatantSeed[], options: OptionValues = {}) {
  const e = encounter(options);
  e.apply({ type: 'ADD_COMBATANTS', combatants: seeds });
  e.apply({ type: 'START' });
  seeds.forEach((s, i) => e.apply({ type: 'SET_INITIATIVE', combatantId: s.id, total: 20 - i }));
  e.apply({ type: 'START_COMBAT' });
  return e;
}

export const ctx = (e: EncounterEngine) => e.snapshot.context as AnyContext;
export const who = (e: EncounterEngine, id: string): AnyCombatant => ctx(e).combatants[id]!;
export const texts = (lines: LogLine[]) => lines.map((l) => l.text);
export const row = (e: EncounterEngine, id: string) => e.view().order.find((c) => c.id === id)!;
/** The refusal of an event now (null: accepted). */
export const refused = (e: EncounterEngine, event: Record<string, unknown>) => e.refusal(event);
