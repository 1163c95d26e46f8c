// Shared helpers for the Factions tests: seeds, rolls and a running fight through the event-sourced kernel.
import { expect } from 'vitest';
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed, GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { defaultSheet } from '../sheet.ts';
import { factionsEncounter, type FactionsRowDetails } from './encounter.ts';
import { factionsOptions } from './options.ts';
import type { FactionsCombatant, FactionsContext } from './rules.ts';
import { factionsSheet } from './sheet.ts';

export const app = (...faces: number[]) => ({ faces, source: 'app' as const });
export const typed = (...faces: number[]) => ({ faces, source: 'manual' as const });

export function seed(id: string, side: string, sheet: Record<string, string | number | boolean> = {}, extra: Partial<CombatantSeed> = {}): CombatantSeed {
  return { id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: null, sheet: { ...defaultSheet(factionsSheet), ...sheet }, ...extra };
}

export function encounter(options: Record<string, string | number | boolean> = {}) {
  return EncounterEngine.create(factionsEncounter, { options: { ...defaultOptions(factionsOptions), ...options }, carried: {} });
}

export const ctx = (e: EncounterEngine) => e.snapshot.context as FactionsContext;
export const who = (e: EncounterEngine, id: string): FactionsCombatant => ctx(e).combatants[id]!;
export const texts = (lines: { text: string }[]) => lines.map((l) => l.text);

/**
 * A running fight: party `hero` against gm `foe` (and any others), the party holding the initiative and acting
 * first, with `hero` (or `first`) selected and its turn open.
 */
export function fight(seeds: CombatantSeed[] = [], options: Record<string, string | number | boolean> = {}, first = 'hero') {
  const e = encounter(options);
  e.apply({ type: 'ADD_COMBATANTS', combatants: seeds.length ? seeds : [seed('hero', 'party'), seed('foe', 'gm')] });
  e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
  e.apply({ type: 'START' });
  e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: who(e, first).faction });
  e.apply({ type: 'SELECT_CHARACTER', combatantId: first });
  expect(e.view().activeId).toBe(first);
  return e;
}

export const melee = (attackerId: string, targetId: string, extra: Partial<GmEvent> = {}): GmEvent => ({ type: 'ATTACK', attackerId, targetIds: [targetId], kind: 'melee', ...extra });
export const damage = (...faces: number[]): GmEvent => ({ type: 'RESOLVE_ATTACK', damageRoll: app(...faces) });

/** A row's details, as the view wrote them (FactionsRowDetails). */
export const rowDetails = (e: EncounterEngine, id: string): FactionsRowDetails => e.view().order.find((c) => c.id === id)!.details as FactionsRowDetails;
