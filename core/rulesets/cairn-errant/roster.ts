// Cairn-Errant's roster: who joins in setup or late, who leaves, when the fight is over (R-C7).
import * as roster from '../../encounter/roster.ts';
import type { RosterSpec } from '../../encounter/roster.ts';
import { combatantFromSeed, down, present, type CairnCombatant, type CairnContext, type OutKind, type Side, type Step } from './rules.ts';
import { update } from '../../encounter/roster.ts';

// ---- setup and roster (the shared rules, core/encounter/roster.ts) ----

export const ROSTER: RosterSpec<CairnContext, CairnCombatant> = {
  max: 200,
  sideProblem: (_ctx, seed) => (seed.side === 'party' || seed.side === 'enemies' ? null : `${seed.name} must join the party or the enemies.`),
  fromSeed: (_ctx, seed) => combatantFromSeed(seed),
  hasLeft: (c) => c.out !== null,
};

export const checkStart = (ctx: CairnContext): string | null =>
  roster.checkSidesPresent(ctx, [{ key: 'party', noun: 'party member' }, { key: 'enemies', noun: 'enemy' }]);

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
