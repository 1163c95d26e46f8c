// Cairn-Errant's roster: who joins in setup or late, who leaves, when the fight is over (R-C7).
import type { CombatantSeed } from '../../encounter/types.ts';
import { combatantFromSeed, down, present, update, type CairnContext, type OutKind, type Side, type Step } from './rules.ts';

// ---- setup and roster ----

export function addCombatants(ctx: CairnContext, seeds: CombatantSeed[]): CairnContext {
  const combatants = { ...ctx.combatants };
  for (const seed of seeds) combatants[seed.id] = combatantFromSeed(seed);
  return { ...ctx, combatants, roster: [...ctx.roster, ...seeds.map((s) => s.id)] };
}

export function dropFromRoster(ctx: CairnContext, id: string): CairnContext {
  const { [id]: _dropped, ...combatants } = ctx.combatants;
  return { ...ctx, combatants, roster: ctx.roster.filter((x) => x !== id) };
}

/** Takes a combatant out of the fight for good: its intent and any question about it go too. */
export function takeOut(ctx: CairnContext, id: string, kind: OutKind, reason: string): CairnContext {
  const next = update(ctx, id, { out: { kind, reason, round: ctx.round } });
  const { [id]: _gone, ...intents } = next.intents;
  const stillAsked = (step: Step) => !Object.values(step).includes(id);
  // During declarations its intent is simply withdrawn; afterwards it stays on the board as a lost action.
  return {
    ...next,
    intents: next.phase === 'declare' ? intents : next.intents,
    moment: { ...next.moment, pending: next.moment.pending.filter(stillAsked) },
  };
}

const MAX_COMBATANTS = 200;

export function checkAddCombatants(ctx: CairnContext, seeds: CombatantSeed[]): string | null {
  if (seeds.length === 0) return 'Choose at least one combatant to add.';
  if (ctx.roster.length + seeds.length > MAX_COMBATANTS) return `An encounter holds at most ${MAX_COMBATANTS} combatants.`;
  const seen = new Set(ctx.roster);
  for (const seed of seeds) {
    if (seed.side !== 'party' && seed.side !== 'enemies') return `${seed.name} must join the party or the enemies.`;
    if (seen.has(seed.id)) return `${seed.name} is already in this encounter.`;
    seen.add(seed.id);
  }
  return null;
}

export function checkRemove(ctx: CairnContext, id: string): string | null {
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  if (c.out) return `${c.name} has already left the fight.`;
  return null;
}

export function checkStart(ctx: CairnContext): string | null {
  const sides = new Set(ctx.roster.map((id) => ctx.combatants[id]?.side));
  if (!sides.has('party')) return 'Add at least one party member before starting.';
  if (!sides.has('enemies')) return 'Add at least one enemy before starting.';
  return null;
}


/** R-C7: every member of a side is dead, incapacitated, unconscious, retreated or gone. */
export function sideOut(ctx: CairnContext, side: Side): boolean {
  let members = 0;
  for (const id of ctx.roster) {
    const c = ctx.combatants[id]!;
    if (c.side !== side) continue;
    if (present(c) && !down(c)) return false;
    members += 1;
  }
  return members > 0;
}

export function fightOver(ctx: CairnContext): string | null {
  if (ctx.phase === 'setup') return null;
  if (sideOut(ctx, 'enemies')) return 'Every enemy is dead, down or gone.';
  if (sideOut(ctx, 'party')) return 'Every party member is dead, down or gone.';
  return null;
}
