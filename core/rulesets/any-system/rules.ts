// "Any system"'s state and its pure rules: the encounter context, initiative totals and the order with its
// tie-break, temporary HP absorbing damage, healing up to the maximum, death saves, reactions per round and the
// concentration DC. Nothing here knows XState; combat.ts and order.ts apply these to the context.
import type { EncounterInput } from '../../encounter/types.ts';
import type { OptionValues } from '../options.ts';
import { rulingsOf } from './options.ts';

// ---- the context ----

export const SIDES = [
  { key: 'party', label: 'Party' },
  { key: 'enemies', label: 'Enemies' },
] as const;
export type Side = (typeof SIDES)[number]['key'] | 'fixed';

export interface Roll {
  faces: number[];
  source: 'app' | 'manual';
}

export interface Initiative {
  total: number;
  /** The die's face when it was rolled (or typed as a face); null when the GM typed the total. */
  face: number | null;
}

/** Where a combatant stands at 0 HP and below: up, dying (saves), stable, down (no saves) or dead. */
export type Vitality = 'up' | 'dying' | 'stable' | 'down' | 'dead';

export interface AnyCombatant {
  id: string;
  name: string;
  side: Side;
  characterId: string | null;
  /** A fixed entry (a lair action at 20, an environment effect): it only takes turns, with no HP. */
  fixed: boolean;
  hp: number;
  hpMax: number;
  tempHp: number;
  ac: number;
  initiativeModifier: number;
  initiative: Initiative | null;
  vitality: Vitality;
  saves: { successes: number; failures: number };
  reactionsUsed: number;
  /** The spell it concentrates on, or null. */
  concentration: string | null;
  /** The DC of a concentration check the GM has not recorded yet, or null. */
  concentrationCheck: number | null;
  delaying: boolean;
  /** The trigger of a readied action, or null. */
  ready: string | null;
  removed: { reason: string; round: number } | null;
  /** Injuries the GM recorded in this fight (kept on the character). */
  injuries: { n: number; name: string; untilLongRest: boolean; round: number }[];
  /** The round it died in this fight, or null. */
  diedIn: number | null;
}

export type Stage = 'setup' | 'initiative' | 'running' | 'ended';

export interface AnyContext {
  options: OptionValues;
  stage: Stage;
  roster: string[];
  combatants: Record<string, AnyCombatant>;
  /** The turn order once combat started (delaying combatants are out of it until they resume). */
  order: string[];
  /** Index of the active combatant in `order`. */
  cursor: number;
  round: number;
  /** The GM's order of tied combatants (REORDER): ids, earlier first. */
  tiesOrdered: string[];
  /** The dying combatant whose death save opens its turn, or null. */
  pendingSave: string | null;
  /** Fixed entries made so far (their ids count up). */
  fixedCount: number;
  outcome: string | null;
}

export function initialContext(input: EncounterInput): AnyContext {
  return {
    options: input.options, stage: 'setup', roster: [], combatants: {}, order: [], cursor: 0, round: 0,
    tiesOrdered: [], pendingSave: null, fixedCount: 0, outcome: null,
  };
}

/** Whose turn it is: the one at the cursor, while the rounds run and it can act. */
export function activeId(ctx: AnyContext): string | null {
  const id = ctx.stage === 'running' ? ctx.order[ctx.cursor] : undefined;
  return id !== undefined && acts(ctx.combatants[id]!) ? id : null;
}
export const present = (c: AnyCombatant): boolean => c.removed === null;
/** Takes turns: in the fight and not dead. */
export const acts = (c: AnyCombatant): boolean => c.removed === null && c.vitality !== 'dead';

// ---- initiative ----

export const dieSides = (options: OptionValues): number => Number(rulingsOf(options).initiativeDie.slice(1)) || 20;
export const typedInitiative = (options: OptionValues): boolean => rulingsOf(options).initiative === 'typed';

/** The total of a rolled initiative: the die's face plus the modifier. */
export const initiativeTotal = (face: number, modifier: number): number => face + modifier;

/**
 * The order of two combatants by initiative under the campaign's rulings (negative: `a` first). Ties: a fixed entry
 * loses; then the ruling (R-A3): the higher modifier, or the party first; then the GM's order (REORDER), then the
 * order they joined. Combatants without initiative go last, in the order they joined.
 */
export function compareInitiative(ctx: AnyContext, a: AnyCombatant, b: AnyCombatant): number {
  if (!a.initiative || !b.initiative) return (a.initiative ? -1 : b.initiative ? 1 : 0) || joined(ctx, a, b);
  const { order, tieBreak: tie } = rulingsOf(ctx.options);
  const direction = order === 'lowFirst' ? 1 : -1;
  if (a.initiative.total !== b.initiative.total) return direction * (a.initiative.total - b.initiative.total);
  if (a.fixed !== b.fixed) return a.fixed ? 1 : -1;
  if (tie === 'modifier' && a.initiativeModifier !== b.initiativeModifier) return b.initiativeModifier - a.initiativeModifier;
  if (tie === 'partyFirst' && (a.side === 'party') !== (b.side === 'party')) return a.side === 'party' ? -1 : 1;
  const ga = ctx.tiesOrdered.indexOf(a.id);
  const gb = ctx.tiesOrdered.indexOf(b.id);
  if (ga !== -1 && gb !== -1) return ga - gb;
  return joined(ctx, a, b);
}

