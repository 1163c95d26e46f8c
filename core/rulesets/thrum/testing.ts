// Shared builders for Thrum's tests: seeds, rolls, and a fight brought to a chosen point through the kernel.
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed, CombatantView, GmEvent } from '../../encounter/types.ts';
import { defaultOptions, type OptionValues } from '../options.ts';
import { defaultSheet } from '../sheet.ts';
import { thrumEncounter } from './encounter.ts';
import { thrumOptions } from './options.ts';
import { contestDetailsOf, type ThrumContestDetails } from './prompts.ts';
import type { ThrumCombatant, ThrumContext } from './rules.ts';
import { thrumSheet } from './sheet.ts';

/** Faces the app rolled, as a roll travels inside an event (the same helper as every ruleset's testing.ts). */
export const app = (...faces: number[]) => ({ faces, source: 'app' as const });

export function seed(id: string, side: 'party' | 'foes', sheet: Record<string, number | boolean | string> = {}, extra: Partial<CombatantSeed> = {}): CombatantSeed {
  return {
    id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: side === 'party' ? `char-${id}` : null,
    sheet: { ...defaultSheet(thrumSheet), ...sheet } as CombatantSeed['sheet'], ...extra,
  };
}

export function encounter(options: OptionValues = {}) {
  return EncounterEngine.create(thrumEncounter, { options: { ...defaultOptions(thrumOptions), ...options }, carried: {} });
}

export const ctx = (e: EncounterEngine) => e.snapshot.context as ThrumContext;
export const who = (e: EncounterEngine, id: string): ThrumCombatant => ctx(e).combatants[id]!;

/** The open contest prompt's details (ThrumContestDetails); throws when no contest is open. */
export function contestDetails(e: EncounterEngine): ThrumContestDetails {
  const details = contestDetailsOf(e.view().prompt);
  if (!details) throw new Error(`no contest is open (prompt: ${e.view().prompt?.kind ?? 'none'})`);
  return details;
}

/** The Speed a row shows in its stats. */
export const shownSpeed = (row: CombatantView | undefined): number => Number(row?.stats?.find((s) => s.label === 'Speed')?.value);

/**
 * Rolls initiative so the combatants act in the listed order (totals 12, 11, 10, ... with modifier 0), optionally
 * with extra setup events first (a map, NPC placement).
 */
export function rolled(seeds: CombatantSeed[], options: OptionValues = {}, before: GmEvent[] = []) {
  const e = encounter(options);
  e.apply({ type: 'ADD_COMBATANTS', combatants: seeds });
  for (const event of before) e.apply(event);
  e.apply({ type: 'START' });
  seeds.forEach((s, i) => {
    const total = Math.max(2, 12 - i) - Number(s.sheet['initiativeModifier'] ?? 0);
    const a = Math.min(6, Math.max(1, total - 6));
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: s.id, roll: app(a, total - a) });
  });
  return e;
}

/** Past Round Zero into round 1: every combatant ends its Round Zero turn. */
export function fight(seeds: CombatantSeed[], options: OptionValues = {}, before: GmEvent[] = []) {
  const e = rolled(seeds, options, before);
  while (e.view().round === 0) e.apply({ type: 'END_TURN' });
  return e;
}

export function endTurnsUntil(e: EncounterEngine, id: string) {
  for (let i = 0; i < 40 && e.view().activeId !== id; i += 1) e.apply({ type: 'END_TURN' });
  if (e.view().activeId !== id) throw new Error(`${id} never became active`);
}

export const attack = (attackerId: string, targetIds: string[], extra: Record<string, unknown> = {}): GmEvent => ({
  type: 'ATTACK', attackerId, ability: 'Strike', attackType: 'physical', targets: targetIds.map((targetId) => ({ targetId })), fatigue: 1, stress: 0, ...extra,
});

/**
 * The contest for the target whose defence is chosen, with dice typed so that the defender's outcome is `tier` under
 * the default rulings (R-H11: rolled, a tie is the defence's, a Critical 5 or more above). Reads the
 * modifiers and dice counts from the prompt, so it does not lean on the engine's own arithmetic.
 */
export function contest(e: EncounterEngine, tier: 'critical' | 'success' | 'failure') {
  const { attackDice = 2, defenceDice = 2, attackModifier, defenceModifier } = contestDetails(e);
  const evasion = Boolean(e.view().prompt?.text.includes(' Evasion, '));
  const wanted = (margin: number) => (tier === 'failure' ? margin < 0 : tier === 'critical' ? margin >= 5 : margin >= 0 && (!evasion || margin < 5));
  const low = [1, 2, 3, 4, 5, 6];
  const high = [6, 5, 4, 3, 2, 1];
  for (const a of tier === 'failure' ? high : low) {
    for (const d of tier === 'failure' ? low : high) {
      // Every face alike, so whichever two are kept sum to twice the face.
      if (!wanted(2 * d + defenceModifier - (2 * a + attackModifier))) continue;
      return e.apply({ type: 'DEFENSE_RESULT', attackRoll: { faces: Array(attackDice).fill(a), source: 'manual' }, defenceRoll: { faces: Array(defenceDice).fill(d), source: 'manual' } });
    }
  }
  throw new Error(`no dice give a ${tier}`);
}
