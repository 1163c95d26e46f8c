// What every ruleset's encounter does alike with its roster (GUIDE §2 "written once and composed"): adding
// combatants in setup and as late arrivals, dropping one before the fight, checking a removal, the two-sided start,
// and the small helpers every rules file needs (update a combatant, its name, a plural). Pure functions over any
// context that keeps `roster` (ids in the order they joined) and `combatants` (by id); what differs per ruleset
// comes in a small RosterSpec. The refusal sentences here are the ones every ruleset has always given.
import { withCombatant } from './combatant-table.ts';
import type { CombatantSeed } from './types.ts';

/** The part of a ruleset's encounter context this module reads and writes. */
export interface RosterContext<C extends Named = Named> {
  roster: string[];
  combatants: Record<string, C>;
}

/** All this module reads of a combatant. */
export interface Named { name: string }

/** What one ruleset says about its roster. */
export interface RosterSpec<Ctx extends RosterContext<C>, C extends Named> {
  /** The most combatants one encounter holds. */
  max: number;
  /** The sentence when a seed's side is not one of the ruleset's sides, else null. */
  sideProblem(ctx: Ctx, seed: CombatantSeed): string | null;
  /** An id this ruleset cannot take, checked after the side and before the duplicate (Factions' reserved words). */
  idProblem?(seed: CombatantSeed): string | null;
  /** Further refusals of one seed, checked after its side and its id (Thrum: three Wounds, still Incapacitated). */
  seedProblem?(ctx: Ctx, seed: CombatantSeed): string | null;
  /** The combatant a seed becomes. */
  fromSeed(ctx: Ctx, seed: CombatantSeed): C;
  /** Has already left the fight (removed, out, gone): it cannot be removed again. */
  hasLeft(combatant: C): boolean;
  /** What it has left in the refusal "X has already left the fight." (Enigma: 'order'). */
  leftWhat?: string;
  /** What else changes once seeds joined (Enigma's side orders, Factions' groups). */
  afterAdd?(ctx: Ctx, seeds: readonly CombatantSeed[]): Ctx;
  /** What else changes once a combatant is dropped in setup (Teams' instigator, Factions' groups); `dropped` as it was. */
  afterDrop?(ctx: Ctx, id: string, dropped: C): Ctx;
}

/** Why these seeds cannot join (in setup or as a late arrival), or null. */
export function checkAdd<Ctx extends RosterContext<C>, C extends Named>(spec: RosterSpec<Ctx, C>, ctx: Ctx, seeds: readonly CombatantSeed[]): string | null {
  if (seeds.length === 0) return 'Choose at least one combatant to add.';
  if (ctx.roster.length + seeds.length > spec.max) return `An encounter holds at most ${spec.max} combatants.`;
  const seen = new Set(ctx.roster);
  for (const seed of seeds) {
    const side = spec.sideProblem(ctx, seed);
    if (side) return side;
    const id = spec.idProblem?.(seed) ?? null;
    if (id) return id;
    if (seen.has(seed.id)) return `${seed.name} is already in this encounter.`;
    seen.add(seed.id);
    const problem = spec.seedProblem?.(ctx, seed) ?? null;
    if (problem) return problem;
  }
  return null;
}

/** The seeds join: each becomes a combatant, its id goes to the end of the roster. */
export function addSeeds<Ctx extends RosterContext<C>, C extends Named>(spec: RosterSpec<Ctx, C>, ctx: Ctx, seeds: readonly CombatantSeed[]): Ctx {
  const combatants: Record<string, C> = { ...ctx.combatants };
  for (const seed of seeds) combatants[seed.id] = spec.fromSeed(ctx, seed);
  const next: Ctx = { ...ctx, combatants, roster: [...ctx.roster, ...seeds.map((s) => s.id)] };
  return spec.afterAdd ? spec.afterAdd(next, seeds) : next;
}