const joined = (ctx: AnyContext, a: AnyCombatant, b: AnyCombatant) => ctx.roster.indexOf(a.id) - ctx.roster.indexOf(b.id);

/** The combatants in the fight, sorted by initiative (those without one last). */
export function sortedOrder(ctx: AnyContext, ids: readonly string[] = ctx.roster): string[] {
  return ids
    .filter((id) => present(ctx.combatants[id]!))
    .sort((x, y) => compareInitiative(ctx, ctx.combatants[x]!, ctx.combatants[y]!));
}

/** Two combatants the rulings leave tied: only the GM's order tells them apart. */
export function tied(ctx: AnyContext, a: AnyCombatant, b: AnyCombatant): boolean {
  if (!a.initiative || !b.initiative || a.initiative.total !== b.initiative.total || a.fixed !== b.fixed) return false;
  const tie = rulingsOf(ctx.options).tieBreak;
  if (tie === 'modifier') return a.initiativeModifier === b.initiativeModifier;
  if (tie === 'partyFirst') return (a.side === 'party') === (b.side === 'party');
  return true;
}

export const withoutInitiative = (ctx: AnyContext): string[] =>
  ctx.roster.filter((id) => present(ctx.combatants[id]!) && ctx.combatants[id]!.initiative === null);

// ---- damage and health ----

/** Damage taken: temporary HP first, then HP, never below 0. `lost` is the HP lost (what the summary counts). */
export function absorb(c: Pick<AnyCombatant, 'hp' | 'tempHp'>, amount: number): { hp: number; tempHp: number; absorbed: number; lost: number } {
  const absorbed = Math.min(c.tempHp, amount);
  const lost = Math.min(c.hp, amount - absorbed);
  return { hp: c.hp - lost, tempHp: c.tempHp - absorbed, absorbed, lost };
}

/** Healing: up to the maximum. `gained` is what it really restored. */
export function heal(c: Pick<AnyCombatant, 'hp' | 'hpMax'>, amount: number): { hp: number; gained: number } {
  const hp = Math.min(c.hpMax, c.hp + amount);
  return { hp: Math.max(hp, c.hp), gained: Math.max(0, hp - c.hp) };
}

/** Temporary HP do not add up: the higher of the old and the new stays. */
export const grantTempHp = (current: number, amount: number): number => Math.max(current, amount);

/** What 0 HP means for this combatant under the rulings (R-A5, R-A6; R-A7 off turns dying into down). */
export function atZero(options: OptionValues, c: Pick<AnyCombatant, 'side'>): Exclude<Vitality, 'up' | 'stable'> {
  const r = rulingsOf(options);
  const ruling = c.side === 'party' ? r.zeroHpParty : r.zeroHpNpc;
  if (ruling === 'dead') return 'dead';
  if (ruling === 'dying' && r.deathSaves) return 'dying';
  return 'down';
}

export type SaveResult = 'success' | 'failure' | 'stable' | 'dead' | 'up';

/**
 * One death save (R-A7): 10 or more a success, under 10 a failure, a 1 two failures, a 20 back up at 1 HP; three
 * successes make it stable, three failures dead.
 */
export function deathSave(saves: { successes: number; failures: number }, face: number): { saves: { successes: number; failures: number }; result: SaveResult } {
  if (face === 20) return { saves: { successes: 0, failures: 0 }, result: 'up' };
  const next = face >= 10 ? { ...saves, successes: saves.successes + 1 } : { ...saves, failures: saves.failures + (face === 1 ? 2 : 1) };
  if (next.failures >= 3) return { saves: { ...next, failures: 3 }, result: 'dead' };
  if (next.successes >= 3) return { saves: { ...next, successes: 3 }, result: 'stable' };
  return { saves: next, result: face >= 10 ? 'success' : 'failure' };
}

/** Damage while dying: one failure, two on a critical hit; three are death. */
export function failuresFromDamage(saves: { successes: number; failures: number }, critical: boolean): { saves: { successes: number; failures: number }; dead: boolean } {
  const failures = Math.min(3, saves.failures + (critical ? 2 : 1));
  return { saves: { ...saves, failures }, dead: failures >= 3 };
}

/** The concentration check after damage (R-A9): DC 10 or half the damage (rounded down), whichever is higher. */
export const concentrationDc = (damage: number): number => Math.max(10, Math.floor(damage / 2));

// ---- reactions ----

export const reactionsPerRound = (options: OptionValues): number => rulingsOf(options).reactionsPerRound;
export const reactionsLeft = (options: OptionValues, c: Pick<AnyCombatant, 'reactionsUsed'>): number => Math.max(0, reactionsPerRound(options) - c.reactionsUsed);
