// Test helpers for Cairn-Errant: seeds, a running fight, and short-hands for the common events.
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed, GmEvent, LogLine } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { defaultSheet } from '../sheet.ts';
import { cairnErrantEncounter } from './encounter.ts';
import { cairnErrantOptions } from './options.ts';
import type { CairnContext } from './rules.ts';
import type { IntentInput } from './declarations.ts';
import { cairnErrantSheet } from './sheet.ts';

export type Options = Record<string, string | number | boolean>;

export const app = (...faces: number[]) => ({ faces, source: 'app' as const });

export function seed(id: string, side: 'party' | 'enemies', sheet: Record<string, string | number | boolean> = {}, carried?: Record<string, unknown>): CombatantSeed {
  return {
    id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: side === 'party' ? `char-${id}` : null,
    // An attribute given without its maximum sets both (a fresh character).
    sheet: { ...defaultSheet(cairnErrantSheet), ...maxima(sheet), ...sheet },
    ...(carried ? { carried } : {}),
  };
}

function maxima(sheet: Record<string, string | number | boolean>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of ['str', 'dex', 'wil', 'hp']) if (typeof sheet[key] === 'number' && !(`${key}Max` in sheet)) out[`${key}Max`] = Math.max(sheet[key] as number, key === 'hp' ? 4 : 10);
  return out;
}

export function encounter(options: Options = {}) {
  return EncounterEngine.create(cairnErrantEncounter, { options: { ...defaultOptions(cairnErrantOptions), ...options }, carried: {} });
}

/** A fight that has started (round 1, declaring). */
export function fight(seeds: CombatantSeed[], options: Options = {}) {
  const e = encounter(options);
  e.apply({ type: 'ADD_COMBATANTS', combatants: seeds });
  e.apply({ type: 'START' });
  return e;
}

export const ctx = (e: EncounterEngine) => e.snapshot.context as CairnContext;
export const who = (e: EncounterEngine, id: string) => ctx(e).combatants[id]!;
export const texts = (lines: LogLine[]) => lines.map((l) => l.text);

/** DECLARE_INTENT for a PC, SET_NPC_INTENT for an enemy. */
export function intend(e: EncounterEngine, id: string, action: IntentInput['action'], targetId: string | null = null, extra: Partial<IntentInput> = {}): LogLine[] {
  const type = ctx(e).combatants[id]!.side === 'party' ? 'DECLARE_INTENT' : 'SET_NPC_INTENT';
  return e.apply({ type, combatantId: id, action, ...(targetId ? { targetId } : {}), ...extra } as GmEvent);
}

export const lock = (e: EncounterEngine) => e.apply({ type: 'LOCK_INTENTS' });

/** Closes moments until the round turns over (no question may be waiting). */
export function finishRound(e: EncounterEngine): void {
  const round = e.view().round;
  for (let i = 0; i < 20 && e.view().round === round && e.view().phase === 'running'; i += 1) e.apply({ type: 'END_TURN' });
}