/** Setup only: taken off the roster, leaving no trace. */
export function dropFromRoster<Ctx extends RosterContext<C>, C extends Named>(spec: RosterSpec<Ctx, C>, ctx: Ctx, id: string): Ctx {
  const { [id]: dropped, ...combatants } = ctx.combatants;
  const next: Ctx = { ...ctx, combatants, roster: ctx.roster.filter((x) => x !== id) };
  return spec.afterDrop && dropped ? spec.afterDrop(next, id, dropped) : next;
}

/** Why this combatant cannot be removed (or dropped in setup), or null. */
export function checkRemove<Ctx extends RosterContext<C>, C extends Named>(spec: RosterSpec<Ctx, C>, ctx: Ctx, id: string): string | null {
  const combatant = ctx.combatants[id];
  if (!combatant) return 'That combatant is not in this encounter.';
  if (spec.hasLeft(combatant)) return `${combatant.name} has already left the ${spec.leftWhat ?? 'fight'}.`;
  return null;
}

/** For a fight of two sides: the first side missing from the roster, as "Add at least one <noun> before starting.". */
export function checkSidesPresent(ctx: { roster: string[]; combatants: Record<string, { side: string }> }, sides: readonly { key: string; noun: string }[]): string | null {
  const present = new Set(ctx.roster.map((id) => ctx.combatants[id]?.side));
  const missing = sides.find((side) => !present.has(side.key));
  return missing ? `Add at least one ${missing.noun} before starting.` : null;
}

/**
 * A combatant leaves an order of battle (Enigma R-E3, Thrum R-H4): everyone after it slides up and the cursor keeps
 * its turn position. `index` is where it stood (-1 when it was not placed; the order is then the same array).
 */
export function leaveOrder(order: string[], cursor: number, id: string): { order: string[]; cursor: number; index: number } {
  const index = order.indexOf(id);
  if (index === -1) return { order, cursor, index };
  return { order: order.filter((x) => x !== id), cursor: index < cursor ? cursor - 1 : cursor, index };
}

/** The combatant already holds every value of the change: applying it would copy the roster for nothing. */
function holds<C extends object>(combatant: C | undefined, change: Partial<C>): boolean {
  if (combatant === undefined) return false;
  return (Object.keys(change) as (keyof C)[]).every((key) => Object.hasOwn(combatant, key) && Object.is(combatant[key], change[key]));
}

/**
 * One combatant changed; the same context when nothing would change (so replays copy nothing for nothing). The
 * combatant type comes from `ctx` alone (never widened by the change): `update(thrumCtx, id, { wounds: 1 })` needs
 * no type arguments, and a field Thrum's combatants lack, or a value of another type, is an error.
 */
export function update<Ctx extends RosterContext<C>, C extends Named>(ctx: Ctx & RosterContext<C>, id: string, change: Partial<NoInfer<C>>): Ctx {
  const combatant = ctx.combatants[id];
  if (holds(combatant, change)) return ctx;
  return { ...ctx, combatants: withCombatant(ctx.combatants, id, { ...combatant!, ...change }) };
}

/** A combatant's name for a sentence; 'someone' when there is none. */
export const nameOf = (ctx: RosterContext, id: string | null | undefined): string => (id && ctx.combatants[id]?.name) || 'someone';

/** "1 action", "2 actions". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The names of these combatants, comma separated. */
export const names = (ctx: RosterContext, ids: readonly string[]): string => ids.map((id) => nameOf(ctx, id)).join(', ');

/**
 * The setup log's sentence for combatants added, by side in the sides' order: "Added Ash, Mira to the party; Goblin
 * 1 to the GM side." `sides` pairs each side's key with its words after "to" ("the party", "Red Company").
 */
export function addedSentence(seeds: readonly Pick<CombatantSeed, 'name' | 'side'>[], sides: readonly { key: string; label: string }[]): string {
  const parts = sides
    .map(({ key, label }) => [label, seeds.filter((s) => s.side === key).map((s) => s.name)] as const)
    .filter(([, added]) => added.length)
    .map(([label, added]) => `${added.join(', ')} to ${label}`);
  return `Added ${parts.join('; ')}.`;
}
