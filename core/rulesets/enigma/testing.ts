// Test fixtures for the Enigma ruleset (the shape of core/rulesets/teams/testing.ts): seeds with the default dice,
// app rolls, and an encounter already started with the party first.
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed, GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { enigmaEncounter, enigmaRowDetailsOf, type EnigmaRowDetails } from './encounter.ts';
import { enigmaOptions } from './options.ts';
import type { EnigmaCombatant, EnigmaContext } from './rules.ts';

type Dice = Partial<Record<'endure' | 'navigate' | 'glean' | 'attack' | 'influence' | 'manifest', number>> & { namedNpc?: boolean; armoured?: boolean };

export const app = (...faces: number[]) => ({ faces, source: 'app' as const });

export const seed = (id: string, side: 'party' | 'gm', dice: Dice = {}, extra: Partial<CombatantSeed> = {}): CombatantSeed => ({
  id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: null,
  sheet: { endure: 8, navigate: 8, glean: 8, attack: 8, influence: 8, manifest: 8, namedNpc: false, armoured: false, notes: '', ...dice },
  ...extra,
});

/** A started fight: the seeds in roster order, the GM's creatures in that order, the party's first member acting. */
export function fight(seeds: CombatantSeed[], options: Record<string, string | number | boolean> = {}, carried: number | null = null): EncounterEngine {
  const e = EncounterEngine.create(enigmaEncounter, { options: { ...defaultOptions(enigmaOptions), ...options }, carried: { escalation: carried } });
  e.apply({ type: 'ADD_COMBATANTS', combatants: seeds });
  e.apply({ type: 'SET_GM_ORDER', ids: seeds.filter((s) => s.side === 'gm').map((s) => s.id) });
  e.apply({ type: 'START' });
  return e;
}

export const ctx = (e: EncounterEngine) => e.snapshot.context as EnigmaContext;
export const who = (e: EncounterEngine, id: string): EnigmaCombatant => ctx(e).combatants[id]!;

export const melee = (attackerId: string, targetId: string, attack: number, defence: number, extra: Partial<GmEvent> = {}): GmEvent => ({
  type: 'ATTACK', attackerId, targetId, mode: 'melee', sight: 'clear', damage: 'full', attackRoll: app(attack), defenceRoll: app(defence), ...extra,
});

/** A combatant's row details, as the view wrote them (EnigmaRowDetails). */
export function rowDetails(e: EncounterEngine, id: string): EnigmaRowDetails {
  const details = enigmaRowDetailsOf(e.view().order.find((c) => c.id === id));
  if (!details) throw new Error(`no row for ${id}`);
  return details;
}
